// The coordinator's decisions, with no socket, file or clock in them: events in (a frame, jobs
// read from the input, a tick), actions out (send this frame, stop). `Coordinator.run` owns
// the sockets and the input and only feeds events and performs actions, so every rule below is
// unit tested without a network (CoordinatorMachineTests).
//
//   read ──> unverified ──(checked against the sink's stored pages)──> queued ──(ready)──>
//   assigned, in a chunk ──(the worker's heartbeat is past it)──> awaiting store ──(stored, same fingerprint)──> gone
//      ^ worker silent, job overran or held past its lease, result never stored: queued again
//        (an attempt is burnt only when the job itself was at fault: a crash, an overrun, a
//        lease run out; never a sink outage)
//
// Streaming: only jobs in flight and a bounded read-ahead are held. The machine asks for more
// input (`wantedJobs`) as workers take jobs, and never holds more than `maximumTracked` jobs
// whatever the batch's size. The total is known once the input has ended.
//
// Resume: the sink lists the stored jobs of the batch page by page, in job order, each with its
// fingerprint. A job read from the input whose number is listed with the same fingerprint is
// already done; with another fingerprint the input has changed since, and the batch stops,
// naming the line, unless the user allowed it (`resumeChanged`: the job is solved again and
// its row replaced). No job is dispatched before the page that covers it has arrived.

import GridlockClusterBase
import GridlockWire

public struct CoordinatorMachine {
    public struct Configuration: Sendable {
        public var batch: String
        public var maxAttempts = 3
        public var silenceLimit = WireProtocol.workerSilenceLimit
        /// Extra time past a job's own time limit before it counts as overrun.
        public var overrunGrace: Duration = .seconds(2)
        /// The time a job without a time limit of its own may be held (`--lease-limit`); nil:
        /// without end. Jobs with a limit are held at most that limit and the grace.
        public var leaseLimit: Duration? = .seconds(3_600)
        /// After how many jobs held past their lease (or overrun) a worker is quarantined: given
        /// no more jobs (CoordinatorMachine+Quarantine.swift). nil: never.
        public var quarantineAfterLeaseEnds: Int? = 3
        /// A local batch's workers are its children: its last is never quarantined.
        public var keepsLastWorker = false
        /// The digests of the serving solvers (`--external-serve`): their jobs may take the time
        /// a new server has to start (ExternalServer.startAllowance) on top, which the worker
        /// does not count against the job.
        public var servingSolverDigests: Set<UInt64> = []
        /// What the sink records of the batch (its start, solvers and limits), sent to it.
        public var record: BatchRecord?
        /// The machine's load now, for the recipe's load at the end (nil: not read, as in tests).
        public var currentLoad: (@Sendable () -> Double)?
        public static let serverStartAllowance: Duration = .seconds(10)
        /// How long a finished job may wait for the sink's acknowledgement before it is re-issued.
        public var storeTimeout: Duration = .seconds(10)
        /// How long without a word from the sink (it says hello every second) before the batch
        /// stops; nil: never (`--sink-silence-limit 0`). A warning comes every
        /// `sinkSilenceWarning` before.
        public var sinkSilenceLimit: Duration? = .seconds(120)
        public var sinkSilenceWarning: Duration = .seconds(10)
        /// The jobs endpoint the sink should connect to, named in the warning.
        public var jobsEndpoint = "this coordinator's jobs endpoint"
        /// A changed input re-solves the changed jobs instead of stopping the batch.
        public var resumeChanged = false
        /// `--paired`: a record's jobs (one per solver) go to one worker together, beyond its
        /// credit if need be, so that solvers compared on a puzzle ran on the same process.
        public var paired = false
        /// The most jobs one record makes (solvers x repeats): with `--paired`, how far past its
        /// credit a worker may honestly hold.
        public var jobsPerRecord = 1
        /// Jobs read ahead of the workers, ready to hand out.
        public var readAhead = 4_096
        /// The most jobs held at once (read ahead, in flight, awaiting the sink): the bound on
        /// the coordinator's memory when the sink falls behind, about 450 bytes a job. At 32,768
        /// a batch of trivial jobs reached it at each pause of the sink's database and peaked
        /// at 76 MB; 16,384 is still 200 ms of work at 80,000 jobs a second.
        public var maximumTracked = 16_384
        /// The first chunk number of this run: random in `Coordinator.run`, so that a worker's
        /// chunks from before a restart are not taken for this run's; fixed in tests.
        public var chunkEpoch: UInt64 = 1 << 40
        /// About how long a chunk's jobs take, from the worker's mean job time: long enough that
        /// trivial jobs go out a grant to a chunk, short enough that a chunk of slow jobs is one.
        public var chunkWork: Duration = .milliseconds(5)
        /// Who signs the results the coordinator reports itself (failed and unreadable jobs).
        public var identity: WorkerIdentity
        /// The key shared with the sink: jobs go out with leases, and only tagged frames are
        /// believed to be the sink's (ClusterKey.swift). Without one, any peer may say it is.
        public var key: ClusterKey?
        /// CURVE admitted every peer of the jobs socket by its public key (the ZAP handler and
        /// the allowlist), so a worker's asks need no tag: CURVE workers hold no key. The sink's
        /// words still need theirs: a worker's key must not let it pose as the sink.
        public var workersAdmittedByTransport = false

