// Who holds which job, and what happens when a worker asks, goes quiet, or overruns.

import GridlockWire

extension CoordinatorMachine {
    /// The most bytes of jobs in one frame, well under the frame limit whatever the records.
    static let jobBytesPerFrame = 4 << 20

    mutating func ready(
        _ sender: [UInt8], _ identity: WorkerIdentity, credit: Int, now: ContinuousClock.Instant, _ actions: inout [Action]
    ) {
        guard !progress.complete, !isQuarantined(identity, sender: sender) else {
            actions.append(.send(to: sender, .drained))
            return
        }
        guard !changesName(sender, identity, now: now, &actions) else { return }
        // Asking for work is no sign of working: only a new worker's first word counts as seen.
        // Taken out of the table while it changes: a copy left there would make every change
        // to its sets copy them whole.
        var worker = workers.removeValue(forKey: sender) ?? WorkerInfo(identity: identity, lastSeen: now)
        worker.identity = identity
        // A worker holds at most the protocol's window, whatever it asks for.
        worker.credit = max(0, min(credit, WireProtocol.maximumCredit - stillHeld(by: worker)))
        if worker.credit > 0, !worker.isIdle {
            worker.isIdle = true
            idle.append(sender)
        }
        workers[sender] = worker
        dispatch(to: sender, now: now, &actions)
    }

    /// The most jobs an honest worker is taken to hold: its credit, and the grants sent while
    /// all it had received was finished (mayStillArrive counts none of those). An idle worker
    /// asks again every heartbeat interval (250 ms), so a grant that takes longer to arrive may
    /// be followed by another: four credits allow three such asks. With `--paired`, a record's
    /// jobs (solvers x repeats) go to one worker whole, past its credit: each of those four
    /// grants may end in a record. More is a hostile peer's.
    static let maximumHeldListed = 4 * WireProtocol.maximumCredit

    var maximumHeldListed: Int {
        Self.maximumHeldListed + (configuration.paired ? 4 * configuration.jobsPerRecord : 0)
    }

    /// Jobs the worker may still hold: those its last heartbeat listed, and those sent since.
    /// The rest it has finished (their results are on the way to the sink), and counting them
    /// would starve a fast worker of credit until the sink acknowledges them.
    func stillHeld(by worker: WorkerInfo) -> Int {
        worker.lastHeartbeat == nil ? worker.sent.count : worker.lastHeldCount + worker.sentSinceHeartbeat
    }

    /// What a worker holds, the running job first. A worker solves its jobs in the order they
    /// were sent, so a job sent before the first one it still holds is finished: its result is
    /// on the way to the sink. This costs the jobs finished since the last heartbeat, not every
    /// job the worker ever had whose result the sink has yet to acknowledge. Only jobs sent
    /// longer ago than the hand-over grace count: a newer one may not have arrived when the
    /// heartbeat left, even behind a job the worker already held (a restarted coordinator sends
    /// it again).
    mutating func heartbeat(
        _ sender: [UInt8], _ identity: WorkerIdentity, held: [Int], now: ContinuousClock.Instant, _ actions: inout [Action]
    ) {
        guard held.count <= maximumHeldListed else {
            refuse(.malformed, "heartbeat listing \(held.count) jobs, over \(maximumHeldListed)", from: sender, now: now, &actions)
            return
        }
        // No job has a negative number. A number past those read so far may be real: a worker
        // of the coordinator before a restart holds it, and this one has not read that far yet.
        if let negative = held.first(where: { $0 < 0 }) {
            refuse(.malformed, "heartbeat listing job \(negative)", from: sender, now: now, &actions)
            return
        }
        // A quarantined worker's jobs were taken back: what it says it holds is no matter.
        guard !isQuarantined(identity, sender: sender), !changesName(sender, identity, now: now, &actions) else { return }
        var worker = workers.removeValue(forKey: sender) ?? WorkerInfo(identity: identity, lastSeen: now)
        worker.lastSeen = now
        if held.first != worker.running {
            worker.running = held.first
            worker.runningSince = now
        }
        worker.lastHeartbeat = now
        worker.sentSinceHeartbeat = 0
        let heldHere = Set(held)
        let firstHeld = held.first { isAssigned($0, to: sender) }
        while let job = worker.sent.first, job != firstHeld {
            guard case .assigned(let owner, let since, _)? = state(of: job), owner == sender else {
                _ = worker.sent.popFirst()  // Stored already, or moved to another worker.
                continue
            }
            if heldHere.contains(job) || since.duration(to: now) <= Self.handoverGrace { break }
            _ = worker.sent.popFirst()
            markAwaitingStore(job, now: now)
        }
        worker.lastHeldCount = max(held.count, Self.mayStillArrive(worker.sent.contents, firstHeld: firstHeld, lastHeld: held.last))
        workers[sender] = worker
    }

