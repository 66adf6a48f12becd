// The cap on a role's peers (PeerGate.swift): counted by descriptor from the monitor's events,
// those past it closed on arrival (never refused at the handshake), and the heap trimmed once
// many have left.

import Foundation
import Testing
@testable import GridlockCluster
import ZeroMQ

@Suite("Peer gate")
struct PeerGateTests {
    @Test("peers are counted by descriptor from their acceptance until they disconnect; handshakes' events (which carry no descriptor) and strangers' disconnections count nothing")
    func countsConnectedPeers() {
        let gate = PeerGate(limit: 3, role: "coordinator")
        gate.note([(.accepted, 10), (.accepted, 11), (.connected, 0), (.connected, 0), (.handshakeFailed, 0), (.disconnected, 99)], now: .now)
        #expect(gate.count == 2)
        gate.note([(.accepted, 11), (.disconnected, 10)], now: .now)
        #expect(gate.count == 1)
    }

    @Test("a connection accepted while the cap is reached is to be closed; below it, kept; the closings are counted and logged a few a minute")
    func closesPastTheCap() {
        let gate = PeerGate(limit: 2, role: "sink")
        let now = ContinuousClock.now
        #expect(gate.note([(.accepted, 1), (.accepted, 2)], now: now).isEmpty)
        #expect(gate.note([(.accepted, 3), (.accepted, 4)], now: now) == [3, 4])
        // Those closed leave as any peer does; a peer that leaves makes room for the next.
        gate.note([(.disconnected, 3), (.disconnected, 4), (.disconnected, 1)], now: now)
        #expect(gate.note([(.accepted, 5)], now: now).isEmpty && gate.count == 2)
        let line = gate.noteClosed(2, now: now)
        #expect(line == "closed 2 connections on arrival: the sink is at its --max-peers, 2 connected (each dials again, and gets in once there is room)")
        #expect(gate.noteClosed(0, now: now) == nil)
        let lines = (0..<100).compactMap { _ in gate.noteClosed(1, now: now) }
        #expect(lines.count < 20 && gate.closedCount == 102)
    }

    @Test("a descriptor closed past the cap and reused in the same batch of events by a connection that is kept is not shut down")
    func reusedDescriptorIsKept() {
        let gate = PeerGate(limit: 1, role: "coordinator")
        gate.note([(.accepted, 1)], now: .now)
        // 500 arrives past the cap and leaves; 1 leaves; a new connection numbered 500 is kept.
        #expect(gate.note([(.accepted, 500), (.disconnected, 500), (.disconnected, 1), (.accepted, 500)], now: .now).isEmpty)
        #expect(gate.count == 1)
    }

    @Test("a peer that arrives while the cap is reached is let in once there is room: its connection was closed, not its handshake refused, so it dials again")
    func closedPeerGetsInLater() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try ZMQSocket(context, .router)
        defer { router.close() }
        let gate = PeerGate(limit: 1, role: "coordinator")
        let watch = try GateWatch(router, context: context, gate: gate, name: "gate-test")
        defer { watch.close() }
        try router.bind("tcp://127.0.0.1:*")
        watch.bound(to: router.lastEndpoint)
        let port = UInt16(router.lastEndpoint.split(separator: ":").last!)!
        // The loop's part: drain the monitor, take what arrives.
        func turn(for seconds: Double) throws -> [[UInt8]]? {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline {
                let readable = try ZMQPoller.readable([router, watch.socket], timeout: .milliseconds(20))
                if readable[1] { _ = try watch.drain(now: .now) }
                if readable[0], let frames = try router.receive() { return frames }
            }
            return nil
        }
        // A plain TCP connection takes the only place.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let joined = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(joined == 0)
        _ = try turn(for: 0.3)
        #expect(gate.count == 1)
        let dealer = try ZMQSocket(context, .dealer)
        defer { dealer.close() }
        try dealer.connect(router.lastEndpoint)
        // Closed on arrival, again and again: it dials every 100 ms.
        _ = try turn(for: 1)
        #expect(gate.closedCount >= 1)
        close(holder)
        // Once there is room it gets in. A frame it sends on a connection about to be closed
        // is lost with that connection (in a release build the dealer often redials before the
        // holder's disconnection is seen), so it says hello until one arrives, as a worker's
        // ready and heartbeats do: at most 10 s.
        var frames: [[UInt8]]?
        let deadline = ContinuousClock.now + .seconds(10)
        while frames == nil, ContinuousClock.now < deadline {
            #expect(try dealer.send([Array("hello".utf8)]))
            frames = try turn(for: 0.25)
        }
        #expect(frames?.last == Array("hello".utf8))
    }

    @Test("the heap is trimmed once 256 peers have left since the peak and the monitor has been quiet a second, and not again until as many more have")
    func trimsAfterManyLeave() {
        let gate = PeerGate(limit: 10_000, role: "coordinator")
        let start = ContinuousClock.now
        gate.note((0..<1_000).map { (.accepted, Int32($0)) }, now: start)
        gate.note((0..<255).map { (.disconnected, Int32($0)) }, now: start)
        #expect(!gate.shouldTrim(now: start + .seconds(5)))
        gate.note([(.disconnected, 255)], now: start + .seconds(5))
        // libzmq frees the sessions after reporting them gone: not yet.
        #expect(!gate.shouldTrim(now: start + .seconds(5.5)))
        #expect(gate.shouldTrim(now: start + .seconds(6)))
        #expect(!gate.shouldTrim(now: start + .seconds(7)))
        gate.note((256..<512).map { (.disconnected, Int32($0)) }, now: start + .seconds(8))
        // A quiet turn of the loop (no events) does not restart the wait.
        gate.note([], now: start + .seconds(8.5))
        #expect(gate.shouldTrim(now: start + .seconds(9)))
        // A trickle of arrivals (closed past a cap, dialling again) never leaves a quiet second:
        // the trim waits at most 10 s.
        gate.note((512..<768).map { (.disconnected, Int32($0)) }, now: start + .seconds(20))
        var trimmedAt: Double?
        for tenth in 201...400 {
            let now = start + .seconds(Double(tenth) / 10)
            if tenth % 5 == 0 { gate.note([(.accepted, 5_000), (.disconnected, 5_000)], now: now) }
            if trimmedAt == nil, gate.shouldTrim(now: now) { trimmedAt = Double(tenth) / 10 }
        }
        #expect(trimmedAt == 30.1)
    }

    @Test("only a connection accepted on the bound port is shut down past the cap: never the listener, an outgoing connection or a file")
    func onlyAcceptedConnectionsAreShut() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        #expect(bound == 0 && listen(listener, 4) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let joined = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(joined == 0)
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        #expect(GateWatch.isAcceptedConnection(accepted, port: port))
        #expect(!GateWatch.isAcceptedConnection(listener, port: port))
        #expect(!GateWatch.isAcceptedConnection(client, port: port))
        #expect(!GateWatch.isAcceptedConnection(file, port: port))
        #expect(!GateWatch.isAcceptedConnection(accepted, port: port &+ 1))
    }
}