        public init(batch: String, identity: WorkerIdentity) {
            self.batch = batch
            self.identity = identity
        }
    }

    public enum Action: Sendable, Hashable {
        /// A frame to one peer of the jobs socket (a worker, or the sink's connection).
        case send(to: [UInt8], WireMessage)
        /// Results the coordinator reports itself, to the sink's results socket.
        case sendResults(WireMessage)
        /// The batch is over: every job is stored, or it cannot go on.
        case stop(CoordinatorStop)
        /// A line for the operator (a refused frame, at a bounded rate).
        case log(String)
    }

    enum JobState: Hashable {
        /// Read and checked, waiting in `queued` or `retries` for a worker.
        case queued
        /// Handed to `worker` at `since` in a chunk, at `at`, to be finished by `leaseEnd` (nil: no
        /// budget), whatever its heartbeats say.
        case assigned(worker: [UInt8], at: ChunkPosition, since: ContinuousClock.Instant, leaseEnd: ContinuousClock.Instant?)
        case awaitingStore(since: ContinuousClock.Instant)
        /// The coordinator sent this result itself (failed or unreadable) and waits for it to
        /// be stored. Boxed: inline, its hundreds of bytes made every tracked job that size,
        /// and the table of jobs in flight copied them on every change.
        indirect case reported(JobResult, since: ContinuousClock.Instant)
    }

    struct Tracked {
        /// Held by reference: the lease checks copy entries often, and a `Job` copied by value
        /// costs a retain for each of its strings.
        private let shared: SharedJob
        var state: JobState
        /// Attempts that count against the job: each dispatch, less those that were not its fault.
        var attempts = 0
        /// The workers it ran out its lease on, one entry each time, at most one per attempt
        /// and a few more (CoordinatorMachine+Quarantine.swift).
        var stalledOn: [WorkerIdentity] = []

        init(_ read: ReadJob, state: JobState) {
            shared = read.shared
            self.state = state
        }

        /// The job as read; `attempt` is set on the copy each dispatch sends.
        var job: Job { shared.job }
        /// Read through the reference: `job.fingerprint` would copy the whole job out first.
        var fingerprint: JobFingerprint { shared.job.fingerprint }
        /// The puzzle's size, what a frame of jobs is cut by.
        var puzzleBytes: Int { shared.job.puzzle.utf8.count }
    }

