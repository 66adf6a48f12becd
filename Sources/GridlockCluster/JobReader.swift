// From input files to jobs, read as the coordinator needs them: one job per puzzle record and
// solver, numbered in input order. Nothing is parsed here: the record's kind is told from its
// shape (cheap), and the worker that solves the job parses it, once, and reports a record it
// cannot read as `invalid` with the file, line and reason.
//
//   file ──64 KiB blocks──> LineReader ──lines──> PuzzleRecordSplitter ──records──> jobs
//
// Memory is one block, one record and the jobs asked for, whatever the input's size. A record
// longer than `maximumRecordBytes` becomes an `unreadable` job: the coordinator reports it
// as invalid itself, carrying only its first bytes.

import Foundation
import GridlockClusterBase
import GridlockCore
import GridlockWire

/// Where a batch's puzzles come from.
public enum JobInput: Sendable, Hashable {
    case file(String)
    case standardInput
    /// Puzzle text given on the command line, reported under `name`.
    case text(name: String, String)

    var name: String {
        switch self {
        case .file(let path): path
        case .standardInput: "stdin"
        case .text(let name, _): name
        }
    }
}

/// What every job of a batch is solved with.
public struct JobSpecification: Sendable {
    /// The digests its serving solvers' jobs carry (CoordinatorMachine.Configuration).
    public var servingSolverDigests: Set<UInt64> {
        Set(external.filter { $0.mode == .serve }.map { JobFingerprint.digest(of: $0.identity) })
    }

    public var batch: String
    /// nil tells each record's kind from its shape.
    public var kind: PuzzleKind?
    /// Empty means each kind's default, else the listed solvers of each record's kind.
    public var solvers: [String]
    /// Outside solvers (`--external`) whose names `solvers` may hold.
    public var external: [ExternalSolver]
    public var maxStates: Int
    public var timeoutSeconds: Double?
    /// CPU time and memory, for every job (JobLimits).
    public var limits = JobLimits()
    /// `--paired`: each record's solvers in an order that rotates from record to record, so
    /// that no solver always runs first (on a cold cache) or last.
    public var paired = false
    /// `--repeats`: each puzzle's jobs this many times, interleaved (every solver once, then
    /// every solver again), every run a job and a row of its own.
    public var repeats = 1
    public var tileOptions: TileReadOptions
    public var maximumRecordBytes: Int

    public static let defaultMaximumRecordBytes = 1 << 20

    public init(
        batch: String, kind: PuzzleKind? = nil, solvers: [String] = [], external: [ExternalSolver] = [], maxStates: Int, timeoutSeconds: Double? = nil,
        tileOptions: TileReadOptions = TileReadOptions(), maximumRecordBytes: Int = defaultMaximumRecordBytes, limits: JobLimits = JobLimits(),
        paired: Bool = false, repeats: Int = 1
    ) {
        self.batch = batch
        self.kind = kind
        self.solvers = solvers
        self.external = external
        self.maxStates = maxStates
        self.timeoutSeconds = timeoutSeconds
        self.tileOptions = tileOptions
        self.maximumRecordBytes = maximumRecordBytes
        self.limits = limits
        self.paired = paired
        self.repeats = max(1, repeats)
    }

    var readOptions: JobReadOptions {
        JobReadOptions(tileGoal: tileOptions.goal?.rawValue, tileWidth: tileOptions.size?.width, tileHeight: tileOptions.size?.height)
    }
}

/// A job as read: to be solved by a worker, or (`unreadable`) reported invalid at once.
public struct ReadJob: Sendable {
    /// Held by reference: a job passes through the reader's buffer, the coordinator's queue of
    /// jobs to check and its table of jobs in flight, and a `Job` copied by value costs a
    /// retain and a release for each of its strings at every step (a sixth of the
    /// coordinator's time on trivial jobs, by perf).
    private(set) var shared: SharedJob
    public var unreadable: String?

    public init(job: Job, unreadable: String? = nil) {
        shared = SharedJob(job)
        self.unreadable = unreadable
    }

    public var job: Job {
        get { shared.job }
        set { shared = SharedJob(newValue) }
    }

    // Read through the reference: `job.id` would copy the whole job out first.
    var id: Int { shared.job.id }
    var fingerprint: JobFingerprint { shared.job.fingerprint }
}

/// One job as read, shared by whoever holds it; never changed.
final class SharedJob: Sendable {
    let job: Job
    init(_ job: Job) { self.job = job }
}

public final class JobReader {
    private let specification: JobSpecification
    private let readOptions: JobReadOptions
    private var inputs: [JobInput]
    private var current: (input: JobInput, lines: LineReader?, text: [Substring]?)?
    private var splitter: PuzzleRecordSplitter
    private var textLine = 0
    private var ready: [ReadJob] = []
    private var readyHead = 0
    private var nextID = 0
    /// Records read, for the rotation of --paired.
    private var records = 0
    private var solversByKind: [PuzzleKind: [String]] = [:]
    public private(set) var ended = false
    /// After `next` gave fewer jobs than asked without the input's end: the descriptor to poll
    /// before asking again (a pipe with nothing to read yet, or an endless line being skipped).
    public private(set) var waitingOn: Int32?

