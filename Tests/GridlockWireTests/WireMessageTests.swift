// Every message survives a round trip, and no frame, however broken, does anything but fail
// with a WireError.

import GridlockWire
import Testing

@Suite("Gridlock wire protocol")
struct WireMessageTests {
    static let worker = WorkerIdentity(host: "worker-3.example", pid: 4242)

    static var sampleResult: JobResult {
        var result = JobResult(batch: "b-1", job: 17, attempt: 2, worker: worker, status: "solved")
        result.moves = 23
        result.solution = "D up 1, E down 1, A right 4"
        result.cluster = 58_419
        result.examined = 521_748
        result.enqueued = 40_875
        result.maxQueue = 6_230
        result.statesStored = 40_875
        result.memoryBytes = 600_000
        result.seconds = 0.0185
        result.cpuSeconds = 0.0181
        result.peakRSSBytes = 9_437_184
        return result
    }

    static let messages: [WireMessage] = [
        .ready(worker, credit: 4),
        .jobs([
            Job(batch: "b-1", id: 0, attempt: 1, kind: "rushhour", puzzle: "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419",
                solver: "bfs", maxStates: 50_000_000, timeoutSeconds: 2.5),
            Job(batch: "ünïcode ✓", id: Int.max, attempt: 9, kind: "rushhour", puzzle: "..B...\nAAB..>", solver: "reference",
                maxStates: 1, timeoutSeconds: nil),
        ]),
        .jobs([]),
        .heartbeat(worker, jobs: [17, 18]),
        .heartbeat(worker, jobs: []),
        .results([sampleResult, JobResult(batch: "b", job: -1, attempt: 0, worker: worker, status: "failed")]),
        .results([sampleResult]),
        .stored(batch: "b-1", jobs: [0, 1, 2, 1_000_000, -5]),
        .stored(batch: "b-1", jobs: []),
        .sinkHello,
        .syncRequest(batch: "b-1"),
        .drained,
    ]

    @Test("every message decodes to itself", arguments: messages)
    func roundTrip(_ message: WireMessage) throws {
        #expect(try WireMessage.decode(message.encoded()) == message)
    }

    @Test("every truncation of every message fails cleanly", arguments: messages)
    func truncations(_ message: WireMessage) {
        let frame = message.encoded()
        for length in 0..<frame.count {
            #expect(throws: WireError.self) { try WireMessage.decode(Array(frame.prefix(length))) }
        }
        #expect(throws: WireError.trailingBytes(1)) { try WireMessage.decode(frame + [0]) }
    }

    @Test("a frame of another version or kind says so")
    func versionAndKind() {
        var frame = WireMessage.drained.encoded()
        frame[2] = 99
        #expect(throws: WireError.unsupportedVersion(99)) { try WireMessage.decode(frame) }
        frame = WireMessage.drained.encoded()
        frame[3] = 200
        #expect(throws: WireError.unknownKind(200)) { try WireMessage.decode(frame) }
        #expect(throws: WireError.badMagic) { try WireMessage.decode(Array("GET / HTTP/1.1".utf8)) }
    }

    @Test("10,000 random and mutated frames never crash the decoder")
    func randomFrames() {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var rejected = 0
        for round in 0..<10_000 {
            var frame: [UInt8]
            if round % 2 == 0 {
                frame = (0..<Int(next() % 64)).map { _ in UInt8(truncatingIfNeeded: next()) }
                if round % 4 == 0, frame.count >= 4 { frame.replaceSubrange(0..<4, with: [0x47, 0x4C, 1, UInt8(1 + next() % 8)]) }
            } else {
                frame = Self.messages[Int(next() % UInt64(Self.messages.count))].encoded()
                for _ in 0..<(1 + next() % 3) where !frame.isEmpty {
                    frame[Int(next() % UInt64(frame.count))] = UInt8(truncatingIfNeeded: next())
                }
            }
            do {
                _ = try WireMessage.decode(frame)
            } catch {
                rejected += 1
            }
        }
        // Most random frames are rejected; a few mutations land on harmless bytes and decode.
        #expect(rejected > 5_000)
    }

    @Test("a declared length of gigabytes is refused before anything is allocated")
    func hugeLength() {
        let frame: [UInt8] = [0x47, 0x4C, 1, 7, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        #expect(throws: WireError.self) { try WireMessage.decode(frame) }
    }
}