    struct WorkerInfo {
        var identity: WorkerIdentity
        var lastSeen: ContinuousClock.Instant
        /// Jobs sent to this worker, in the order sent, which is the order it solves them, until
        /// a heartbeat's position passes them (or they are taken as lost). An entry whose job
        /// has since been stored or moved (to another worker, or to a later chunk) does nothing
        /// when it is passed: its state says so.
        var sent = FIFO<SentJob>()
        /// How many more jobs it asked for.
        var credit = 0
        /// The job it is solving (at its heartbeat's position, if that is this run's) and since
        /// when it is there: only the running job can overrun or crash the worker, not the ones
        /// queued behind it.
        var running: Int?
        var runningAt: ChunkPosition?
        var runningSince: ContinuousClock.Instant?
        /// When its last heartbeat came, the jobs it said it held and those then on their way to
        /// it, and how many were sent since: what it may still hold.
        var lastHeartbeat: ContinuousClock.Instant?
        var lastHeldCount = 0
        var sentSinceHeartbeat = 0
        /// Its mean job time, as it last said: the size of its chunks.
        var jobSeconds: Double?
        /// The newest chunk sent to it.
        var lastChunkSent: ChunkID?
        /// The lease end of the last job sent: the next one's lease starts there (or now, if
        /// later), since the worker solves its jobs one after another.
        var leaseChainEnd: ContinuousClock.Instant?
        /// Its place in `idle` while it has credit left (nil: none). An entry with another
        /// ticket is stale: the worker spent its credit, or was forgotten, since.
        var idleTicket: Int?

        /// Whether it has credit left and a place in `idle`.
        var isIdle: Bool { idleTicket != nil }
    }

    /// A job sent to a worker, and where.
    struct SentJob {
        var job: Int
        var position: ChunkPosition
        var at: ContinuousClock.Instant
    }

    /// A chunk a worker has not received this long after it was sent is taken as lost (a
    /// ROUTER drops frames to a peer that is reconnecting): its jobs go out again, uncharged.
    static let handoverGrace: Duration = .seconds(1)

    let configuration: Configuration
    var tracked: [Int: Tracked] = [:]
    /// Jobs read but not yet checked against what the sink stores.
    var unverified = FIFO<ReadJob>()
    var queued = FIFO<Int>()
    /// Jobs to hand out again, before any new one (most recent first).
    var retries: [Int] = []
    /// Jobs waiting for the sink's acknowledgement (finished, or reported by the coordinator),
    /// in the order they started waiting; an entry whose job has moved on is skipped.
    var storeDeadlines = FIFO<(job: Int, since: ContinuousClock.Instant)>()
    var workers: [[UInt8]: WorkerInfo] = [:]
    /// Workers with credit left, in the order they asked. An entry whose worker has since been
    /// forgotten or spent its credit is skipped when met (its ticket is no longer the worker's),
    /// so that no message costs a walk over every worker: at 1,000 workers that walk, and the
    /// copy of this list that removing from it while `advance` iterated it made, was the
    /// coordinator's one cost that grew with the workers. A worker that spends its credit and
    /// asks again queues anew, behind those that asked before it.
    var idle = FIFO<(worker: [UInt8], ticket: Int)>()
    var nextIdleTicket = 0
    /// Entries of `idle` met by `advance`: what a message costs in workers visited (a test
    /// checks that it does not grow with the workers).
    var idleVisits = 0
    var resume = ResumeCheck()
    /// The next chunk's number; this run's are `configuration.chunkEpoch..<nextChunk`.
    var nextChunk: UInt64
    var inputEnded = false
    var stopped = false
    /// When the workers were last told the coordinator is there.
    var lastAlive: ContinuousClock.Instant?
    /// When the machine first ran (its first tick, or its first after a suspension), when the
    /// operator was last warned that no sink spoke, and when that was last looked at: SinkSilence.
    var startedAt: ContinuousClock.Instant?
    var lastSinkWarning: ContinuousClock.Instant?
    var lastSinkCheck: ContinuousClock.Instant?
    var rejections = RejectionLog()
    /// Who the operator was told seems to have a key this coordinator lacks ("sink",
    /// "worker"): once each, so a worker's warning does not hide the sink's.
    var warnedOfKey: Set<String> = []
    var quarantine = WorkerQuarantine()
    public internal(set) var progress = CoordinatorProgress()

