// Every libzmq call that can fail goes through `check`: a failed call becomes a typed error that
// says which operation failed, on which endpoint, and why (errno and libzmq's own sentence).
// Where nothing can act on a failure (closing, a teardown), the call still goes through `check`
// and the error is dropped there, with `try?`, in plain sight. Calls that cannot fail (errno,
// strerror, version, a message's size, data and more flag) are made directly.
// ZeroMQSeamTests reads this module's sources and holds it to that.
//
// ETERM (the context is shutting down) and EAGAIN (nothing to receive, or a full queue, with
// ZMQ_DONTWAIT) are not failures for a socket loop: callers test `isTermination` and
// `isWouldBlock` rather than matching numbers.

import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

public struct ZMQError: Error, Sendable, Hashable, CustomStringConvertible {
    public var errno: Int32
    public var operation: String
    public var endpoint: String?

    public init(errno: Int32, operation: String, endpoint: String? = nil) {
        self.errno = errno
        self.operation = operation
        self.endpoint = endpoint
    }

    /// libzmq's description of the error number.
    public var reason: String { String(cString: zmq_strerror(errno)) }

    public var isTermination: Bool { errno == ETERM }
    public var isWouldBlock: Bool { errno == EAGAIN }
    public var isInterrupted: Bool { errno == EINTR }
    /// A ROUTER with ZMQ_ROUTER_MANDATORY could not route to an unknown peer.
    public var isUnroutable: Bool { errno == EHOSTUNREACH }

    public var description: String {
        let place = endpoint.map { " \($0)" } ?? ""
        return "zmq \(operation)\(place) failed: \(reason) (errno \(errno))"
    }
}

/// Turns a libzmq return code into a value or a typed error, reading errno at once.
@inline(__always)
@discardableResult
func check(_ returnCode: Int32, _ operation: @autoclosure () -> String, endpoint: String? = nil) throws(ZMQError) -> Int32 {
    if returnCode == -1 {
        throw ZMQError(errno: zmq_errno(), operation: operation(), endpoint: endpoint)
    }
    return returnCode
}

/// Turns a libzmq call that returns a pointer (a context, a socket, a Z85 text) into the pointer
/// or a typed error: NULL is its failure.
@inline(__always)
func check<Pointer>(_ pointer: Pointer?, _ operation: @autoclosure () -> String) throws(ZMQError) -> Pointer {
    guard let pointer else { throw ZMQError(errno: zmq_errno(), operation: operation()) }
    return pointer
}
