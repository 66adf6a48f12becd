// The cap on a role's connected peers (`--max-peers`). Each peer whose handshake succeeds costs
// its role about 23 KB (libzmq's session, pipes and buffers): 10,000 of them took a coordinator
// from 32 MB to 263 MB (docs/benchmarks.md). A connection that never finishes its handshake
// costs about 2 KB, and libzmq drops it after its handshake interval.
//
// The role's loop watches its bound socket (ZMQMonitor) and tells the gate of each connection
// accepted and each disconnection, by descriptor (libzmq's event for a successful handshake
// carries none, so handshakes cannot be counted apart); the context's ZAP handler asks the gate
// about each new handshake, CURVE or plain, and refuses it while the cap is reached. So a
// connection counts from its acceptance, handshake or not, until it closes. The count trails the
// connections by a pass of the loop, so handshakes admitted meanwhile count too.
//
// Refusing at the handshake was not enough: a handshake waits for the ZAP handler's answer
// holding its 23 KB, and a flood of 10,000 still took a coordinator to 258 MB. So the loop also
// shuts down each connection accepted while the cap is reached, before its handshake: 111 MB.
//
// Peers that leave hand their memory back to the allocator, not to the system: after a flood the
// role stayed at its peak. Once the peers have fallen well below their peak, the loop trims the
// heap (`malloc_trim`), so the role's memory returns to its idle level.

import CProcessControl
import Foundation
import ZeroMQ

public final class PeerGate: @unchecked Sendable {
    /// Enough for a cluster of 2,000 worker processes, and under 128 MiB a role with every one
    /// connected (2,048 x 23 KB is 47 MB, beside the role's own 30-60 MB).
    public static let defaultLimit = 2_048

    public let limit: Int
    /// "coordinator" or "sink", for the refusal's reason.
    public let role: String
    private let lock = NSLock()
    private var connected: Set<Int32> = []
    /// Handshakes admitted since the loop last told the gate what happened: their acceptance,
    /// which comes before their handshake, waits in the monitor's queue, so they are counted
    /// here until then. Without them, a flood admitted thousands while the loop caught up.
    private var admittedSinceNote = 0
    /// The most peers connected since the heap was last trimmed.
    private var peak = 0

    public init(limit: Int, role: String) {
        precondition(limit > 0, "a cap of at least one peer")
        self.limit = limit
        self.role = role
    }

    /// Connections open now, with those admitted since the loop last looked.
    public var count: Int { lock.withLock { connected.count + admittedSinceNote } }

    /// The ZAP handler's question: nil to admit a new peer (counted from now), or the reason it
    /// is refused.
    public func refusal() -> String? {
        lock.withLock {
            let count = connected.count + admittedSinceNote
            guard count >= limit else {
                admittedSinceNote += 1
                return nil
            }
            return "the \(role) has \(count) peers connected, its --max-peers"
        }
    }

    /// What the loop heard from the bound socket's monitor. Returns the connections accepted
    /// while the cap was reached: the loop closes them before their handshake, which is what
    /// costs memory (23 KB each, where a connection waiting for its handshake costs 2 KB).
    @discardableResult
    public func note(_ events: [(event: ZMQMonitor.Event, descriptor: Int32)]) -> [Int32] {
        lock.withLock {
            // Every handshake admitted so far was accepted before it: its acceptance is in these
            // events, or in the set already.
            admittedSinceNote = 0
            var over: [Int32] = []
            for (event, descriptor) in events {
                switch event {
                case .accepted:
                    if connected.count >= limit { over.append(descriptor) }
                    connected.insert(descriptor)
                case .disconnected: connected.remove(descriptor)
                case .connected, .handshakeFailed: break  // A handshake's event carries no descriptor.
                }
            }
            peak = max(peak, connected.count)
            return over
        }
    }

    /// Whether the heap should be trimmed now: at least `trimStep` peers have left since the
    /// peak, so their memory lies free in the allocator. Resets the peak when it says so.
    public func shouldTrim() -> Bool {
        lock.withLock {
            guard peak - connected.count >= Self.trimStep else { return false }
            peak = connected.count
            return true
        }
    }

    /// About 6 MB of sessions: a trim costs a walk of the heap, so not for every peer that leaves.
    static let trimStep = 256

    /// The ZAP handler's decision for a role with this gate (if any) and this CURVE allowlist
    /// (if any): the allowlist first, so strangers never count, then the cap.
    public static func decide(_ request: ZAPRequest, gate: PeerGate?, allowlist: CurveAllowlist?) -> ZAPDecision {
        let allowed = allowlist?.decide(request) ?? .allow(user: "")
        guard case .allow = allowed, let reason = gate?.refusal() else { return allowed }
        return .deny(reason: reason)
    }
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
    /// it (an ipc:// endpoint's peers are this machine's, and are only refused at handshake).
    private var port: UInt16?

    /// Call with the socket's endpoint once bound ("tcp://127.0.0.1:5555").
    public func bound(to endpoint: String) {
        guard endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":") else { return }
        port = UInt16(endpoint[endpoint.index(after: colon)...])
    }

    /// Tells the gate what happened, closes the connections past the cap, and trims the heap
    /// once many peers have left.
    public func drain() throws {
        for descriptor in gate.note(try monitor.connectionEvents()) where port.map({ Self.isAcceptedConnection(descriptor, port: $0) }) ?? false {
            // libzmq's I/O thread owns the descriptor: shutting it down (not closing it) makes
            // that thread read the end of the connection and close it itself.
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        }
        if gate.shouldTrim() { _ = gridlock_trim_heap() }
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
