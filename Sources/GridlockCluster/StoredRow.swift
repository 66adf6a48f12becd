// One stored result, the one shape every reader of a results database gets: the tables, the
// scores, `compare`, `export`, the HTML report and the sink's acknowledgements. ResultColumn
// lists the columns once: the schema, the insert, each SELECT and the decoder come from that
// list, so no reader picks a column by its position.
//
// A reader asks for the columns it needs (`StoredRow.Reading`); the fields of the others keep
// their defaults. The tables read a few numbers of millions of rows, and decoding every row's
// puzzle and solution text as well cost them time they do not need.

import GRDB
import GridlockWire

public struct StoredRow: Sendable, Hashable {
    public var batch = ""
    public var job = 0
    public var kind: PuzzleKind = .rushhour
    public var puzzle = ""
    public var solver = ""
    /// Where the puzzle came from: "file:line".
    public var source = ""
    public var status: JobStatus = .failed
    public var moves: Int?
    public var solution = ""
    public var cluster: Int?
    public var error: String?
    public var attempts = 0
    /// The worker process, "host:pid", and its host.
    public var worker = ""
    public var host = ""
    public var examined = 0
    public var enqueued = 0
    public var maxQueue = 0
    public var statesStored = 0
    /// The solver's own peak memory.
    public var memoryBytes = 0
    public var seconds = 0.0
    public var cpuSeconds = 0.0
    public var peakRSSBytes = 0
    public var expectedMoves: Int?
    /// When the sink stored it, in seconds since 1970.
    public var storedAt = 0.0
    public var fingerprint = JobFingerprint(0)
    /// Why the run ended early, if it did.
    public var termination: Termination?
    /// The sink's verdict (JobResult.checkedVerdict).
    public var verdict: AnswerVerdict = .unknown
    public var solverStats: String?
    /// What the worker's process held idle, before its jobs.
    public var workerIdleRSSBytes = 0
    /// Which run of its puzzle and solver (`--repeats`).
    public var repetition = 0

    /// Times a job can have taken, in seconds: up to about 31 years.
    public static let plausibleSeconds = 0.0...1e9
    /// Store times a row can have: from 1970 to about the year 5000.
    public static let plausibleStoredAt = 0.0...1e11

    public init(
        batch: String = "", job: Int = 0, kind: PuzzleKind = .rushhour, puzzle: String = "", solver: String = "", source: String = "",
        status: JobStatus = .failed, moves: Int? = nil, expectedMoves: Int? = nil, error: String? = nil, worker: String = "",
        host: String = "", seconds: Double = 0, cpuSeconds: Double = 0, examined: Int = 0, statesStored: Int = 0, memoryBytes: Int = 0,
        peakRSSBytes: Int = 0, workerIdleRSSBytes: Int = 0, storedAt: Double = 0, verdict: AnswerVerdict = .unknown,
        termination: Termination? = nil, repetition: Int = 0
    ) {
        self.batch = batch
        self.job = job
        self.kind = kind
        self.puzzle = puzzle
        self.solver = solver
        self.source = source
        self.status = status
        self.moves = moves
        self.expectedMoves = expectedMoves
        self.error = error
        self.worker = worker
        self.host = host
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
        self.examined = examined
        self.statesStored = statesStored
        self.memoryBytes = memoryBytes
        self.peakRSSBytes = peakRSSBytes
        self.workerIdleRSSBytes = workerIdleRSSBytes
        self.storedAt = storedAt
        self.verdict = verdict
        self.termination = termination
        self.repetition = repetition
    }

    /// Whether the answer is wrong, by the one rule every reader uses: its verdict says so, or
    /// its move count contradicts the input's (AnswerRule.storedRowIsWrong).
    public var isWrong: Bool {
        AnswerRule.storedRowIsWrong(verdict: verdict, status: status, moves: moves, expectedMoves: expectedMoves)
    }

    /// The time `basis` measures: wall or CPU.
    public func seconds(_ basis: TimeBasis) -> Double { basis == .cpu ? cpuSeconds : seconds }

    /// What the sink's acknowledgement says of this row.
    var acknowledgement: StoredJob {
        StoredJob(job: job, fingerprint: fingerprint, status: status, wrong: isWrong)
    }
}

extension StoredRow {
    /// The row a result makes (the values ResultColumn binds), read as the tables read it: what
    /// a report folded as the batch runs sees, without the database. `workerName` is the
    /// result's worker as text, made once per run of its results rather than per result;
    /// what only the scores need (the batch, the record, the CPU time, how it ended) is left
    /// out unless `scored`, two strings fewer to retain a job.
    init(_ result: borrowing JobResult, workerName: String, scored: Bool = true) {
        self.init(
            kind: result.kind, solver: result.solver, status: result.status, moves: result.moves, expectedMoves: result.expectedMoves,
            worker: workerName, host: result.worker.host, seconds: result.seconds, examined: result.examined,
            memoryBytes: result.memoryBytes, peakRSSBytes: result.peakRSSBytes, workerIdleRSSBytes: result.workerIdleRSSBytes,
            verdict: result.checkedVerdict)
        guard scored else { return }
        batch = result.batch
        source = result.source
        cpuSeconds = Self.plausibleSeconds.clamping(result.cpuSeconds)
        termination = result.termination
        repetition = result.repetition
    }
}
