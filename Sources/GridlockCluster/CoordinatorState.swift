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
        var job: Int?
    }

    let plan: BatchPlan
    let configuration: Coordinator.Configuration
    /// Jobs first, then the invalid records, numbered as in the plan.
    var states: [JobState]
    var attempts: [Int]
    /// Why a job failed, once it has run out of attempts (its `failed` result is on its way).
    var failures: [Int: String] = [:]
    var pending: [Int] = []
    var workers: [[UInt8]: WorkerInfo] = [:]
    var idle: [[UInt8]] = []
    var progress = CoordinatorProgress()
    var syncedWithSink = false
    var journal: FileHandle?

    init(plan: BatchPlan, configuration: Coordinator.Configuration) {
        self.plan = plan
        self.configuration = configuration
        states = Array(repeating: .pending, count: plan.total)
        attempts = Array(repeating: 0, count: plan.total)
        pending = plan.jobs.map(\.id)
        progress.total = plan.total
    }

    /// Marks the jobs the journal lists as stored, then opens it for appending.
    mutating func loadJournal() throws {
        guard let path = configuration.journal else { return }
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count == 3, fields[0] == "stored", fields[1] == plan.batch, let job = Int(fields[2]) {
                    markStored(job, journaled: true)
                }
            }
        } else {
            FileManager.default.createFile(atPath: path, contents: nil)
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
        case .ready(let identity):
            var worker = workers[sender] ?? WorkerInfo(lastSeen: now)
            worker.identity = identity
            worker.lastSeen = now
            if let finished = worker.job, case .assigned(let owner, _) = states[finished], owner == sender {
                states[finished] = .awaitingStore(since: now)
            }
            worker.job = nil
            workers[sender] = worker
            try dispatch(to: sender, now: now, router: router)
        case .heartbeat(let identity, let job):
            if var worker = workers[sender] {
                worker.lastSeen = now
                workers[sender] = worker
                if job == nil, worker.job == nil, !idle.contains(sender) {
                    try dispatch(to: sender, now: now, router: router)
                }
            } else {
                // A worker this coordinator has not met (it restarted): treat it as asking.
                workers[sender] = WorkerInfo(identity: identity, lastSeen: now, job: nil)
                if job == nil { try dispatch(to: sender, now: now, router: router) }
            }
        case .stored(let batch, let jobs):
            guard batch == plan.batch else { return }
            for job in jobs where job >= 0 && job < states.count { markStored(job, journaled: false) }
        case .sinkHello:
            if !syncedWithSink {
                syncedWithSink = true
                try router.send([sender, WireMessage.syncRequest(batch: plan.batch).encoded()], dontWait: true)
            }
        case .job, .result, .syncRequest, .drained:
            progress.dropped.unexpected += 1
        }
    }

    mutating func markStored(_ job: Int, journaled: Bool) {
        if case .stored = states[job] { return }
        if case .assigned = states[job] { progress.inFlight -= 1 }
        states[job] = .stored
        progress.stored += 1
        if failures[job] != nil { progress.failed += 1 }
        pending.removeAll { $0 == job }
        if !journaled { journal?.write(Data("stored \(plan.batch) \(job)\n".utf8)) }
    }

    /// Gives the next pending job to a worker that asked, or tells it to wait or stop.
    mutating func dispatch(to worker: [UInt8], now: ContinuousClock.Instant, router: ZMQSocket) throws {
        while let job = pending.first {
            pending.removeFirst()
            guard case .pending = states[job] else { continue }
            attempts[job] += 1
            var message = plan.jobs[job]
            message.attempt = attempts[job]
            states[job] = .assigned(worker: worker, since: now)
            workers[worker]?.job = job
            progress.inFlight += 1
            idle.removeAll { $0 == worker }
            try router.send([worker, WireMessage.job(message).encoded()], dontWait: true)
            return
        }
        if progress.isComplete {
            try router.send([worker, WireMessage.drained.encoded()], dontWait: true)
        } else if !idle.contains(worker) {
            idle.append(worker)
        }
    }

    mutating func dispatchToIdleWorkers(now: ContinuousClock.Instant, router: ZMQSocket) throws {
        while !pending.isEmpty, let worker = idle.first {
            idle.removeFirst()
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
            if let job = worker.job, case .assigned(let owner, _) = states[job], owner == id {
                progress.inFlight -= 1
                try retry(job, because: "its worker \(worker.identity?.description ?? "?") went silent", now: now, sink: sink)
            }
        }
        for job in states.indices {
            switch states[job] {
            case .assigned(let owner, let since):
                if let limit = job < plan.jobs.count ? plan.jobs[job].timeoutSeconds : nil,
                   since.duration(to: now) > .seconds(limit) + configuration.overrunGrace {
                    workers[owner]?.job = nil
                    progress.inFlight -= 1
                    try retry(job, because: "it overran its time limit of \(limit) s", now: now, sink: sink)
                }
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

    mutating func retry(_ job: Int, because reason: String, now: ContinuousClock.Instant, sink: ZMQSocket) throws {
        guard attempts[job] < configuration.maxAttempts else {
            failures[job] = "failed after \(attempts[job]) attempts: \(reason)"
            try sendFailure(job, reason: failures[job]!, now: now, sink: sink)
            return
        }
        progress.reissued += 1
        states[job] = .pending
        pending.insert(job, at: 0)
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
        try sink.send([WireMessage.result(result).encoded()], dontWait: true)
    }

    /// Sends the invalid records' results to the sink; they are stored like any other.
    mutating func reportInvalid(now: ContinuousClock.Instant, sink: ZMQSocket) throws {
        for result in plan.invalid where !isStored(result.job) {
            states[result.job] = .awaitingStore(since: now)
            try sink.send([WireMessage.result(result).encoded()], dontWait: true)
        }
    }

    func isStored(_ job: Int) -> Bool {
        if case .stored = states[job] { return true }
        return false
    }
}
