// The Gridlock wire protocol, all of it: who sends what to whom, the frame layout, and the
// timing constants every role agrees on.
//
//   worker  --ready / heartbeat------>  coordinator (ROUTER, binds "jobs")
//   worker  <--jobs / drained---------  coordinator
//   worker  --results---------------->  sink (PULL, binds "results")
//   sink    --stored / sinkHello /
//             storedPage / sinkStopped->  coordinator (ROUTER "jobs")
//   sink    <--storedQuery / forget---  coordinator
//
// A frame: "GL", the version byte, the kind byte, then the fields (WireCodec.swift). Workers
// ask for work (`ready`, with a credit: how many more jobs they can queue) so the coordinator
// gives jobs only to workers that asked, and a queue per worker hides the round trip between
// two jobs. Jobs go out in numbered chunks and results in groups: a frame, a system call and a
// thread wake-up cost more than a short job, so the pipeline pays them once per group. A
// heartbeat says where the worker is in its chunks, in a few words whatever it holds
// (JobChunk.swift). A job is done when the sink says it is `stored` (by number and
// fingerprint, JobFingerprint.swift), not when a worker says it finished, so a result lost on
// the way is re-issued, a duplicate is dropped by the sink, and a resumed batch re-solves
// exactly the jobs whose answer is not stored. What only the sink, the coordinator or a worker
// may say travels with a tag frame (ClusterKey.swift). Every role of a cluster must speak the
// same version: a frame of another is refused as malformed, naming the version it speaks.
// What each version added, and why, is in docs/cluster.md ("The wire's versions").

@_exported import GridlockKinds

public enum WireProtocol {
    public static let version: UInt8 = 14
    static let magic: [UInt8] = [0x47, 0x4C]

    /// How often a worker says it is alive, busy or not.
    public static let heartbeatInterval: Duration = .milliseconds(250)
    /// A worker silent for this long is presumed dead and its job re-issued.
    public static let workerSilenceLimit: Duration = .seconds(3)
    /// How often the coordinator tells each worker it is there.
    public static let aliveInterval: Duration = .seconds(1)
    /// How often the sink re-announces itself, so a restarted coordinator finds it.
    public static let sinkHelloInterval: Duration = .seconds(1)
    /// How long socket loops wait in zmq_poll before checking whether to stop.
    public static let pollInterval: Duration = .milliseconds(50)
    /// Frames larger than this are refused by libzmq before they are read.
    public static let maximumFrameBytes: Int64 = 16 << 20
    /// The coordinator's limit: it receives only asks, heartbeats and the sink's lists (a page
    /// of 8,192 stored jobs is about 120 KB), so a peer cannot make it hold 16 MiB frames.
    public static let maximumCoordinatorFrameBytes: Int64 = 1 << 20
    /// The longest batch, host or solver name a frame may carry (a host name is at most 253
    /// bytes); anything longer is malformed.
    public static let maximumNameBytes = 255
    /// The longest reason a sink may give for stopping.
    public static let maximumReasonBytes = 4_096
    /// The most jobs a worker may hold, and so the largest group of jobs in one frame.
    public static let maximumCredit = 256
    /// The most results a worker or the coordinator puts in one `results` frame.
    public static let resultsPerFrame = 64
    /// The most stored jobs one `storedPage` lists: the coordinator asks for the next page as
    /// its reading reaches the end of this one, so resuming holds one page, not the batch.
    public static let storedPageSize = 8_192
}

/// A worker process: where it runs and which one it is.
public struct WorkerIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    public var host: String
    public var pid: Int

    public init(host: String, pid: Int) {
        self.host = host
        self.pid = pid
    }

    public var description: String { "\(host):\(pid)" }
}

