// Every message survives a round trip, and no frame, however broken, does anything but fail
// with a WireError.

@testable import GridlockWire
import Testing

@Suite("Gridlock wire protocol")
struct WireMessageTests {
    static let worker = WorkerIdentity(host: "worker-3.example", pid: 4242)

    static var sampleResult: JobResult {
        var result = JobResult(batch: "b-1", job: 17, attempt: 2, worker: worker, status: .solved)
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
        result.verdict = .correct
        return result
    }

    /// An outside solver's crash: a termination and an unknown verdict travel too.
    static var crashedResult: JobResult {
        var result = JobResult(batch: "b-1", job: 18, attempt: 1, worker: worker, status: .failed)
        result.termination = .crashed
        result.error = "crashed: mine was killed by signal 11 (SIGSEGV)"
        return result
    }

    static let messages: [WireMessage] = [
        .ready(worker, credit: 4),
        .ready(worker, credit: 4, jobSeconds: 0.0015),
        .jobs([JobChunk(id: ChunkID(1 << 40), jobs: [
            Job(batch: "b-1", id: 0, attempt: 1, kind: .rushhour, puzzle: "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419",
                solver: "bfs", maxStates: 50_000_000, timeoutSeconds: 2.5),
            Job(batch: "ünïcode ✓", id: Int.max, attempt: 9, kind: .rushhour, puzzle: "..B...\nAAB..>", solver: "reference",
                maxStates: 1, timeoutSeconds: nil),
        ]), JobChunk(id: ChunkID(.max), jobs: [Job(batch: "b", id: 3, attempt: 1, kind: .tilt, puzzle: "p", solver: "bfs", maxStates: 1, timeoutSeconds: nil)])]),
        .jobs([]),
        .heartbeat(worker, HeldWork(current: ChunkPosition(chunk: ChunkID(1 << 40), index: 17), lastReceived: ChunkID((1 << 40) + 2), jobs: 18)),
        .heartbeat(worker, HeldWork(current: nil, lastReceived: ChunkID(5), jobs: 0)),
        .heartbeat(worker, .nothing),
        .results([sampleResult, JobResult(batch: "b", job: -1, attempt: 0, worker: worker, status: .failed)]),
        .results([sampleResult]),
        .results([crashedResult, sampleResult]),
        .stored(batch: "b-1", jobs: [StoredJob(job: 0, fingerprint: JobFingerprint(1)), StoredJob(job: -5, fingerprint: JobFingerprint(.max))]),
        .stored(batch: "b-1", jobs: []),
        .stored(batch: "b-1", jobs: [StoredJob(job: 4, fingerprint: JobFingerprint(9), status: .solved, wrong: true, refutedWorker: worker)]),
        .sinkHello,
        .storedQuery(batch: "b-1", from: 8_192, limit: 8_192),
        .storedPage(batch: "b-1", from: 0, jobs: [StoredJob(job: 3, fingerprint: JobFingerprint(42))], complete: true),
        .storedPage(batch: "b-1", from: 0, jobs: [], complete: false),
        .forget(batch: "b-1", from: 12),
        .drained,
        .sinkStopped(reason: "SQLite error 13: database or disk is full"),
        .alive,
        .machine(batch: "b-1", machine),
        .machine(batch: "b-1", MachineRecord(
            host: "h", cpuModel: "", cores: 0, threads: 0, governor: nil, turbo: nil, kernel: "", memoryBytes: 0, loadAverage: 0, method: "")),
        .batchRecord(batchRecord),
        .batchRecord(BatchRecord(
            batch: "b", started: "", host: "", cores: 0, configuration: "", revision: "", solvers: "", jobs: 0, limits: JobLimits(),
            wallLimitSeconds: nil)),
    ]

