// Whether a connecting socket is connected: libzmq tells a socket's monitor (a PAIR socket on
// an inproc endpoint) of each handshake that succeeds or fails and each disconnection. A PUSH
// socket hears nothing back from its peer, so this is how a worker can tell that its sink is
// not there, or refuses its keys.

import CZeroMQ

public final class ZMQMonitor {
    public enum Event: Sendable, Hashable {
        /// A connection is up (for CURVE: the keys were accepted).
        case connected
        case disconnected
        /// The peer refused the handshake: for CURVE, a key it does not admit, or a wrong one.
        case handshakeFailed
    }

    /// The monitor's end, to poll beside the loop's other sockets.
    public let socket: ZMQSocket
    private let target: ZMQSocket

    /// Starts watching `target`; call before it connects, so no event is missed. `name` makes
    /// the inproc endpoint unique within the process.
    public init(watching target: ZMQSocket, context: ZMQContext, name: String) throws(ZMQError) {
        let endpoint = "inproc://gridlock-monitor-\(name)"
        let events = ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL
            | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
        guard zmq_socket_monitor(target.handle, endpoint, events) == 0 else {
            throw ZMQError(errno: zmq_errno(), operation: "socket_monitor")
        }
        self.target = target
        socket = try ZMQSocket(context, .pair)
        try socket.set(.lingerMilliseconds(0))
        try socket.connect(endpoint)
    }

    /// The events waiting, without blocking.
    public func events() throws(ZMQError) -> [Event] {
        var events: [Event] = []
        // Each event is two frames: the event number (2 bytes) and its value (4), then the endpoint.
        while let frames = try socket.receive(), let first = frames.first, first.count >= 2 {
            let number = Int32(first.withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) })  // In the host's byte order.
            switch number {
            case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: events.append(.connected)
            case ZMQ_EVENT_DISCONNECTED: events.append(.disconnected)
            case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL, ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL, ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
                events.append(.handshakeFailed)
            default: break
            }
        }
        return events
    }

    /// Stops the monitor and closes its end (before the watched socket closes).
    public func close() {
        _ = zmq_socket_monitor(target.handle, nil, 0)
        socket.close()
    }
}