    /// Whether a known connection gives another name than it did: refused, so that a worker
    /// cannot shed its strikes, or a quarantine, by renaming itself.
    mutating func changesName(_ sender: [UInt8], _ identity: WorkerIdentity, now: ContinuousClock.Instant, _ actions: inout [Action]) -> Bool {
        guard let index = workers.index(forKey: sender), workers.values[index].identity != identity else { return false }
        refuse(.unexpected, "a worker named \(workers.values[index].identity) that now says it is \(identity)", from: sender, now: now, &actions)
        return true
    }

    /// What a worker may hold once the jobs on their way to it arrive: from the first job it
    /// holds to the last sent (those after the last it listed left before its heartbeat
    /// arrived, and had not reached it when the heartbeat left: a grant sent in several frames
    /// is read a frame at a time, and a worker that asks again after the first holds the rest
    /// too). Not counting them let 15 fast workers hold 293 jobs of a credit of 256, and the
    /// coordinator refused their heartbeats as malformed (issue 44). Listing none, it may
    /// have finished them all (a fast worker, whose next ask must not wait out the grace) or
    /// received none yet: none count, and so an honest worker holds at most its credit and
    /// one grant on its way (`maximumHeldListed`).
    static func mayStillArrive(_ sent: ArraySlice<Int>, firstHeld: Int?, lastHeld: Int?) -> Int {
        guard let firstHeld, lastHeld != nil else { return 0 }
        guard let start = sent.firstIndex(of: firstHeld) else { return 0 }
        return sent.endIndex - start
    }

    func isAssigned(_ job: Int, to worker: [UInt8]) -> Bool {
        guard case .assigned(let owner, _, _)? = state(of: job) else { return false }
        return owner == worker
    }

    /// Gives queued jobs to a worker that asked, as many as its credit, in as few frames as fit.
    mutating func dispatch(to worker: [UInt8], now: ContinuousClock.Instant, _ actions: inout [Action]) {
        // A stopped batch (the sink gone, the input changed) hands out nothing more.
        guard !stopped else { return }
        guard var info = workers.removeValue(forKey: worker) else { return }
        var group: [Job] = []
        var groupBytes = 0
        var lastSource: String?
        // --paired: past the credit, the rest of the last record's jobs go to the same worker.
        func nextID() -> Int? {
            if info.credit > 0 { return retries.popLast() ?? queued.popFirst() }
            guard configuration.paired, let lastSource, let next = queued.first, tracked[next]?.job.source == lastSource else { return nil }
            return queued.popFirst()
        }
        // A copy, once: the closure below changes `tracked` and may not read `self`.
        let configuration = self.configuration
        while let id = nextID() {
            // Changed in place: reading an entry's field, or writing a copy back, copies the entry
            // and its state (a third of dispatching).
            // The lease starts when the jobs sent before it are due, as the worker solves in order.
            let leaseStart = max(now, info.leaseChainEnd ?? now)
            guard let index = tracked.index(forKey: id),
                  let (handedOut, leaseEnd) = tracked.values.modifyEntry(at: index, { entry -> (Job, ContinuousClock.Instant?)? in
                      guard case .queued = entry.state else { return nil }
                      entry.attempts += 1
                      let leaseEnd = Self.leaseBudget(of: entry.job, configuration).map { leaseStart + $0 }
                      entry.state = .assigned(worker: worker, since: now, leaseEnd: leaseEnd)
                      var job = entry.job
                      job.attempt = entry.attempts
                      return (job, leaseEnd)
                  })
            else { continue }
            if let leaseEnd { info.leaseChainEnd = leaseEnd }
            var job = handedOut
            if let key = configuration.key { job.lease = key.lease(for: job, to: info.identity) }
            info.sent.append(id)
            info.sentSinceHeartbeat += 1
            info.credit = max(0, info.credit - 1)
            lastSource = job.source
            let bytes = job.puzzle.utf8.count
            if groupBytes + bytes > Self.jobBytesPerFrame, !group.isEmpty {
                actions.append(.send(to: worker, .jobs(group)))
                group.removeAll()
                groupBytes = 0
            }
            group.append(job)
            groupBytes += bytes
        }
        if !group.isEmpty { actions.append(.send(to: worker, .jobs(group))) }
        // Its entry in `idle` is left there, skipped when met: removing it would walk the list.
        if info.credit == 0 { info.isIdle = false }
        workers[worker] = info
    }