    static let batchRecord = BatchRecord(
        batch: "b-1", started: "2026-11-26T19:00:00Z", host: "head", cores: 16, configuration: "release", revision: "8ac6526",
        solvers: "bfs@1,bidirectional@1", jobs: 6_000, limits: JobLimits(cpuSeconds: 1.5, memoryBytes: 256 << 20), wallLimitSeconds: 30,
        recipe: BatchRecipe(
            options: ["--solver", "bfs,ext", "--external", "rushhour:ext=./ext --fast", "--time-limit", "1.5", "--paired", "--repeats", "3"],
            files: ["/data/a.txt", "/data/b c.txt"],
            outsideSolvers: [OutsideSolverRecord(kind: "rushhour", name: "ext", command: "./ext --fast", serving: false, version: "ext 1.2")],
            workers: 16, pinning: "one CPU each", paired: true, repeats: 3, loadAtStart: 0.4, loadAtEnd: 15.9,
            quarantined: ["liar:66 (the sink's replay refused its answer to job 4)"]))

    @Test("a batch record with a count below zero or a wall limit that is no positive number is malformed")
    func batchRecordBounds() {
        let edits: [(String, (inout BatchRecord) -> Void)] = [
            ("cores", { $0.cores = -1 }), ("jobs", { $0.jobs = -5 }), ("zero wall", { $0.wallLimitSeconds = 0 }),
            ("NaN wall", { $0.wallLimitSeconds = .nan }), ("zero CPU", { $0.limits.cpuSeconds = 0 }),
            ("long host", { $0.host = String(repeating: "x", count: 256) }),
            ("zero repeats", { $0.recipe?.repeats = 0 }), ("workers", { $0.recipe?.workers = -1 }),
            ("NaN load", { $0.recipe?.loadAtStart = .nan }), ("negative end load", { $0.recipe?.loadAtEnd = -2 }),
            ("long quarantine line", { $0.recipe?.quarantined = [String(repeating: "q", count: 256)] }),
            ("quarantine list", { $0.recipe?.quarantined = Array(repeating: "q", count: BatchRecipe.maximumQuarantined + 1) }),
            ("long version", { $0.recipe?.outsideSolvers[0].version = String(repeating: "v", count: 256) }),
            ("long pinning", { $0.recipe?.pinning = String(repeating: "p", count: 256) }),
            ("too many files", { $0.recipe?.files = Array(repeating: "/f", count: BatchRecipe.maximumEntries + 1) }),
            ("long option", { $0.recipe?.options = [String(repeating: "o", count: BatchRecipe.maximumBytes + 1)] }),
        ]
        for (what, edit) in edits {
            var record = Self.batchRecord
            edit(&record)
            #expect(throws: WireError.self, "\(what)") { try WireMessage.decode(WireMessage.batchRecord(record).encoded()) }
        }
    }

    @Test("a result whose time or CPU time is not a number, below zero or past 31 years is malformed: NaN would stop the sink's database")
    func resultTimes() {
        let times: [Double] = [.nan, -.nan, .infinity, -.infinity, -1e-9, JobResult.longestSeconds * 2]
        for time in times {
            for cpu in [false, true] {
                var result = Self.sampleResult
                if cpu { result.cpuSeconds = time } else { result.seconds = time }
                #expect(throws: WireError.self, "\(cpu ? "CPU " : "")\(time)") { try WireMessage.decode(WireMessage.results([result]).encoded()) }
            }
        }
        var edge = Self.sampleResult
        edge.seconds = 0
        edge.cpuSeconds = JobResult.longestSeconds
        #expect((try? WireMessage.decode(WireMessage.results([edge]).encoded())) == .results([edge]))
    }

    static let machine = MachineRecord(
        host: "node-7", cpuModel: "AMD EPYC 7B13 64-Core Processor", cores: 64, threads: 128, governor: "performance", turbo: "on",
        kernel: "6.1.0-18-amd64", memoryBytes: 512 << 30, loadAverage: 0.25, method: "built-in: clear_refs + VmHWM; outside: wait4 rusage",
        codePath: "x86-64-v4", megahertz: 2_450.5, smt: "on")

