// Encoding and decoding of every message, field by field, in the order written here.

extension WireMessage {
    /// The message as one frame.
    public func encoded() -> [UInt8] {
        var writer = WireWriter()
        for byte in WireProtocol.magic { writer.byte(byte) }
        writer.byte(WireProtocol.version)
        switch self {
        case .ready(let worker, let credit, let jobSeconds):
            writer.byte(Kind.ready.rawValue)
            worker.write(to: &writer)
            writer.int(credit)
            writer.bool(jobSeconds != nil)
            if let jobSeconds { writer.double(jobSeconds) }
        case .jobs(let chunks):
            writer.byte(Kind.jobs.rawValue)
            writer.list(chunks) { $1.write(to: &$0) }
        case .heartbeat(let worker, let held):
            writer.byte(Kind.heartbeat.rawValue)
            worker.write(to: &writer)
            held.write(to: &writer)
        case .results(let results):
            writer.byte(Kind.results.rawValue)
            writer.list(results) { $1.write(to: &$0) }
        case .stored(let batch, let jobs):
            writer.byte(Kind.stored.rawValue)
            writer.string(batch)
            writer.list(jobs) { $1.write(to: &$0) }
        case .sinkHello:
            writer.byte(Kind.sinkHello.rawValue)
        case .storedQuery(let batch, let from, let limit):
            writer.byte(Kind.storedQuery.rawValue)
            writer.string(batch)
            writer.int(from)
            writer.int(limit)
        case .storedPage(let batch, let from, let jobs, let complete):
            writer.byte(Kind.storedPage.rawValue)
            writer.string(batch)
            writer.int(from)
            writer.list(jobs) { $1.write(to: &$0) }
            writer.bool(complete)
        case .forget(let batch, let from):
            writer.byte(Kind.forget.rawValue)
            writer.string(batch)
            writer.int(from)
        case .drained:
            writer.byte(Kind.drained.rawValue)
        case .sinkStopped(let reason):
            writer.byte(Kind.sinkStopped.rawValue)
            writer.string(reason)
        case .alive:
            writer.byte(Kind.alive.rawValue)
        case .machine(let batch, let record):
            writer.byte(Kind.machine.rawValue)
            writer.string(batch)
            record.write(to: &writer)
        case .batchRecord(let record):
            writer.byte(Kind.batchRecord.rawValue)
            record.write(to: &writer)
        }
        return writer.bytes
    }

    /// Decodes one frame, or says why it is not a valid message.
    public static func decode(_ frame: [UInt8]) throws(WireError) -> WireMessage {
        guard frame.count >= 4 else { throw frame.starts(with: WireProtocol.magic.prefix(frame.count)) ? .truncated : .badMagic }
        guard frame.starts(with: WireProtocol.magic) else { throw .badMagic }
        guard frame[2] == WireProtocol.version else { throw .unsupportedVersion(frame[2]) }
        guard let kind = Kind(rawValue: frame[3]) else { throw .unknownKind(frame[3]) }
        var reader = WireReader(frame, from: 4)
        let message: WireMessage
        switch kind {
        case .ready:
            message = .ready(try WorkerIdentity(from: &reader), credit: try reader.int(), jobSeconds: try reader.jobSeconds())
        case .jobs:
            message = .jobs(try reader.list { (reader) throws(WireError) in try JobChunk(from: &reader) })
        case .heartbeat:
            message = .heartbeat(try WorkerIdentity(from: &reader), try HeldWork(from: &reader))
        case .results:
            message = .results(try reader.list { (reader) throws(WireError) in try JobResult(from: &reader) })
        case .stored:
            message = .stored(batch: try reader.name(slot: 0), jobs: try reader.list { (reader) throws(WireError) in try StoredJob(from: &reader) })
        case .sinkHello:
            message = .sinkHello
        case .storedQuery:
            message = .storedQuery(batch: try reader.name(slot: 0), from: try reader.int(), limit: try reader.int())
        case .storedPage:
            message = .storedPage(
                batch: try reader.name(slot: 0), from: try reader.int(),
                jobs: try reader.list { (reader) throws(WireError) in try StoredJob(from: &reader) }, complete: try reader.bool())
        case .forget:
            message = .forget(batch: try reader.name(slot: 0), from: try reader.int())
        case .drained:
            message = .drained
        case .sinkStopped:
            message = .sinkStopped(reason: try reader.string(maximumBytes: WireProtocol.maximumReasonBytes))
        case .alive:
            message = .alive
        case .machine:
            message = .machine(batch: try reader.name(slot: 0), try MachineRecord(from: &reader))
        case .batchRecord:
            message = .batchRecord(try BatchRecord(from: &reader))
        }
        try reader.finish()
        return message
    }
}

extension WorkerIdentity {
    func write(to writer: inout WireWriter) {
        writer.string(host)
        writer.int(pid)
    }

    init(from reader: inout WireReader) throws(WireError) {
        self.init(host: try reader.name(slot: 1), pid: try reader.int())
    }
}

extension Job {
    func write(to writer: inout WireWriter) {
        writer.string(batch)
        writer.int(id)
        writer.int(attempt)
        writer.byte(kind.wireCode)
        writer.string(puzzle)
        writer.string(solver)
        writer.int(maxStates)
        writer.bool(timeoutSeconds != nil)
        if let timeoutSeconds { writer.double(timeoutSeconds) }
        writer.string(source)
        writer.int(firstLine)
        options.write(to: &writer)
        writer.word(solverDigest)
        limits.write(to: &writer)
        writer.int(repetition)
        writer.word(lease)
    }