    public init(configuration: Configuration) {
        self.configuration = configuration
        nextChunk = configuration.chunkEpoch
    }

    /// Whether this run sent the chunk.
    func isOurs(_ chunk: ChunkID) -> Bool { (configuration.chunkEpoch..<nextChunk).contains(chunk.value) }

    /// How many more jobs the loop should read from the input now.
    public var wantedJobs: Int {
        guard !inputEnded, !stopped else { return 0 }
        let waiting = unverified.count + queued.count
        let room = configuration.maximumTracked - tracked.count - unverified.count
        return max(0, min(configuration.readAhead - waiting, room))
    }

    // MARK: Events

    /// Jobs read from the input, in order; `ended` once the input has no more.
    public mutating func read(_ jobs: [ReadJob], ended: Bool, now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        for job in jobs { unverified.append(job) }
        progress.read += jobs.count
        if ended {
            inputEnded = true
            progress.total = progress.read
        }
        advance(now: now, &actions)
        return actions
    }

    /// One multipart message from the jobs socket: the sender's routing id, one frame, and the
    /// frame's tag when the sink sent it.
    public mutating func receive(_ frames: [[UInt8]], now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        guard frames.count == 2 || frames.count == 3 else {
            refuse(.malformed, "\(frames.count) parts", from: frames.first, now: now, &actions)
            return actions
        }
        let sender = frames[0]
        let message: WireMessage
        do {
            message = try WireMessage.decode(frames[1])
        } catch {
            refuse(.malformed, "\(error)", from: sender, now: now, &actions)
            return actions
        }
        // What only the sink or a worker may say counts only with the key's tag: anyone can
        // connect and say it, and a worker without the key must not be handed jobs to answer.
        let speaker = message.isTheSinks ? "sink" : "worker"
        let needsTag = message.isTheSinks || (message.isTheWorkers && !configuration.workersAdmittedByTransport)
        if needsTag, let key = configuration.key, !(frames.count == 3 && key.verifies(frames[1], tagFrame: frames[2])) {
            refuse(.forged, "\(message.kindName) without the key's tag: a \(speaker) without this --key-file, or an impostor", from: sender, now: now, &actions)
            return actions
        }
        // A peer that tags its frames may have a key this coordinator lacks: a sink would refuse
        // every result for want of a lease. Said once, not acted on: without a key anyone can
        // send three parts, and a stranger must not be able to stop the batch.
        if message.isTheSinks || message.isTheWorkers, configuration.key == nil, frames.count == 3,
           warnedOfKey.insert(speaker).inserted {
            let consequence = message.isTheSinks ? ", or it will refuse every result" : ""
            actions.append(.log("a \(speaker)'s \(message.kindName) came with a tag: if the \(speaker) has a --key-file, give this coordinator the same one\(consequence)"))
        }
        return actions + receive(message, from: sender, now: now)
    }

    /// Counts a refused frame, and says so at a bounded rate.
    mutating func refuse(
        _ rejection: Rejection, _ what: String, from peer: [UInt8]?, now: ContinuousClock.Instant, _ actions: inout [Action]
    ) {
        progress.dropped.count(rejection)
        if let line = rejections.note(rejection, what: what, peer: peer, now: now) { actions.append(.log(line)) }
    }

