// Whether a connecting socket is connected: libzmq tells a socket's monitor (a PAIR socket on
// an inproc endpoint) of each handshake that succeeds or fails and each disconnection. A PUSH
// socket hears nothing back from its peer, so this is how a worker can tell that its sink is
// not there, or refuses its keys; and how a bound socket counts its peers (PeerGate).

import CZeroMQ

public final class ZMQMonitor {
    public enum Event: Sendable, Hashable {
        /// A bound socket took a connection (before any handshake).
        case accepted
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
        let events = ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL
            | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
        try check(zmq_socket_monitor(target.handle, endpoint, events), "socket_monitor")
        self.target = target
        socket = try ZMQSocket(context, .pair)
        try socket.set(.lingerMilliseconds(0))
        // No high-water mark on this end makes the inproc pipe unbounded: past libzmq's 1,000
        // events queued, a burst of connections would lose some, and a gate counting peers
        // would miss their disconnections for good.
        try socket.set(.receiveHighWaterMark(0))
        try socket.connect(endpoint)
    }

    /// The events waiting, without blocking.
    public func events() throws(ZMQError) -> [Event] {
        try connectionEvents().map(\.event)
    }

    /// The events waiting, without blocking, each with its value: the connection's file
    /// descriptor for an acceptance and a disconnection (what tells a bound socket's connections
    /// apart), 0 for a successful handshake.
    public func connectionEvents() throws(ZMQError) -> [(event: Event, descriptor: Int32)] {
        var events: [(event: Event, descriptor: Int32)] = []
        // Each event is two frames: the event number (2 bytes) and its value (4, the descriptor
        // for these events), then the endpoint. Both in the host's byte order.
        while let frames = try socket.receive(), let first = frames.first, first.count >= 6 {
            let number = Int32(first.withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) })
            let descriptor = first.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 2, as: Int32.self) }
            switch number {
            case ZMQ_EVENT_ACCEPTED: events.append((.accepted, descriptor))
            case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: events.append((.connected, descriptor))
            case ZMQ_EVENT_DISCONNECTED: events.append((.disconnected, descriptor))
            case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL, ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL, ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
                events.append((.handshakeFailed, descriptor))
            default: break
            }
        }
        return events
    }

    /// Stops the monitor and closes its end (before the watched socket closes).
    public func close() {
        _ = try? check(zmq_socket_monitor(target.handle, nil, 0), "socket_monitor (stop)")
        socket.close()
    }
}
