// zmq_poll over a few sockets, and plain file descriptors beside them: the only way a socket
// loop waits, always with a timeout, so a loop can notice that it was told to stop.

import CZeroMQ

public enum ZMQPoller {
    /// Waits until at least one socket has a message to read, or one descriptor is readable,
    /// or `timeout` passes. Returns, for each socket and then each descriptor in order, whether
    /// it is readable. EINTR counts as a timeout.
    public static func readable(
        _ sockets: [ZMQSocket], descriptors: [Int32] = [], timeout: Duration
    ) throws(ZMQError) -> [Bool] {
        var items = sockets.map { zmq_pollitem_t(socket: $0.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0) }
        items += descriptors.map { zmq_pollitem_t(socket: nil, fd: $0, events: Int16(ZMQ_POLLIN), revents: 0) }
        // Rounded up: a wait of 0.4 ms must not become a poll that returns at once, or a loop
        // waiting out a deadline spins until it passes.
        let (seconds, attoseconds) = timeout.components
        let partial: Int64 = attoseconds % 1_000_000_000_000_000 > 0 ? 1 : 0
        let milliseconds = max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000 + partial)
        do throws(ZMQError) {
            try check(zmq_poll(&items, Int32(items.count), Int(milliseconds)), "poll")
        } catch where error.isInterrupted {
            return [Bool](repeating: false, count: items.count)
        }
        return items.map { $0.revents & Int16(ZMQ_POLLIN) != 0 }
    }
}