/// One puzzle to solve with one solver.
public struct Job: Sendable, Hashable {
    public var batch: String
    public var id: Int
    public var attempt: Int
    public var kind: PuzzleKind
    /// The record's text as the input holds it; the worker parses it.
    public var puzzle: String
    public var solver: String
    public var maxStates: Int
    public var timeoutSeconds: Double?
    /// Where the puzzle came from: "file:line".
    public var source: String
    /// The input line the record starts on, so the worker's parse errors name real lines.
    public var firstLine: Int
    public var options: JobReadOptions
    /// CPU time and memory, for built-in and outside solvers alike.
    public let limits: JobLimits
    /// Which run of the same puzzle and solver this is (`--repeats`): 0, 1, ... Part of its
    /// identity, so every sample is kept.
    public let repetition: Int
    /// An outside solver's command, as `JobFingerprint.digest(of:)` (0 for a built-in solver):
    /// the worker runs its own command for the name, and refuses the job if it differs.
    public let solverDigest: UInt64
    /// What decides the answer, hashed: the job's identity across runs.
    public let fingerprint: JobFingerprint
    /// The coordinator's tag over this hand-out of the job (ClusterKey.swift); 0 when the
    /// cluster has no key. The result echoes it.
    public var lease: UInt64 = 0

    public init(
        batch: String, id: Int, attempt: Int, kind: PuzzleKind, puzzle: String, solver: String,
        maxStates: Int, timeoutSeconds: Double?, source: String = "", firstLine: Int = 1,
        options: JobReadOptions = JobReadOptions(), solverDigest: UInt64 = 0, limits: JobLimits = JobLimits(), repetition: Int = 0
    ) {
        self.batch = batch
        self.id = id
        self.attempt = attempt
        self.kind = kind
        self.puzzle = puzzle
        self.solver = solver
        self.maxStates = maxStates
        self.timeoutSeconds = timeoutSeconds
        self.source = source
        self.firstLine = firstLine
        self.options = options
        self.solverDigest = solverDigest
        self.limits = limits
        self.repetition = repetition
        fingerprint = JobFingerprint(
            kind: kind, puzzle: puzzle, solver: solver, maxStates: maxStates, timeoutSeconds: timeoutSeconds, options: options,
            solverDigest: solverDigest, limits: limits, repetition: repetition)
    }
}

/// A job the sink holds a result for: its number and the fingerprint of the job it answered.
public struct StoredJob: Sendable, Hashable {
    public var job: Int
    public var fingerprint: JobFingerprint
    /// How the stored row ended, and whether its answer disagrees with the input's: what the
    /// coordinator's exit status is made of, without a database of its own.
    public var status: JobStatus
    public var wrong: Bool
    /// The worker whose answer the sink's replay refused, when this acknowledgement answers
    /// one: it called the answer right, and it was not, so the coordinator gives it no more
    /// jobs (quarantine). Nil in pages read back from the table.
    public var refutedWorker: WorkerIdentity?

    public init(job: Int, fingerprint: JobFingerprint, status: JobStatus, wrong: Bool, refutedWorker: WorkerIdentity? = nil) {
        self.job = job
        self.fingerprint = fingerprint
        self.status = status
        self.wrong = wrong
        self.refutedWorker = refutedWorker
    }

    /// The row a result makes.
    public init(storing result: borrowing JobResult) {
        self.init(job: result.job, fingerprint: result.fingerprint, status: result.status, wrong: result.isWrong)
    }
}

