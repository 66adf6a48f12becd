// The cluster key: SipHash-2-4 as its paper gives it, keys as text, leases that bind a result
// to the job it answers.

@testable import GridlockWire
import Testing

@Suite struct ClusterKeyTests {
    /// The paper's key: bytes 00 to 0f.
    static let paperKey: (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0F0E_0D0C_0B0A_0908)

    @Test("SipHash-2-4 gives the reference outputs: the empty message, and the paper's 15 bytes")
    func sipHashVectors() {
        #expect(SipHash24.tag([], key: Self.paperKey) == 0x726F_DB47_DD0E_0E31)
        #expect(SipHash24.tag(Array(0..<15), key: Self.paperKey) == 0xA129_CA61_49BE_45E5)
        // Fed in pieces, the same.
        var pieces = SipHash24(key: Self.paperKey)
        pieces.combine([0, 1, 2])
        pieces.combine(Array(3..<15))
        #expect(pieces.finalize() == 0xA129_CA61_49BE_45E5)
    }

    @Test("bytes in memory (word at a time) hash as the same bytes one at a time, at every length and split")
    func wordPathMatchesBytePath() {
        let message = (0..<70).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...message.count {
            let bytes = Array(message[..<length])
            // A lazy map has no contiguous storage: it takes the byte-at-a-time path.
            let oneByOne = SipHash24.tag(bytes.lazy.map { $0 }, key: Self.paperKey)
            #expect(SipHash24.tag(bytes, key: Self.paperKey) == oneByOne, "length \(length)")
            for split in [1, 3, 7, 8, 9].filter({ $0 < length }) {
                var pieces = SipHash24(key: Self.paperKey)
                pieces.combine(bytes[..<split])
                pieces.combine(bytes[split...])
                #expect(pieces.finalize() == oneByOne, "length \(length) split at \(split)")
            }
        }
    }

    @Test("a key reads back from the 32 hex digits it prints; anything else is refused")
    func keyText() {
        let key = ClusterKey.random()
        #expect(key.hex.count == 32)
        #expect(ClusterKey(hex: key.hex + "\n") == key)
        #expect(ClusterKey(hex: "000102030405060708090a0b0c0d0e0f") == ClusterKey(0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F))
        for bad in ["", "0123", String(repeating: "g", count: 32), String(repeating: "0", count: 33), "0011 2233 4455 6677 8899 aabb ccdd eeff"] {
            #expect(ClusterKey(hex: bad) == nil, "\(bad)")
        }
    }

    @Test("a lease is the tag of its fields in the codec's encoding, hashed as they are made (long, non-ASCII and bridged texts too)")
    func leaseStreamsTheEncoding() {
        let key = ClusterKey.random()
        let long = String(repeating: "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo ", count: 20)
        for (job, text) in [(0, ""), (-1, "é→✓"), (Int.max, long), (300, "A"), (Int.min, String(long.reversed()))] {
            let leased = Job(batch: "b-\(text.prefix(3))", id: job, attempt: job % 7, kind: .tilt,
                             puzzle: text, solver: "bfs", maxStates: 9, timeoutSeconds: nil, source: "f:\(job)",
                             options: job == 300 ? JobReadOptions(tileGoal: "blank-first", tileWidth: 3, tileHeight: -2) : JobReadOptions())
            let worker = WorkerIdentity(host: "h\(text.suffix(2))", pid: job % 65_536)
            #expect(key.lease(for: leased, to: worker) == key.leaseOfEncodedFields(
                batch: leased.batch, job: leased.id, attempt: leased.attempt, fingerprint: leased.fingerprint, kind: .tilt, puzzle: text,
                options: leased.options, solver: "bfs", source: leased.source, worker: worker), "job \(job)")
        }
    }

    @Test("a lease matches only its result: another attempt, job, puzzle, how it is read, source, worker or key breaks it")
    func leaseBindsTheResult() {
        let key = ClusterKey.random()
        var job = Job(batch: "b", id: 4, attempt: 2, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil, source: "f:5")
        let worker = WorkerIdentity(host: "w", pid: 1)
        job.lease = key.lease(for: job, to: worker)
        let result = JobResult(answering: job, worker: worker, status: .solved)
        #expect(result.lease == key.lease(answering: result))
        var changed = [result, result, result, result, result, result, result, result]
        changed[0].attempt = 1
        changed[1].job = 5
        changed[2].puzzle = "q"
        changed[3].source = "f:6"
        // The lease of a job handed to one worker, answered in another's name.
        changed[4].worker = WorkerIdentity(host: "w", pid: 2)
        changed[5].worker = WorkerIdentity(host: "v", pid: 1)
        // The same text read as another board: the sink would replay the answer on that one.
        changed[6].options.tileWidth = 3
        changed[7].options.tileGoal = ""
        for forged in changed { #expect(forged.lease != key.lease(answering: forged)) }
        #expect(result.lease != ClusterKey.random().lease(answering: result))
    }

    @Test("with a key, the sink's, the coordinator's and a worker's words travel with their tag; jobs, results and the rest do not")
    func tagFrames() {
        let key = ClusterKey.random()
        let frames = WireMessage.stored(batch: "b", jobs: []).frames(key: key)
        #expect(frames.count == 2 && key.verifies(frames[0], tagFrame: frames[1]))
        #expect(!ClusterKey.random().verifies(frames[0], tagFrame: frames[1]))
        #expect(WireMessage.forget(batch: "b", from: 0).frames(key: key).count == 2)
        #expect(WireMessage.ready(WorkerIdentity(host: "h", pid: 1), credit: 2).frames(key: key).count == 2)
        #expect(WireMessage.heartbeat(WorkerIdentity(host: "h", pid: 1), .nothing).frames(key: key).count == 2)
        #expect(WireMessage.jobs([]).frames(key: key).count == 1)
        #expect(WireMessage.results([]).frames(key: key).count == 1)
        #expect(WireMessage.drained.frames(key: key).count == 1)
        #expect(WireMessage.stored(batch: "b", jobs: []).frames(key: nil).count == 1)
    }
}

extension ClusterKey {
    /// The lease as the codec's bytes, hashed whole: the reference `lease` must equal.
    func leaseOfEncodedFields(
        batch: String, job: Int, attempt: Int, fingerprint: JobFingerprint, kind: PuzzleKind, puzzle: String, options: JobReadOptions,
        solver: String, source: String, worker: WorkerIdentity
    ) -> UInt64 {
        var writer = WireWriter()
        writer.string(batch)
        writer.int(job)
        writer.int(attempt)
        writer.fingerprint(fingerprint)
        writer.byte(kind.wireCode)
        writer.string(puzzle)
        options.write(to: &writer)
        writer.string(solver)
        writer.string(source)
        writer.string(worker.host)
        writer.int(worker.pid)
        return tag(writer.bytes, .lease)
    }
}