    /// Checks every file can be opened now, so a typo fails before any work starts.
    public init(_ inputs: [JobInput], specification: JobSpecification) throws {
        for case .file(let path) in inputs where access(path, R_OK) != 0 {
            throw ClusterError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        self.inputs = inputs.reversed()
        self.specification = specification
        readOptions = specification.readOptions
        splitter = PuzzleKind.recordSplitter(kind: specification.kind)
    }

    /// Jobs read so far.
    public var count: Int { nextID }

    /// The scores of this batch's jobs, folded in any order: its limit, and how many solvers
    /// each kind's puzzles get.
    public var scores: SolverScores {
        var expected: [PuzzleKind: Int] = [:]
        for kind in PuzzleKind.allCases {
            expected[kind] = kind.solvers(from: specification.solvers, external: specification.external).count * specification.repeats
        }
        return SolverScores(
            limits: specification.limits, wallLimitSeconds: specification.limits.wallSeconds(given: specification.timeoutSeconds),
            expectedSolvers: expected)
    }

    /// Up to `limit` more jobs, in order; fewer at the end of the input, or when it has no
    /// more to give now (`waitingOn`). Never blocks on a pipe.
    public func next(_ limit: Int) throws -> [ReadJob] {
        waitingOn = nil
        var jobs: [ReadJob] = []
        while jobs.count < limit {
            if readyHead < ready.count {
                let take = min(limit - jobs.count, ready.count - readyHead)
                jobs += ready[readyHead..<(readyHead + take)]
                readyHead += take
                continue
            }
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
            guard try readRecord() else { break }
        }
        return jobs
    }

    /// Reads lines until at least one record is complete; false at the end of every input, or
    /// when the input has nothing more now (`waitingOn` set).
    private func readRecord() throws -> Bool {
        while ready.isEmpty {
            if current == nil {
                guard let input = inputs.popLast() else {
                    ended = true
                    return false
                }
                switch input {
                case .file(let path):
                    current = (input, try LineReader(path: path, maximumBytes: specification.maximumRecordBytes), nil)
                case .standardInput:
                    current = (input, LineReader(name: "standard input", descriptor: 0, closeWhenDone: false, maximumBytes: specification.maximumRecordBytes), nil)
                case .text(_, let text):
                    textLine = 0
                    current = (input, nil, text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Substring($0) })
                }
            }
            let name = current!.input.name
            let step = try nextLine()
            if case .waiting = step {
                waitingOn = current?.lines?.pollDescriptor
                return false
            }
            if case .line(let line) = step {
                if line.oversizedBytes != nil {
                    // Whatever grid was in progress ends here; the long line is a record of its own.
                    splitter.finish { add($0, from: name) }
                    addOversized(line, from: name)
                } else {
                    splitter.add(line.text, number: line.number) { add($0, from: name) }
                }
            } else {
                splitter.finish { add($0, from: name) }
                current = nil
            }
        }
        return true
    }

    private func nextLine() throws -> LineReader.Step {
        if let lines = current?.lines { return try lines.next() }
        guard let text = current?.text, textLine < text.count else { return .end }
        textLine += 1
        return .line(LineReader.Line(number: textLine, text: text[textLine - 1], oversizedBytes: nil))
    }

    private func add(_ record: PuzzleRecord, from name: String) {
        let kind = specification.kind ?? PuzzleKind.detect(record)
        let text = record.text
        let bytes = text.utf8.count
        let unreadable = bytes > specification.maximumRecordBytes
            ? "\(name):\(record.firstLine): the record is \(bytes) bytes, over the limit of \(specification.maximumRecordBytes) (--max-record-bytes)"
            : nil
        let kept = unreadable == nil ? text : String(decoding: text.utf8.prefix(LineReader.keptBytes), as: UTF8.self)
        let solvers = solvers(of: kind)
        for repetition in 0..<specification.repeats {
            var order = solvers
            if specification.paired, order.count > 1 {
                let shift = (records + repetition) % order.count
                order = Array(order[shift...] + order[..<shift])
            }
            for solver in order {
                ready.append(ReadJob(
                    job: makeJob(kind: kind, text: kept, solver: solver, name: name, line: record.firstLine, repetition: repetition),
                    unreadable: unreadable))
            }
        }
        records += 1
    }

    private func addOversized(_ line: LineReader.Line, from name: String) {
        let kind = specification.kind ?? .rushhour
        let reason = "\(name):\(line.number): the line is longer than the limit of \(specification.maximumRecordBytes) bytes (--max-record-bytes): refused as it was read, the rest of it skipped"
        for solver in solvers(of: kind) {
            ready.append(ReadJob(job: makeJob(kind: kind, text: String(line.text), solver: solver, name: name, line: line.number), unreadable: reason))
        }
    }

    /// The solvers each kind's records get, worked out once per kind rather than per record.
    private func solvers(of kind: PuzzleKind) -> [String] {
        if let known = solversByKind[kind] { return known }
        let solvers = kind.solvers(from: specification.solvers, external: specification.external)
        solversByKind[kind] = solvers
        return solvers
    }

    private func makeJob(kind: PuzzleKind, text: String, solver: String, name: String, line: Int, repetition: Int = 0) -> Job {
        defer { nextID += 1 }
        return Job(
            batch: specification.batch, id: nextID, attempt: 0, kind: kind, puzzle: text, solver: solver,
            maxStates: specification.maxStates, timeoutSeconds: specification.timeoutSeconds, source: "\(name):\(line)",
            firstLine: line, options: readOptions,
            solverDigest: specification.external.named(solver, kind: kind).map { JobFingerprint.digest(of: $0.identity) } ?? 0,
            limits: specification.limits, repetition: repetition)
    }
}
