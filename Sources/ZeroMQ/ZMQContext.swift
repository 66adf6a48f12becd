// The one object shared between threads: sockets are created from it on the thread that will
// own them. Closing a context waits for its sockets to close, so `terminate` comes last.

import CZeroMQ

public final class ZMQContext: @unchecked Sendable {
    // libzmq contexts are thread-safe; this pointer is only read after init.
    let handle: UnsafeMutableRawPointer
    private var terminated = false

    public init() throws(ZMQError) {
        handle = try check(zmq_ctx_new(), "ctx_new")
    }

    /// Makes blocking calls on its sockets fail with ETERM, then waits until every socket of
    /// the context is closed. Call once, after the socket threads were told to stop.
    public func terminate() {
        guard !terminated else { return }
        terminated = true
        // Interrupted by a signal: wait again. Any other failure (a bad handle) leaves nothing to do.
        while true {
            do throws(ZMQError) {
                try check(zmq_ctx_term(handle), "ctx_term")
                return
            } catch where error.isInterrupted {
                continue
            } catch {
                return
            }
        }
    }

    /// Makes blocking calls fail with ETERM without waiting (for a signal handler or a
    /// supervising thread).
    public func shutdown() {
        _ = try? check(zmq_ctx_shutdown(handle), "ctx_shutdown")
    }

    deinit {
        terminate()
    }

    /// libzmq's version, e.g. "4.3.4".
    public static var version: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}

extension ZMQContext {
    /// Raises the number of sockets the context may hold (libzmq's default is 1,023): a
    /// process that simulates many workers holds two each. Set before the first socket.
    public func setMaximumSockets(_ count: Int32) throws(ZMQError) {
        try check(zmq_ctx_set(handle, ZMQ_MAX_SOCKETS, count), "ctx_set(ZMQ_MAX_SOCKETS)")
    }
}
