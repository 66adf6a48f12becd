// Refused frames are counted by reason and described with their peer, a few a minute.

import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct RejectionLogTests {
    static let t0 = ContinuousClock.now

    @Test("ten lines a minute, then silence; the next minute's first line counts what was not shown")
    func boundedRate() {
        var log = RejectionLog()
        let lines = (0..<25).compactMap { _ in log.note(.forged, what: "stored", peer: Array("w1:7".utf8), now: Self.t0) }
        #expect(lines.count == RejectionLog.linesPerWindow)
        #expect(lines[0] == "refused a forged frame (stored) from peer w1:7")
        let next = log.note(.malformed, what: "truncated", peer: [0, 0x6B, 0x8B, 0x45, 0x67], now: Self.t0.advanced(by: .seconds(61)))
        #expect(next == "refused a malformed frame (truncated) from peer 0x006b8b4567 (and 15 more refused before it, not shown)")
    }

    @Test("text from the wire in a log line is escaped: no peer writes to the operator's terminal")
    func linesAreEscaped() {
        var log = RejectionLog()
        let line = log.note(.forged, what: "a result of batch evil\u{1B}[31m\r\n", peer: nil, now: Self.t0)
        #expect(line == "refused a forged frame (a result of batch evil\\u{1B}[31m\\u{D}\\u{A})")
    }

    @Test("a coordinator without a key that meets a tagging sink says so once, and goes on (a stranger must not stop it)")
    func keyMismatchIsSaid() {
        var machine = CoordinatorMachine(configuration: .init(batch: "b", identity: WorkerIdentity(host: "c", pid: 0)))
        let first = machine.receive([[9]] + WireMessage.sinkHello.frames(key: ClusterKey.random()), now: Self.t0)
        #expect(first.contains(.log("a sink's sinkHello came with a tag: if the sink has a --key-file, give this coordinator the same one, or it will refuse every result")))
        #expect(!first.contains { if case .stop = $0 { true } else { false } })
        let again = machine.receive([[9]] + WireMessage.sinkHello.frames(key: ClusterKey.random()), now: Self.t0)
        #expect(!again.contains { if case .log = $0 { true } else { false } })
    }

    @Test("the coordinator logs a refused frame with its peer and counts it by reason")
    func coordinatorLogsRefusals() {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: WorkerIdentity(host: "c", pid: 0))
        let key = ClusterKey.random()
        configuration.key = key
        var machine = CoordinatorMachine(configuration: configuration)
        let forged = machine.receive([Array("mallory".utf8), WireMessage.sinkHello.encoded()], now: Self.t0)
        #expect(forged == [.log("refused a forged frame (sinkHello without the key's tag: a sink without this --key-file, or an impostor) from peer mallory")])
        let junk = machine.receive([[7], [0x47, 0x4C]], now: Self.t0)
        #expect(junk == [.log("refused a malformed frame (frame ends early) from peer 0x07")])
        #expect(machine.progress.dropped.forged == 1 && machine.progress.dropped.malformed == 1)
        // A heartbeat holding more jobs than any worker may is refused, named, and nothing else,
        // even from a worker holding the key.
        let held = HeldWork(current: nil, lastReceived: nil, jobs: 5_000)
        let oversized = machine.receive([[8]] + WireMessage.heartbeat(WorkerIdentity(host: "w", pid: 1), held).frames(key: key), now: Self.t0)
        #expect(oversized == [.log("refused a malformed frame (heartbeat holding 5000 jobs, over 1024) from peer 0x08")])
        #expect(machine.progress.dropped.malformed == 2)
    }
}
