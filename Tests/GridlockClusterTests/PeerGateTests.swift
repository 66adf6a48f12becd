// The cap on a role's peers (PeerGate.swift): counted by descriptor from the monitor's events,
// decided for the ZAP handler, and the heap trimmed once many have left.

import Foundation
import Testing
@testable import GridlockCluster
import ZeroMQ

@Suite("Peer gate")
struct PeerGateTests {
    static func request(_ mechanism: String = "NULL") -> ZAPRequest {
        ZAPRequest(domain: CurveAllowlist.jobsDomain, address: "127.0.0.1", mechanism: mechanism, publicKey: nil)
    }

    @Test("peers are counted by descriptor from their acceptance until they disconnect; handshakes' events (which carry no descriptor) and strangers' disconnections count nothing")
    func countsConnectedPeers() {
        let gate = PeerGate(limit: 3, role: "coordinator")
        gate.note([(.accepted, 10), (.accepted, 11), (.connected, 0), (.connected, 0), (.handshakeFailed, 0), (.disconnected, 99)])
        #expect(gate.count == 2)
        gate.note([(.accepted, 11), (.disconnected, 10)])
        #expect(gate.count == 1)
    }

    @Test("past the cap a handshake is refused, naming the role and the flag; below it, admitted; a CURVE allowlist is asked first")
    func refusesPastTheCap() {
        let gate = PeerGate(limit: 2, role: "sink")
        gate.note([(.accepted, 1)])
        #expect(PeerGate.decide(Self.request(), gate: gate, allowlist: nil) == .allow(user: ""))
        gate.note([(.accepted, 2)])
        #expect(PeerGate.decide(Self.request(), gate: gate, allowlist: nil) == .deny(reason: "the sink has 2 peers connected, its --max-peers"))
        gate.note([(.disconnected, 1)])
        #expect(PeerGate.decide(Self.request(), gate: gate, allowlist: nil) == .allow(user: ""))
        // A plain peer of a CURVE role is refused by the allowlist, whatever the count.
        let curve = PeerGate.decide(Self.request(), gate: gate, allowlist: CurveAllowlist(entries: [:]))
        #expect(curve == .deny(reason: "NULL is not CURVE"))
        // No gate: the allowlist alone, or everyone.
        #expect(PeerGate.decide(Self.request(), gate: nil, allowlist: nil) == .allow(user: ""))
    }

    @Test("handshakes admitted before the loop has told the gate of their connections count: a burst stops at the cap")
    func admittedHandshakesCount() {
        let gate = PeerGate(limit: 2, role: "coordinator")
        let decisions = (0..<5).map { _ in PeerGate.decide(Self.request(), gate: gate, allowlist: nil) }
        #expect(decisions.filter { $0 == .allow(user: "") }.count == 2)
        // The loop's look finds both accepted: still two, still full.
        gate.note([(.accepted, 3), (.accepted, 4)])
        #expect(gate.count == 2 && PeerGate.decide(Self.request(), gate: gate, allowlist: nil) != .allow(user: ""))
    }

    @Test("the heap is trimmed once 256 peers have left since the peak, and not again until as many more have")
    func trimsAfterManyLeave() {
        let gate = PeerGate(limit: 10_000, role: "coordinator")
        gate.note((0..<1_000).map { (.accepted, Int32($0)) })
        gate.note((0..<255).map { (.disconnected, Int32($0)) })
        #expect(!gate.shouldTrim())
        gate.note([(.disconnected, 255)])
        #expect(gate.shouldTrim())
        #expect(!gate.shouldTrim())
        gate.note((256..<512).map { (.disconnected, Int32($0)) })
        #expect(gate.shouldTrim())
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