    public mutating func receive(_ message: WireMessage, from sender: [UInt8], now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        switch message {
        case .ready(let identity, let credit, let jobSeconds):
            ready(sender, identity, credit: credit, jobSeconds: jobSeconds, now: now, &actions)
        case .heartbeat(let identity, let held):
            heartbeat(sender, identity, held: held, now: now, &actions)
        case .stored(let batch, let jobs):
            guard sender == resume.sink, batch == configuration.batch else {
                refuse(.unexpected, "stored, not from the sink or not for this batch", from: sender, now: now, &actions)
                break
            }
            resume.lastHeard = now
            for stored in jobs {
                if let liar = stored.refutedWorker { refuted(liar, job: stored.job, now: now, &actions) }
                settle(stored)
            }
        case .sinkHello:
            // A sink heard for the first time (or restarted) learns of the batch.
            if sender != resume.sink, let record = currentRecord() { actions.append(.send(to: sender, .batchRecord(record))) }
            resume.sinkSaidHello(sender, batch: configuration.batch, now: now, &actions)
        case .storedPage(let batch, let from, let jobs, let complete):
            guard sender == resume.sink, batch == configuration.batch, resume.accept(from: from, jobs: jobs, complete: complete) else {
                refuse(.unexpected, "storedPage, not from the sink, not for this batch or not the page asked for", from: sender, now: now, &actions)
                break
            }
        case .sinkStopped(let reason):
            // Only the sink's word stops the batch; anyone else's is a forgery.
            guard sender == resume.sink else {
                refuse(.unexpected, "sinkStopped, not from the sink", from: sender, now: now, &actions)
                break
            }
            stop(.sinkStopped(reason), &actions)
        case .jobs, .results, .storedQuery, .forget, .drained, .alive:
            refuse(.unexpected, "\(message.kindName), which only a coordinator sends", from: sender, now: now, &actions)
        case .machine:
            refuse(.unexpected, "machine, which a worker sends the sink", from: sender, now: now, &actions)
        case .batchRecord:
            refuse(.unexpected, "batchRecord, which only a coordinator sends", from: sender, now: now, &actions)
        }
        advance(now: now, &actions)
        return actions
    }

    /// Time passing: silent workers, overruns, results never stored.
    public mutating func tick(now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        if lastAlive.map({ $0.duration(to: now) >= WireProtocol.aliveInterval }) ?? true {
            // Every worker known hears it, busy or idle: an idle one hears nothing else.
            for worker in workers.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) { actions.append(.send(to: worker, .alive)) }
            lastAlive = now
        }
        checkWorkers(now: now, &actions)
        sendPendingRecord(&actions)
        checkStores(now: now, &actions)
        checkSink(now: now, &actions)
        progress.liveWorkers = workers.count
        advance(now: now, &actions)
        return actions
    }

    // MARK: Moving jobs along

    /// Drops the entries of `idle` that name no idle worker, and repeats: a peer that asks and
    /// goes, again and again, while nothing is queued would otherwise grow it without end.
    mutating func compactIdle() {
        let workers = self.workers
        idle.keep { workers[$0.worker]?.idleTicket == $0.ticket }
    }

    /// Checks read jobs against the stored pages, hands queued jobs to idle workers, and says
    /// when the batch is over.
    mutating func advance(now: ContinuousClock.Instant, _ actions: inout [Action]) {
        guard !stopped else { return }
        verify(now: now, &actions)
        guard !stopped else { return }
        while !(queued.isEmpty && retries.isEmpty), let entry = idle.popFirst() {
            idleVisits += 1
            guard workers[entry.worker]?.idleTicket == entry.ticket else { continue }
            dispatch(to: entry.worker, now: now, &actions)
            // Credit left: the queue ran dry (or the batch stopped). It keeps its turn.
            if workers[entry.worker]?.idleTicket == entry.ticket {
                idle.pushFront(entry)
                break
            }
        }
        if idle.count > 2 * workers.count + 64 { compactIdle() }
        progress.inFlight = max(0, tracked.count - queued.count - retries.count)
        progress.queued = unverified.count + queued.count + retries.count
        if inputEnded, unverified.isEmpty, tracked.isEmpty, resume.endChecked {
            progress.complete = true
            // Every worker known hears it, busy or idle: one busy with a job taken back (an
            // overrun) would otherwise learn it only at its next ask, a heartbeat later, and a
            // local batch waits for its workers to exit.
            for worker in workers.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) { actions.append(.send(to: worker, .drained)) }
            idle.removeAll()
            // The sink's record of the batch gets its number of jobs.
            if var record = currentRecord(complete: true), let sink = resume.sink {
                record.recipe?.loadAtEnd = configuration.currentLoad?()
                actions.append(.send(to: sink, .batchRecord(record)))
            }
            stop(.complete, &actions)
        }
    }

    /// A tracked job's state, read in place: copying its whole entry costs a retain per string,
    /// and the credit and heartbeat checks look up every job a worker holds.
    func state(of job: Int) -> JobState? {
        // Through the values' index, which borrows the entry: `tracked[job]?.state` copied the
        // entry out first, a retain and a release of its job.
        guard let index = tracked.index(forKey: job) else { return nil }
        return tracked.values[index].state
    }

    /// A job's acknowledgement from the sink: done if it answers the job as it is now.
    mutating func settle(_ stored: StoredJob) {
        // A queued job counts too: a result can be stored after its job was taken back (an
        // overrun that finished late); the queue skips jobs no longer tracked.
        guard let index = tracked.index(forKey: stored.job), tracked.values[index].fingerprint == stored.fingerprint else {
            // An acknowledgement of a job stored already (a duplicate result) or never handed out.
            progress.dropped.staleAcknowledgements += 1
            return
        }
        // Its entry in its worker's list of sent jobs goes once a heartbeat's position passes it.
        let state = tracked.remove(at: index).value.state
        if case .reported(let result, _) = state {
            if result.status == .failed { progress.failed += 1 } else { progress.unreadable += 1 }
        }
        progress.stored += 1
        progress.tally.add(stored)
    }
}

