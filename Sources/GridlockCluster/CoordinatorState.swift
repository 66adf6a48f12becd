// The coordinator's bookkeeping, apart from its socket loop: what each job and worker is doing.

import Foundation
import GridlockWire
import ZeroMQ

struct CoordinatorState {
    enum JobState {
        case pending
        case assigned(worker: [UInt8], since: ContinuousClock.Instant)
        case awaitingStore(since: ContinuousClock.Instant)
        case stored
    }

    struct WorkerInfo {
        var identity: WorkerIdentity?
        var lastSeen: ContinuousClock.Instant
        /// Jobs given to this worker and not yet reported finished.
        var jobs: Set<Int> = []
        /// How many more jobs it asked for.
        var credit = 0
        /// The job it is solving (first in its heartbeat) and since when: only the running job
        /// can overrun, not the ones queued behind it.
        var running: Int?
        var runningSince: ContinuousClock.Instant?
    }

    /// A job missing from its worker's heartbeat counts as finished only after this long: the
    /// heartbeat may have left before the job arrived.
    static let handoverGrace: Duration = .seconds(1)

    let plan: BatchPlan
    let configuration: Coordinator.Configuration
    /// Jobs first, then the invalid records, numbered as in the plan.
    var states: [JobState]
    var attempts: [Int]
    /// Why a job failed, once it has run out of attempts (its `failed` result is on its way).
    var failures: [Int: String] = [:]
    var pending = PendingJobs()
    /// Jobs assigned to a worker or waiting for the sink: the only ones the timers look at.
    var unsettled: Set<Int> = []
    var workers: [[UInt8]: WorkerInfo] = [:]
    /// Workers with credit left, in the order they asked.
    var idle: [[UInt8]] = []
    var progress = CoordinatorProgress()
    var syncRequested = false
    /// Whether the sink has said what it already stores; jobs wait for that (or `syncWait`).
    var syncedWithSink = false
    var journal: FileHandle?

    let started = ContinuousClock().now

    init(plan: BatchPlan, configuration: Coordinator.Configuration) {
        self.plan = plan
        self.configuration = configuration
        states = Array(repeating: .pending, count: plan.total)
        attempts = Array(repeating: 0, count: plan.total)
        pending = PendingJobs(plan.jobs.map(\.id))
        progress.total = plan.total
    }

