// The cap on a role's connected peers (`--max-peers`). Each peer whose handshake succeeds costs
// its role about 23 KB (libzmq's session, pipes and buffers): 10,000 of them took a coordinator
// from 32 MB to 263 MB (docs/benchmarks.md). A connection that never finishes its handshake
// costs about 2 KB.
//
// The role's loop watches its bound socket (ZMQMonitor) and tells the gate of each connection
// accepted and each disconnection, by descriptor. A connection accepted while the cap is reached
// is shut down at once, before its handshake costs anything: a flood of 10,000 peaked at 111 MB.
//
// The cap is never enforced by refusing the handshake (the ZAP handler): libzmq 4.3.4 never
// dials again after its handshake is refused, so an honest worker, or the sink, that connected
// while a flood held the cap stayed shut out for good (the chaos scenario peer-flood lost a
// whole batch that way). A connection shut down is only a dropped connection to the peer, which
// dials again 100 ms later and gets in once there is room. Refusing at the handshake also saved
// no memory once connections were shut down when accepted (peaks of 111-115 MB either way).
//
// Peers that leave hand their memory back to the allocator, not to the system: after a flood the
// role stayed at its peak. Once the peers have fallen well below their peak and the monitor has
// been quiet a second, the loop trims the heap (`malloc_trim`), so the role's memory returns to
// its idle level. The quiet second matters: libzmq's I/O thread frees a session after reporting
// its disconnection, and a trim at the disconnections left a sink at 65-105 MB where one a second
// later brought it back to its idle 39 MB (docs/benchmarks.md).

import CProcessControl
import Foundation
import ZeroMQ

public final class PeerGate: @unchecked Sendable {
    /// Enough for a cluster of 2,000 worker processes, and under 128 MiB a role with every one
    /// connected (2,048 x 23 KB is 47 MB, beside the role's own 30-60 MB).
    public static let defaultLimit = 2_048

    public let limit: Int
    /// "coordinator" or "sink", for the log's lines.
    public let role: String
    private let lock = NSLock()
    private var connected: Set<Int32> = []
    /// Connections shut down past the cap, and the lines that said so.
    private var closed = 0
    private var budget = LineBudget()
    /// The most peers connected since the heap was last trimmed.
    private var peak = 0
    /// When the monitor last reported a connection accepted or closed.
    private var lastChange: ContinuousClock.Instant?
    /// When `trimStep` peers had first left since the peak: a trickle of arrivals (a worker
    /// closed past the cap dials every 100 ms) must not put the trim off for ever.
    private var stepReached: ContinuousClock.Instant?

    public init(limit: Int, role: String) {
        precondition(limit > 0, "a cap of at least one peer")
        self.limit = limit
        self.role = role
    }

    /// Connections open now.
    public var count: Int { lock.withLock { connected.count } }

    /// Connections shut down so far because the cap was reached.
    public var closedCount: Int { lock.withLock { closed } }

    /// Counts `number` connections shut down past the cap; returns the line to log, or nil when
    /// this minute's lines are spent (a flood is thousands of them).
    public func noteClosed(_ number: Int, now: ContinuousClock.Instant) -> String? {
        guard number > 0 else { return nil }
        return lock.withLock {
            closed += number
            guard let earlier = budget.admit(now: now) else { return nil }
            let connections = number == 1 ? "a connection" : "\(number) connections"
            return "closed \(connections) on arrival: the \(role) is at its --max-peers, \(limit) connected (each dials again, and gets in once there is room)\(earlier)"
        }
    }

    /// What the loop heard from the bound socket's monitor. Returns the connections accepted
    /// while the cap was reached: the loop closes them before their handshake, which is what
    /// costs memory (23 KB each, where a connection waiting for its handshake costs 2 KB).
    @discardableResult
    public func note(_ events: [(event: ZMQMonitor.Event, descriptor: Int32)], now: ContinuousClock.Instant) -> [Int32] {
        lock.withLock {
            if !events.isEmpty { lastChange = now }
            var over: [Int32] = []
            for (event, descriptor) in events {
                switch event {
                case .accepted:
                    if connected.count >= limit { over.append(descriptor) }
                    connected.insert(descriptor)
                case .disconnected:
                    connected.remove(descriptor)
                    // Gone already; its number may be reused by a connection kept later in
                    // this same batch of events, which must not be shut down in its place.
                    over.removeAll { $0 == descriptor }
                case .connected, .handshakeFailed: break  // A handshake's event carries no descriptor.
                }
            }
            peak = max(peak, connected.count)
            return over
        }
    }