/// What a worker reports about one job.
public struct JobResult: Sendable, Hashable {
    public var batch: String
    public var job: Int
    public var attempt: Int
    public var worker: WorkerIdentity
    /// The job, echoed so that the sink can store the row without asking the coordinator.
    public var kind: PuzzleKind = .rushhour
    public var puzzle: String = ""
    public var solver: String = ""
    /// Where the puzzle came from: "file:line".
    public var source: String = ""
    /// How the puzzle is read (a tile line's size and goal), so the sink can replay the answer.
    public var options = JobReadOptions()
    public var fingerprint = JobFingerprint(0)
    /// The lease of the job it answers, echoed: the sink stores a result only with its own.
    public var lease: UInt64 = 0
    /// The answer the input gave (optimal moves, -1 for unsolvable), stored beside the result.
    public var expectedMoves: Int?
    public var status: JobStatus
    public var moves: Int?
    /// The moves joined by ", ", a Sudoku's solved grid, or an analysis as JSON.
    public var solution: String
    public var cluster: Int?
    public var error: String?
    public var examined: Int
    public var enqueued: Int
    public var maxQueue: Int
    public var statesStored: Int
    public var memoryBytes: Int
    public var seconds: Double
    public var cpuSeconds: Double
    public var peakRSSBytes: Int
    /// The answer judged (`judge`): what the worker found; the store keeps `checkedVerdict`.
    public var verdict: AnswerVerdict = .unknown
    /// Why the run ended before an answer, if it did.
    public var termination: Termination?
    /// An outside solver's own figures (its answer's "stats"), as compact JSON.
    public var solverStats: String?
    /// The worker's resident set before its first job: what `peakRSSBytes` holds of the
    /// worker's own, so the tables can show the rest.
    public var workerIdleRSSBytes = 0
    /// The longest time a result may say a job took, wall or CPU: about 31 years. Past it, or
    /// below 0, or not a number, the frame is malformed.
    public static let longestSeconds = 1e9
    /// The job's repetition (`--repeats`).
    public var repetition = 0
    /// Set by the sink when its replay refused an answer the worker did not call wrong
    /// itself: a lie or a broken worker. Not sent: the sink's acknowledgement carries it
    /// (`StoredJob.refutedWorker`).
    public var refutedAtSink = false

    public init(batch: String, job: Int, attempt: Int, worker: WorkerIdentity, status: JobStatus) {
        self.batch = batch
        self.job = job
        self.attempt = attempt
        self.worker = worker
        self.status = status
        solution = ""
        examined = 0
        enqueued = 0
        maxQueue = 0
        statesStored = 0
        memoryBytes = 0
        seconds = 0
        cpuSeconds = 0
        peakRSSBytes = 0
    }

    /// A result for `job` with the job's own fields: the one place a result takes them.
    public init(answering job: borrowing Job, worker: WorkerIdentity, status: JobStatus) {
        self.init(batch: job.batch, job: job.id, attempt: job.attempt, worker: worker, status: status)
        kind = job.kind
        puzzle = job.puzzle
        solver = job.solver
        source = job.source
        options = job.options
        fingerprint = job.fingerprint
        lease = job.lease
        repetition = job.repetition
    }

    /// What is known of the answer, for the one rule (`AnswerRule`): its claim, its moves
    /// and cluster, the input's expected moves; `expectedCluster` and the validator's
    /// `refutation` are the worker's to add (they do not travel).
    public func evidence(expectedCluster: Int? = nil, refutation: String? = nil, unchecked: Bool = false) -> AnswerEvidence {
        AnswerEvidence(
            claim: .init(status, moves: moves), cluster: cluster, expectedMoves: expectedMoves, expectedCluster: expectedCluster,
            refutation: refutation, unchecked: unchecked)
    }

    /// Whether the answer disagrees with the one the input gave: a different move count, a
    /// false "unsolvable", or a solution where the input said there is none.
    public var contradictsExpected: Bool { AnswerRule.movesDifference(evidence()) != nil }

    /// Judges the answer by the one rule: wrong when `refutation` (the validator's, or a false
    /// claim found by a search) is given, or when it contradicts the input's expected moves or
    /// `expectedCluster`; unknown when there is no answer, or for an unchecked claim of no
    /// solution (an outside solver's bare claim) with nothing expected. A wrong answer's error
    /// names what differs, unless it already has one.
    public mutating func judge(expectedCluster: Int? = nil, refutation: String? = nil, unchecked: Bool = false) {
        let judgement = AnswerRule.judge(evidence(expectedCluster: expectedCluster, refutation: refutation, unchecked: unchecked))
        verdict = judgement.verdict
        if judgement.isWrong, error == nil, let reason = judgement.reason { error = "wrong answer: \(reason)" }
    }