    /// Marks the jobs the journal lists as stored, then opens it for appending.
    mutating func loadJournal() throws {
        guard let path = configuration.journal else { return }
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count == 3, fields[0] == "stored", fields[1] == plan.batch, let job = Int(fields[2]) {
                    markStored(job)
                }
            }
        } else if !FileManager.default.createFile(atPath: path, contents: nil) {
            throw ClusterError("cannot create the journal \(path): check the directory exists and is writable")
        }
        journal = FileHandle(forWritingAtPath: path)
        journal?.seekToEndOfFile()
    }

    mutating func handle(_ frames: [[UInt8]], now: ContinuousClock.Instant, router: ZMQSocket) throws {
        guard frames.count == 2 else {
            progress.dropped.malformed += 1
            return
        }
        let sender = frames[0]
        let message: WireMessage
        do {
            message = try WireMessage.decode(frames[1])
        } catch {
            progress.dropped.malformed += 1
            return
        }
        switch message {
        case .ready(let identity, let credit):
            var worker = workers[sender] ?? WorkerInfo(lastSeen: now)
            worker.identity = identity
            worker.lastSeen = now
            worker.credit = max(0, min(credit, WireProtocol.maximumCredit))
            workers[sender] = worker
            try dispatch(to: sender, now: now, router: router)
        case .heartbeat(let identity, let held):
            var worker = workers[sender] ?? WorkerInfo(identity: identity, lastSeen: now)
            worker.lastSeen = now
            if held.first != worker.running {
                worker.running = held.first
                worker.runningSince = now
            }
            let stillHeld = Set(held)
            for job in worker.jobs where !stillHeld.contains(job) {
                guard case .assigned(let owner, let since) = states[job], owner == sender else {
                    worker.jobs.remove(job)
                    continue
                }
                if since.duration(to: now) > Self.handoverGrace {
                    worker.jobs.remove(job)
                    states[job] = .awaitingStore(since: now)
                    progress.inFlight -= 1
                }
            }
            workers[sender] = worker
        case .stored(let batch, let jobs):
            guard batch == plan.batch else { return }
            var journalLines = ""
            for job in jobs where job >= 0 && job < states.count && markStored(job) {
                journalLines += "stored \(plan.batch) \(job)\n"
            }
            // One write for the whole acknowledgement, not one system call per job.
            if !journalLines.isEmpty { journal?.write(Data(journalLines.utf8)) }
            if jobs.isEmpty, syncRequested { syncedWithSink = true }
        case .sinkHello:
            if !syncRequested {
                syncRequested = true
                try router.send([sender, WireMessage.syncRequest(batch: plan.batch).encoded()], dontWait: true)
            }
        case .jobs, .results, .syncRequest, .drained:
            progress.dropped.unexpected += 1
        }
    }

    /// Records that the sink holds `job`; returns whether that is news.
    @discardableResult
    mutating func markStored(_ job: Int) -> Bool {
        if case .stored = states[job] { return false }
        if case .assigned = states[job] { progress.inFlight -= 1 }
        states[job] = .stored
        unsettled.remove(job)
        progress.stored += 1
        if failures[job] != nil { progress.failed += 1 }
        return true
    }

    /// Gives pending jobs to a worker that asked, as many as its credit, in one frame, or tells
    /// it to stop.
    mutating func dispatch(to worker: [UInt8], now: ContinuousClock.Instant, router: ZMQSocket) throws {
        guard var info = workers[worker] else { return }
        var group: [Job] = []
        while info.credit > 0, mayDispatch(now: now), let job = pending.next() {
            guard case .pending = states[job] else { continue }
            attempts[job] += 1
            var message = plan.jobs[job]
            message.attempt = attempts[job]
            states[job] = .assigned(worker: worker, since: now)
            unsettled.insert(job)
            info.jobs.insert(job)
            info.credit -= 1
            progress.inFlight += 1
            group.append(message)
        }
        if !group.isEmpty { try router.send([worker, WireMessage.jobs(group).encoded()], dontWait: true) }
        workers[worker] = info
        idle.removeAll { $0 == worker }
        if progress.isComplete {
            try router.send([worker, WireMessage.drained.encoded()], dontWait: true)
        } else if info.credit > 0 {
            idle.append(worker)
        }
    }

    /// Jobs go out once the sink has said what it stores, so that a restarted coordinator does
    /// not solve them again; a sink that stays silent holds the batch up for `syncWait` at most.
    func mayDispatch(now: ContinuousClock.Instant) -> Bool {
        syncedWithSink || started.duration(to: now) > configuration.syncWait
    }

    mutating func dispatchToIdleWorkers(now: ContinuousClock.Instant, router: ZMQSocket) throws {
        for worker in idle where !pending.isEmpty {
            try dispatch(to: worker, now: now, router: router)
        }
    }

    mutating func drainIdleWorkers(router: ZMQSocket) throws {
        for worker in idle { try router.send([worker, WireMessage.drained.encoded()], dontWait: true) }
        idle.removeAll()
    }

    /// Re-issues jobs whose worker went silent or overran, or whose result was never stored.
    mutating func checkTimers(now: ContinuousClock.Instant, router: ZMQSocket, sink: ZMQSocket) throws {
        for (id, worker) in workers where worker.lastSeen.duration(to: now) > configuration.silenceLimit {
            workers[id] = nil
            idle.removeAll { $0 == id }
            for job in worker.jobs {
                guard case .assigned(let owner, _) = states[job], owner == id else { continue }
                progress.inFlight -= 1
                try retry(job, because: "its worker \(worker.identity?.description ?? "?") went silent", now: now, sink: sink)
            }
        }
        for (id, worker) in workers {
            guard let job = worker.running, let since = worker.runningSince, job < plan.jobs.count,
                  let limit = plan.jobs[job].timeoutSeconds,
                  since.duration(to: now) > .seconds(limit) + configuration.overrunGrace,
                  case .assigned(let owner, _) = states[job], owner == id
            else { continue }
            try overrun(job, on: id, limit: limit, now: now, sink: sink)
        }
        for job in unsettled {
            switch states[job] {
            case .awaitingStore(let since) where since.duration(to: now) > configuration.storeTimeout:
                if job >= plan.jobs.count {
                    try reportInvalid(now: now, sink: sink)
                } else if let reason = failures[job] {
                    try sendFailure(job, reason: reason, now: now, sink: sink)
                } else {
                    try retry(job, because: "its result was never stored", now: now, sink: sink)
                }
            default:
                break
            }
        }
        progress.liveWorkers = workers.count
    }

    /// The worker is stuck on `job`, and the jobs queued behind it would wait forever:
    /// re-issue them all, and stop counting on that worker until it asks again.
    mutating func overrun(_ job: Int, on owner: [UInt8], limit: Double, now: ContinuousClock.Instant, sink: ZMQSocket) throws {
        let queuedBehind = workers[owner]?.jobs.subtracting([job]) ?? []
        workers[owner] = nil
        idle.removeAll { $0 == owner }
        progress.inFlight -= 1
        try retry(job, because: "it overran its time limit of \(limit) s", now: now, sink: sink)
        for other in queuedBehind {
            guard case .assigned(let holder, _) = states[other], holder == owner else { continue }
            progress.inFlight -= 1
            attempts[other] -= 1  // Not its own fault: this try does not count.
            try retry(other, because: "it waited behind an overrun job", now: now, sink: sink)
        }
    }

    mutating func retry(_ job: Int, because reason: String, now: ContinuousClock.Instant, sink: ZMQSocket) throws {
        guard attempts[job] < configuration.maxAttempts else {
            failures[job] = "failed after \(attempts[job]) attempts: \(reason)"
            try sendFailure(job, reason: failures[job]!, now: now, sink: sink)
            return
        }
        progress.reissued += 1
        states[job] = .pending
        unsettled.remove(job)
        pending.retry(job)
    }

    mutating func sendFailure(_ job: Int, reason: String, now: ContinuousClock.Instant, sink: ZMQSocket) throws {
        let source = plan.jobs[job]
        var result = JobResult(
            batch: plan.batch, job: job, attempt: attempts[job],
            worker: WorkerIdentity(host: ProcessInfo.processInfo.hostName, pid: Int(getpid())), status: "failed")
        result.kind = source.kind
        result.puzzle = source.puzzle
        result.solver = source.solver
        result.source = source.source
        result.error = reason
        states[job] = .awaitingStore(since: now)
        unsettled.insert(job)
        try sink.send([WireMessage.results([result]).encoded()], dontWait: true)
    }

    /// Sends the invalid records' results to the sink; they are stored like any other.
    mutating func reportInvalid(now: ContinuousClock.Instant, sink: ZMQSocket) throws {
        let unstored = plan.invalid.filter { !isStored($0.job) }
        for result in unstored {
            states[result.job] = .awaitingStore(since: now)
            unsettled.insert(result.job)
        }
        for group in unstored.chunks(of: WireProtocol.resultsPerFrame) {
            try sink.send([WireMessage.results(group).encoded()], dontWait: true)
        }
    }

    func isStored(_ job: Int) -> Bool {
        if case .stored = states[job] { return true }
        return false
    }
}

/// Jobs waiting for a worker: retries first (most recent first), then the rest in order. A job
/// stored meanwhile stays in here and is skipped when its turn comes.
struct PendingJobs {
    private var queue: [Int] = []
    private var head = 0
    private var retries: [Int] = []

    init(_ jobs: [Int] = []) {
        queue = jobs
    }

    var isEmpty: Bool { retries.isEmpty && head == queue.count }

    mutating func next() -> Int? {
        if let job = retries.popLast() { return job }
        guard head < queue.count else { return nil }
        head += 1
        return queue[head - 1]
    }

    mutating func retry(_ job: Int) {
        retries.append(job)
    }
}