    @Test("a machine record with a count below zero, a load that is no number, or a text past 255 bytes is malformed")
    func machineRecordBounds() {
        var edits: [(String, (inout MachineRecord) -> Void)] = [
            ("cores", { $0.cores = -1 }), ("threads", { $0.threads = -4 }), ("memory", { $0.memoryBytes = .min }),
            ("NaN load", { $0.loadAverage = .nan }), ("infinite load", { $0.loadAverage = .infinity }), ("negative load", { $0.loadAverage = -1 }),
            ("NaN clock", { $0.megahertz = .nan }), ("negative clock", { $0.megahertz = -1 }),
        ]
        for field in [\MachineRecord.cpuModel, \.kernel, \.method, \.host] {
            edits.append(("long \(field)", { $0[keyPath: field] = String(repeating: "x", count: 256) }))
        }
        edits.append(("long governor", { $0.governor = String(repeating: "x", count: 256) }))
        edits.append(("long code path", { $0.codePath = String(repeating: "x", count: 256) }))
        edits.append(("long smt", { $0.smt = String(repeating: "x", count: 256) }))
        for (what, edit) in edits {
            var record = Self.machine
            edit(&record)
            #expect(throws: WireError.self, "\(what)") { try WireMessage.decode(WireMessage.machine(batch: "b", record).encoded()) }
        }
    }

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

    @Test("10,000 random and mutated frames of this version never crash the decoder, and reach its field checks")
    func randomFrames() {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var rejections: [String: Int] = [:]
        for round in 0..<10_000 {
            var frame: [UInt8]
            if round % 2 == 0 {
                // A valid header of this version and a real kind, then random bytes: what the
                // field decoders see.
                frame = [0x47, 0x4C, WireProtocol.version, UInt8(1 + next() % 12)]
                frame += (0..<Int(next() % 64)).map { _ in UInt8(truncatingIfNeeded: next()) }
            } else {
                frame = Self.messages[Int(next() % UInt64(Self.messages.count))].encoded()
                for _ in 0..<(1 + next() % 3) where frame.count > 4 {
                    frame[4 + Int(next() % UInt64(frame.count - 4))] = UInt8(truncatingIfNeeded: next())
                }
            }
            do {
                _ = try WireMessage.decode(frame)
            } catch {
                let name = switch error {
                case .truncated: "truncated"
                case .malformed: "malformed"
                case .trailingBytes: "trailing"
                case .badMagic, .unsupportedVersion, .unknownKind: "header"
                }
                rejections[name, default: 0] += 1
            }
        }
        // The header is always valid, so every rejection comes from a field check, and each
        // kind of field check is reached.
        #expect(rejections["header", default: 0] == 0, "\(rejections)")
        #expect(rejections["truncated", default: 0] > 500, "\(rejections)")
        #expect(rejections["malformed", default: 0] > 100, "\(rejections)")
        #expect(rejections["trailing", default: 0] > 100, "\(rejections)")
    }

    @Test("kinds and statuses travel as codes; a code no kind or status has is refused by its check")
    func unknownKindAndStatusCodes() throws {
        let job = Job(batch: "b", id: 1, attempt: 1, kind: .tilt, puzzle: "p", solver: "bfs", maxStates: 10, timeoutSeconds: nil)
        var frame = WireMessage.jobs([JobChunk(id: ChunkID(1), jobs: [job])]).encoded()
        // Header (4 bytes), chunk count, chunk id, job count, "b" (length and byte), id, attempt:
        // the kind's byte follows.
        let kindAt = 4 + 1 + 1 + 1 + 2 + 1 + 1
        #expect(frame[kindAt] == PuzzleKind.tilt.wireCode)
        frame[kindAt] = 0xEE
        #expect(throws: WireError.malformed("puzzle kind")) { try WireMessage.decode(frame) }
        var stored = WireMessage.stored(batch: "b", jobs: [StoredJob(job: 1, fingerprint: JobFingerprint(1), status: .cutoff, wrong: false)]).encoded()
        // Header, "b", list count, job, 8 fingerprint bytes: the status byte follows.
        let statusAt = 4 + 2 + 1 + 1 + 8
        #expect(stored[statusAt] == JobStatus.cutoff.wireCode)
        stored[statusAt] = 0xEE
        #expect(throws: WireError.malformed("job status")) { try WireMessage.decode(stored) }
    }