    /// How long a job may be held once its turn comes: its own wall limit and the grace (and a
    /// serving solver's start), or `leaseLimit` for a job without a limit. Nil: without end.
    func leaseBudget(of job: Job) -> Duration? { Self.leaseBudget(of: job, configuration) }

    static func leaseBudget(of job: Job, _ configuration: Configuration) -> Duration? {
        let start = configuration.servingSolverDigests.contains(job.solverDigest) ? Configuration.serverStartAllowance : .zero
        if let limit = job.limits.wallSeconds(given: job.timeoutSeconds) { return .seconds(limit) + configuration.overrunGrace + start }
        return configuration.leaseLimit.map { $0 + start }
    }

    /// Workers silent too long, running jobs past their time limit, and jobs held past their lease.
    mutating func checkWorkers(now: ContinuousClock.Instant, _ actions: inout [Action]) {
        for (id, worker) in workers where worker.lastSeen.duration(to: now) > configuration.silenceLimit {
            forget(id, fault: "its worker \(worker.identity) went silent while solving it", now: now, &actions)
        }
        for (id, worker) in workers {
            guard let job = worker.running, let since = worker.runningSince, let entry = tracked[job],
                  case .assigned(let owner, _, _) = entry.state, owner == id,
                  let limit = entry.job.limits.wallSeconds(given: entry.job.timeoutSeconds),
                  let budget = leaseBudget(of: entry.job), since.duration(to: now) > budget
            else { continue }
            if strike(worker.identity, id: id, job: job, running: worker.running, now: now, &actions) { continue }
            forget(id, fault: "it overran its time limit of \(limit) s", now: now, &actions)
        }
        // The lease: a worker that heartbeats a job but never finishes it (whatever job it says
        // it runs) loses it when its lease ends. Leases end in the order the jobs were sent,
        // so only each worker's first job still held need be looked at.
        for (id, worker) in workers {
            guard let job = worker.sent.contents.first(where: { isAssigned($0, to: id) }),
                  case .assigned(_, let since, let leaseEnd?)? = state(of: job), now > leaseEnd
            else { continue }
            let held = Double(seconds: since.duration(to: now)).formatted(decimals: 1)
            if strike(worker.identity, id: id, job: job, running: worker.running, now: now, &actions) { continue }
            forget(id, fault: "its worker \(worker.identity) held it \(held) s, past its lease (the job's time limit and grace, or --lease-limit), whatever its heartbeats said", charging: job, now: now, &actions)
        }
    }

    /// Stops counting on a worker: its jobs go back to the queue. Only the job at fault (the one
    /// it was running, unless `charging` names another) is charged an attempt: the ones queued
    /// behind it did nothing wrong. Without a `fault` (a quarantine), none is.
    mutating func forget(_ id: [UInt8], fault: String?, charging: Int? = nil, now: ContinuousClock.Instant, _ actions: inout [Action]) {
        // Its entry in `idle`, if any, is skipped when met: it names no worker now.
        guard let info = workers.removeValue(forKey: id) else { return }
        let atFault = charging ?? info.running
        for job in info.sent.contents where isAssigned(job, to: id) {
            requeue(job, fault: job == atFault ? fault : nil, now: now, &actions)
        }
    }