    /// The fingerprint is not sent: the receiver computes it from the fields it decodes, so a
    /// job cannot carry one that does not match its text.
    init(from reader: inout WireReader) throws(WireError) {
        self.init(
            batch: try reader.name(slot: 0), id: try reader.int(), attempt: try reader.int(), kind: try reader.puzzleKind(),
            puzzle: try reader.string(), solver: try reader.name(slot: 2), maxStates: try reader.int(),
            timeoutSeconds: try reader.bool() ? try reader.double() : nil, source: try reader.string(),
            firstLine: try reader.int(), options: try JobReadOptions(from: &reader), solverDigest: try reader.word(),
            limits: try JobLimits(from: &reader), repetition: try reader.int())
        lease = try reader.word()
    }
}

extension StoredJob {
    func write(to writer: inout WireWriter) {
        writer.int(job)
        writer.fingerprint(fingerprint)
        writer.byte(status.wireCode)
        writer.bool(wrong)
        writer.bool(refutedWorker != nil)
        refutedWorker?.write(to: &writer)
    }

    init(from reader: inout WireReader) throws(WireError) {
        self.init(
            job: try reader.int(), fingerprint: try reader.fingerprint(), status: try reader.status(), wrong: try reader.bool(),
            refutedWorker: try reader.bool() ? try WorkerIdentity(from: &reader) : nil)
    }
}

extension WireWriter {
    mutating func fingerprint(_ fingerprint: JobFingerprint) {
        word(fingerprint.value)
    }

    /// Eight bytes, least significant first: hashes and tags, which a varint would lengthen.
    mutating func word(_ value: UInt64) {
        var bits = value
        for _ in 0..<8 {
            byte(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }
}

extension WireReader {
    mutating func fingerprint() throws(WireError) -> JobFingerprint {
        JobFingerprint(try word())
    }

    mutating func word() throws(WireError) -> UInt64 {
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(try byte()) << UInt64(8 * index) }
        return bits
    }

    mutating func puzzleKind() throws(WireError) -> PuzzleKind {
        guard let kind = PuzzleKind(wireCode: try byte()) else { throw .malformed("puzzle kind") }
        return kind
    }

    mutating func status() throws(WireError) -> JobStatus {
        guard let status = JobStatus(wireCode: try byte()) else { throw .malformed("job status") }
        return status
    }
}

extension JobResult {
    func write(to writer: inout WireWriter) {
        writer.string(batch)
        writer.int(job)
        writer.int(attempt)
        worker.write(to: &writer)
        writer.byte(kind.wireCode)
        for text in [puzzle, solver, source] { writer.string(text) }
        options.write(to: &writer)
        writer.fingerprint(fingerprint)
        writer.word(lease)
        writer.optionalInt(expectedMoves)
        writer.byte(status.wireCode)
        writer.optionalInt(moves)
        writer.string(solution)
        writer.optionalInt(cluster)
        writer.optionalString(error)
        for count in [examined, enqueued, maxQueue, statesStored, memoryBytes, peakRSSBytes] { writer.int(count) }
        writer.double(seconds)
        writer.double(cpuSeconds)
        writer.byte(verdict.wireCode)
        writer.byte(termination?.wireCode ?? 0)
        writer.optionalString(solverStats)
        writer.int(workerIdleRSSBytes)
        writer.int(repetition)
    }

    init(from reader: inout WireReader) throws(WireError) {
        let batch = try reader.name(slot: 0), job = try reader.int(), attempt = try reader.int()
        let worker = try WorkerIdentity(from: &reader)
        let kind = try reader.puzzleKind(), puzzle = try reader.string(), solver = try reader.name(slot: 2)
        let source = try reader.string(), options = try JobReadOptions(from: &reader)
        let fingerprint = try reader.fingerprint(), lease = try reader.word()
        let expectedMoves = try reader.optionalInt()
        self.init(batch: batch, job: job, attempt: attempt, worker: worker, status: try reader.status())
        self.fingerprint = fingerprint
        self.lease = lease
        self.kind = kind
        self.puzzle = puzzle
        self.solver = solver
        self.source = source
        self.options = options
        self.expectedMoves = expectedMoves
        moves = try reader.optionalInt()
        solution = try reader.string()
        cluster = try reader.optionalInt()
        error = try reader.optionalString()
        examined = try reader.int()
        enqueued = try reader.int()
        maxQueue = try reader.int()
        statesStored = try reader.int()
        memoryBytes = try reader.int()
        peakRSSBytes = try reader.int()
        // A time no run takes is a hostile worker's: NaN would stop the sink, since SQLite
        // stores it as NULL, which the column refuses, and the group's transaction with it.
        let wall = try reader.double(), cpu = try reader.double()
        for (name, time) in [("time", wall), ("CPU time", cpu)] where !(time.isFinite && time >= 0 && time <= JobResult.longestSeconds) {
            throw .malformed("\(name) \(time)")
        }
        seconds = wall
        cpuSeconds = cpu
        guard let verdict = AnswerVerdict(wireCode: try reader.byte()) else { throw .malformed("verdict") }
        self.verdict = verdict
        guard let termination = Termination.fromWire(try reader.byte()) else { throw .malformed("termination") }
        self.termination = termination
        solverStats = try reader.optionalString()
        workerIdleRSSBytes = try reader.int()
        repetition = try reader.int()
    }
}