    /// The verdict the store keeps: the worker's, except that the rule applied to what the
    /// sink can see (the moves against the expected ones) overrules it, and a non-answer
    /// cannot be correct, whatever a worker says.
    public var checkedVerdict: AnswerVerdict {
        if contradictsExpected { return .wrong }
        if verdict == .correct, !status.isAnswer { return .unknown }
        return verdict
    }

    /// Whether the answer is wrong: what the tables' `wrong` column and the exit status 3 count.
    public var isWrong: Bool { checkedVerdict == .wrong }
}

public enum WireMessage: Sendable, Hashable {
    /// Worker to coordinator: I can take `credit` more jobs now (beyond the ones I hold); my
    /// jobs take `jobSeconds` on average (nil: none finished yet), which sizes my chunks.
    case ready(WorkerIdentity, credit: Int, jobSeconds: Double? = nil)
    /// Coordinator to worker: chunks of jobs to queue, solved in this order.
    case jobs([JobChunk])
    /// Worker to coordinator: still alive, and where it is in the chunks it holds.
    case heartbeat(WorkerIdentity, HeldWork)
    /// Worker (or coordinator, for failed jobs) to sink.
    case results([JobResult])
    /// Sink to coordinator: these jobs of the batch are stored for good, each answering the job
    /// with that fingerprint.
    case stored(batch: String, jobs: [StoredJob])
    /// Sink to coordinator: I am here (so a restarted coordinator can ask what is stored).
    case sinkHello
    /// Coordinator to sink: list the stored jobs of the batch numbered `from` or more, at most
    /// `limit` of them, in order.
    case storedQuery(batch: String, from: Int, limit: Int)
    /// Sink to coordinator: the answer to a `storedQuery`; `complete` when no stored job
    /// numbered above the last listed remains.
    case storedPage(batch: String, from: Int, jobs: [StoredJob], complete: Bool)
    /// Coordinator to sink: drop the rows of the batch numbered `from` or more (a resumed batch
    /// whose input became shorter, with --resume-changed).
    case forget(batch: String, from: Int)
    /// Coordinator to worker: no jobs are left; stop asking.
    case drained
    /// Coordinator to worker, every `aliveInterval`: I am here. A worker that hears nothing for
    /// its silence limit knows its coordinator is gone and exits.
    case alive
    /// Sink to coordinator: I cannot store any more (the disk is full or read-only, the
    /// database was deleted) and am stopping, for this reason.
    case sinkStopped(reason: String)
    /// Worker to sink, before its first results of a batch: the machine it runs on.
    case machine(batch: String, MachineRecord)
    /// Coordinator to sink: the batch it runs, for the sink's batches table.
    case batchRecord(BatchRecord)

    /// What only the sink says: with a cluster key, believed only with the key's tag.
    public var isTheSinks: Bool {
        switch self {
        case .sinkHello, .stored, .storedPage, .sinkStopped: true
        default: false
        }
    }

    /// What only the coordinator asks of the sink: with a cluster key, done only with its tag.
    public var isTheCoordinators: Bool {
        switch self {
        case .storedQuery, .forget, .batchRecord: true
        default: false
        }
    }

    /// What a worker says to the coordinator (and of its machine, to the sink): with a cluster
    /// key, heard only with its tag, so a process without the key is never handed a job (and
    /// never a lease to answer with), nor describes a machine.
    public var isTheWorkers: Bool {
        switch self {
        case .ready, .heartbeat, .machine: true
        default: false
        }
    }

    enum Kind: UInt8 {
        case ready = 1, jobs, heartbeat, results, stored, sinkHello, storedQuery, storedPage, forget, drained, sinkStopped, alive, machine, batchRecord
    }
}