    /// Results the sink never acknowledged: solved again, unless the sink itself seems down
    /// (silent for the store timeout), when re-issuing would only repeat work it cannot store.
    /// Jobs wait in `storeDeadlines` in the order they started waiting, so a tick looks only at
    /// those overdue, not at every job held (a walk over 32,768 jobs twenty times a second).
    mutating func checkStores(now: ContinuousClock.Instant, _ actions: inout [Action]) {
        let sinkAlive = resume.lastHeard.map { $0.duration(to: now) < configuration.storeTimeout } ?? false
        var stillDue: [(job: Int, since: ContinuousClock.Instant)] = []
        while let (id, since) = storeDeadlines.first {
            guard isWaiting(id, since: since) else {
                _ = storeDeadlines.popFirst()  // Stored since, or waiting again from a later time.
                continue
            }
            guard since.duration(to: now) > configuration.storeTimeout else { break }
            _ = storeDeadlines.popFirst()
            switch state(of: id) {
            case .awaitingStore? where !sinkAlive:
                stillDue.append((id, since))
            case .awaitingStore?:
                requeue(id, fault: nil, now: now, &actions)
            case .reported(let result, _)?:
                markReported(id, result, now: now)
                actions.append(.sendResults(.results([result])))
            default:
                break
            }
        }
        // Overdue while the sink is silent: looked at again at the next tick, before the rest.
        if !stillDue.isEmpty { storeDeadlines.prepend(contentsOf: stillDue) }
        // Behind a job that waits long, the entries of jobs stored meanwhile pile up: dropped
        // once they outnumber the jobs held, so the list stays within twice the bound on those.
        if storeDeadlines.count > 2 * max(tracked.count, 1_024) {
            var deadlines = storeDeadlines
            deadlines.keep { isWaiting($0.job, since: $0.since) }
            storeDeadlines = deadlines
        }
    }

    /// Whether a job still waits for the sink's acknowledgement since `since`.
    func isWaiting(_ job: Int, since: ContinuousClock.Instant) -> Bool {
        switch state(of: job) {
        case .awaitingStore(let waiting)?, .reported(_, let waiting)?: waiting == since
        default: false
        }
    }

    /// A finished job now waits for the sink's acknowledgement.
    mutating func markAwaitingStore(_ job: Int, now: ContinuousClock.Instant) {
        tracked[job]!.state = .awaitingStore(since: now)
        storeDeadlines.append((job, now))
    }

    /// A result the coordinator reports itself, with the lease the sink checks.
    func signed(_ result: JobResult) -> JobResult {
        var result = result
        if let key = configuration.key { result.lease = key.lease(answering: result) }
        return result
    }

    /// A result the coordinator sent itself now waits for the sink's acknowledgement.
    mutating func markReported(_ job: Int, _ result: JobResult, now: ContinuousClock.Instant) {
        tracked[job]!.state = .reported(result, since: now)
        storeDeadlines.append((job, now))
    }

    /// Puts a job back in line (first in line). With a `fault`, the attempt counts, and a job
    /// out of attempts is reported failed with that reason instead.
    mutating func requeue(_ job: Int, fault: String?, now: ContinuousClock.Instant, _ actions: inout [Action]) {
        guard var entry = tracked[job] else { return }
        if let fault {
            if entry.attempts >= configuration.maxAttempts {
                var result = JobResult(answering: entry.job, worker: configuration.identity, status: .failed)
                result.attempt = entry.attempts
                result.error = "failed after \(entry.attempts) attempts: \(fault)"
                result = signed(result)
                tracked[job] = entry
                markReported(job, result, now: now)
                actions.append(.sendResults(.results([result])))
                return
            }
        } else {
            entry.attempts -= 1
        }
        entry.state = .queued
        tracked[job] = entry
        retries.append(job)
        progress.reissued += 1
    }
}