    @Test("a declared length of gigabytes is refused by the length check before anything is allocated")
    func hugeLength() {
        // A `stored` frame of this version whose batch name claims 2^35 bytes.
        let frame: [UInt8] = [0x47, 0x4C, WireProtocol.version, 5, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]
        #expect(throws: WireError.malformed("string length 34359738368")) { try WireMessage.decode(frame) }
        // A list that claims more elements than the frame has bytes.
        let list: [UInt8] = [0x47, 0x4C, WireProtocol.version, 5, 1, 0x41, 0xFF, 0xFF, 0x03]
        #expect(throws: WireError.truncated) { try WireMessage.decode(list) }
    }

    @Test("a heartbeat is at most 320 bytes whatever the worker holds: the longest host, the largest pid, chunk and count")
    func heartbeatIsBounded() throws {
        let host = String(repeating: "h", count: WireProtocol.maximumNameBytes)
        let largest = WireMessage.heartbeat(
            WorkerIdentity(host: host, pid: Int.max),
            HeldWork(current: ChunkPosition(chunk: ChunkID(.max), index: WireProtocol.maximumChunkJobs - 1), lastReceived: ChunkID(.max), jobs: WireProtocol.maximumHeldJobs))
        let frame = largest.encoded()
        #expect(frame.count <= WireProtocol.maximumHeartbeatBytes, "\(frame.count) bytes")
        #expect(try WireMessage.decode(frame) == largest)
    }

    @Test("a heartbeat, ask or chunk past its bounds is malformed: a count or index out of range, a position newer than what was received, a mean time that is no time")
    func chunkBoundsAreChecked() throws {
        let at = ChunkPosition(chunk: ChunkID(9), index: 0)
        let refused: [(WireMessage, String)] = [
            (.heartbeat(Self.worker, HeldWork(current: ChunkPosition(chunk: ChunkID(9), index: -1), lastReceived: ChunkID(9), jobs: 1)), "chunk index -1"),
            (.heartbeat(Self.worker, HeldWork(current: ChunkPosition(chunk: ChunkID(9), index: 256), lastReceived: ChunkID(9), jobs: 1)), "chunk index 256"),
            (.heartbeat(Self.worker, HeldWork(current: nil, lastReceived: nil, jobs: -1)), "heartbeat holding -1 jobs"),
            (.heartbeat(Self.worker, HeldWork(current: nil, lastReceived: nil, jobs: (1 << 20) + 1)), "heartbeat holding 1048577 jobs"),
            (.heartbeat(Self.worker, HeldWork(current: at, lastReceived: nil, jobs: 1)), "heartbeat at chunk 9 at 0 with no chunk received"),
            (.heartbeat(Self.worker, HeldWork(current: at, lastReceived: ChunkID(9), jobs: 0)), "heartbeat at chunk 9 at 0 holding no jobs"),
            (.ready(Self.worker, credit: 1, jobSeconds: .nan), "mean job time nan"),
            (.ready(Self.worker, credit: 1, jobSeconds: -1), "mean job time -1.0"),
            (.ready(Self.worker, credit: 1, jobSeconds: 1e10), "mean job time 10000000000.0"),
            (.jobs([JobChunk(id: ChunkID(1), jobs: [])]), "empty chunk"),
        ]
        for (message, why) in refused {
            #expect(throws: WireError.malformed(why)) { try WireMessage.decode(message.encoded()) }
        }
        let job = Job(batch: "b", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil)
        let tooLong = WireMessage.jobs([JobChunk(id: ChunkID(1), jobs: Array(repeating: job, count: WireProtocol.maximumChunkJobs + 1))])
        #expect(throws: WireError.malformed("list of 257 entries, over 256")) { try WireMessage.decode(tooLong.encoded()) }
        let longest = WireMessage.jobs([JobChunk(id: ChunkID(1), jobs: Array(repeating: job, count: WireProtocol.maximumChunkJobs))])
        #expect(try WireMessage.decode(longest.encoded()) == longest)
        // A worker still on a job from before its coordinator's restart, having received this
        // run's chunks: ids of two runs do not compare, so the wire lets it through.
        let acrossRuns = WireMessage.heartbeat(Self.worker, HeldWork(current: ChunkPosition(chunk: ChunkID(.max - 3), index: 2), lastReceived: ChunkID(7), jobs: 9))
        #expect(try WireMessage.decode(acrossRuns.encoded()) == acrossRuns)
    }