    /// Whether the heap should be trimmed now: at least `trimStep` peers have left since the
    /// peak, and nothing has connected or left for `settling` (so their memory lies free in the
    /// allocator), or `longestWait` has passed since they had left. Resets the peak when it
    /// says so.
    public func shouldTrim(now: ContinuousClock.Instant) -> Bool {
        lock.withLock {
            guard peak - connected.count >= Self.trimStep, let lastChange else {
                stepReached = nil
                return false
            }
            let reached = stepReached ?? now
            stepReached = reached
            guard lastChange.duration(to: now) >= Self.settling || reached.duration(to: now) >= Self.longestWait else { return false }
            peak = connected.count
            stepReached = nil
            return true
        }
    }

    /// About 6 MB of sessions: a trim costs a walk of the heap, so not for every peer that leaves.
    static let trimStep = 256
    /// Time for libzmq's I/O thread to free the sessions of the peers that left.
    static let settling: Duration = .seconds(1)
    /// The longest the trim waits for a quiet second.
    static let longestWait: Duration = .seconds(10)
}

/// A bound socket's monitor feeding its role's gate: the loop polls `socket` beside its own and
/// calls `drain` when it is readable.
public final class GateWatch {
    private let monitor: ZMQMonitor
    private let gate: PeerGate

    /// Call before `target` binds, so that no handshake is missed.
    public init(_ target: ZMQSocket, context: ZMQContext, gate: PeerGate, name: String) throws {
        monitor = try ZMQMonitor(watching: target, context: context, name: "\(name)-\(getpid())")
        self.gate = gate
    }

    public var socket: ZMQSocket { monitor.socket }

    /// The bound socket's TCP port, once bound: connections past the cap are closed only on
    /// it (an ipc:// endpoint's peers are this machine's own processes, and are not capped).
    private var port: UInt16?

    /// Call with the socket's endpoint once bound ("tcp://127.0.0.1:5555").
    public func bound(to endpoint: String) {
        guard endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":") else { return }
        port = UInt16(endpoint[endpoint.index(after: colon)...])
    }

    /// Tells the gate what happened and closes the connections past the cap. Call when the
    /// monitor's socket is readable. Returns the line to log, if any.
    public func drain(now: ContinuousClock.Instant) throws -> String? {
        var closed = 0
        for descriptor in gate.note(try monitor.connectionEvents(), now: now) where port.map({ Self.isAcceptedConnection(descriptor, port: $0) }) ?? false {
            // libzmq's I/O thread owns the descriptor: shutting it down (not closing it) makes
            // that thread read the end of the connection and close it itself.
            if shutdown(descriptor, Int32(SHUT_RDWR)) == 0 { closed += 1 }
        }
        return gate.noteClosed(closed, now: now)
    }

    /// Trims the heap once many peers have left and things have settled. Call every turn of the
    /// loop (it polls at least every `WireProtocol.pollInterval`).
    public func tend(now: ContinuousClock.Instant) {
        if gate.shouldTrim(now: now) { _ = gridlock_trim_heap() }
    }

    /// Whether `descriptor` is still a TCP connection accepted by this process: it has a peer,
    /// and its local port is the bound socket's. The event is read a moment after libzmq
    /// wrote it, and the descriptor may have been closed and reused since; anything else (the
    /// listener itself, an outgoing connection, a file) is left alone.
    static func isAcceptedConnection(_ descriptor: Int32, port bound: UInt16) -> Bool {
        var local = sockaddr_storage()
        var peer = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var peerLength = localLength
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &localLength) == 0 }
        }
        let connected = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &peerLength) == 0 }
        }
        guard named, connected, let port = Self.port(of: local) else { return false }
        return port == bound
    }

    private static func port(of address: sockaddr_storage) -> UInt16? {
        var address = address
        switch Int32(address.ss_family) {
        case AF_INET: return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
        case AF_INET6: return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) } }
        default: return nil
        }
    }

    public func close() { monitor.close() }
}