/// Why the coordinator stopped.
public enum CoordinatorStop: Sendable, Hashable, CustomStringConvertible {
    case complete
    /// The input no longer matches the stored batch.
    case inputChanged(String)
    /// The sink cannot store any more, and said why.
    case sinkStopped(String)
    /// No sink said anything for this long (`heard`: one had before).
    case sinkSilent(Duration, heard: Bool)

    public var description: String {
        switch self {
        case .complete: "every job is stored"
        case .inputChanged(let reason): reason
        case .sinkStopped(let reason): "the sink stopped: \(reason)"
        case .sinkSilent(let silence, let heard):
            heard ? "the sink has said nothing for \(Int(Double(seconds: silence))) s"
                : "no sink has said anything in \(Int(Double(seconds: silence))) s: none has connected"
        }
    }
}

public struct CoordinatorProgress: Sendable, Hashable {
    /// Jobs read from the input so far.
    public var read = 0
    /// Every job of the batch, once the input has ended.
    public var total: Int?
    /// Jobs stored by this run.
    public var stored = 0
    /// Jobs found stored by an earlier run of the batch, with the same fingerprint.
    public var storedBefore = 0
    /// Jobs stored before under another fingerprint, solved again (--resume-changed).
    public var changed = 0
    public var failed = 0
    /// Records the coordinator reported invalid itself (over the size limit).
    public var unreadable = 0
    public var reissued = 0
    public var inFlight = 0
    /// Jobs read and not yet handed out (checked against the sink's pages or waiting for a worker).
    public var queued = 0
    public var liveWorkers = 0
    /// Answers the sink's replay refused, and the workers quarantined (for those, or for
    /// holding jobs past their lease).
    public var refuted = 0
    public var quarantined = 0
    public var dropped = DropCounts()
    /// How the batch's stored jobs ended, this run's and earlier ones': the exit status.
    public var tally = BatchTally()
    public var complete = false

    public init() {}

    /// Jobs done, by this run or an earlier one.
    public var done: Int { stored + storedBefore }
}

extension Dictionary.Values {
    /// Changes one value in place (its `_modify` accessor: no copy of the value) and returns
    /// what `change` returns.
    mutating func modifyEntry<T>(at index: Dictionary.Index, _ change: (inout Value) -> T) -> T {
        change(&self[index])
    }
}