    @Test("a name longer than 255 bytes (host, batch, solver) is malformed, so no table of workers holds megabytes")
    func namesAreBounded() throws {
        let longest = String(repeating: "h", count: WireProtocol.maximumNameBytes)
        let fits = WireMessage.ready(WorkerIdentity(host: longest, pid: 1), credit: 1)
        #expect(try WireMessage.decode(fits.encoded()) == fits)
        let over = WireMessage.ready(WorkerIdentity(host: longest + "h", pid: 1), credit: 1)
        #expect(throws: WireError.malformed("string of 256 bytes, over 255")) { try WireMessage.decode(over.encoded()) }
        let batch = WireMessage.stored(batch: longest + "b", jobs: [])
        #expect(throws: WireError.malformed("string of 256 bytes, over 255")) { try WireMessage.decode(batch.encoded()) }
    }

    @Test("fingerprints are stable across builds: a row stored by wire protocol 4 still matches its job")
    func fingerprintIsPinned() {
        // Job 0 of Fogleman's database as a batch of build 75f51f0 (kinds as names on the wire)
        // stored it: bfs, the default 50,000,000 states, no time limit.
        let job = Job(
            batch: "whole", id: 0, attempt: 1, kind: .rushhour, puzzle: "60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332",
            solver: "bfs", maxStates: 50_000_000, timeoutSeconds: nil)
        #expect(job.fingerprint.description == "46fbeafcc69870b7")
    }

    @Test("a job's fingerprint covers what decides its answer, and nothing else")
    func fingerprints() {
        let job = Job(batch: "a", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 10, timeoutSeconds: nil)
        let same = Job(batch: "b", id: 9, attempt: 3, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 10, timeoutSeconds: nil, source: "x:3")
        #expect(job.fingerprint == same.fingerprint)
        let changes = [
            Job(batch: "a", id: 1, attempt: 1, kind: .tilt, puzzle: "p", solver: "bfs", maxStates: 10, timeoutSeconds: nil),
            Job(batch: "a", id: 1, attempt: 1, kind: .rushhour, puzzle: "q", solver: "bfs", maxStates: 10, timeoutSeconds: nil),
            Job(batch: "a", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "reference", maxStates: 10, timeoutSeconds: nil),
            Job(batch: "a", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 11, timeoutSeconds: nil),
            Job(batch: "a", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 10, timeoutSeconds: 1),
            Job(batch: "a", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 10, timeoutSeconds: nil,
                options: JobReadOptions(tileGoal: "blank-first")),
            // Fields run together differently must not collide.
            Job(batch: "a", id: 1, attempt: 1, kind: .rushhour, puzzle: "pbfs", solver: "", maxStates: 10, timeoutSeconds: nil),
        ]
        for changed in changes { #expect(changed.fingerprint != job.fingerprint, "\(changed)") }
        // The decoder recomputes it from the fields: a job cannot arrive with another's identity.
        let chunk = JobChunk(id: ChunkID(1), jobs: [same])
        let decoded = try? WireMessage.decode(WireMessage.jobs([chunk]).encoded())
        #expect(decoded == .jobs([chunk]))
    }

    @Test("a string reads back only if it is UTF-8: ASCII, multibyte text; never a stray, cut, overlong or surrogate byte")
    func stringsMustBeUTF8() {
        for text in ["", "ooAAoo", "grille-é", "🧩 puzzle", String(repeating: "x", count: 300)] {
            #expect(WireReader.validString(ArraySlice(Array(text.utf8))) == text)
        }
        for bytes: [UInt8] in [[0x80], [0xFF], [0x41, 0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x41, 0x80, 0x41], [0xF4, 0x90, 0x80, 0x80]] {
            #expect(WireReader.validString(ArraySlice(bytes)) == nil, "\(bytes)")
        }
    }
}
