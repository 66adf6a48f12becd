// Who holds which job, and what happens when a worker asks, goes quiet, or overruns.

import GridlockWire

extension CoordinatorMachine {
    /// The most bytes of jobs in one frame, well under the frame limit whatever the records.
    static let jobBytesPerFrame = 4 << 20

    mutating func ready(
        _ sender: [UInt8], _ identity: WorkerIdentity, credit: Int, now: ContinuousClock.Instant, _ actions: inout [Action]
    ) {
        guard !progress.complete else {
            actions.append(.send(to: sender, .drained))
            return
        }
        // Asking for work is no sign of working: only a new worker's first word counts as seen.
        var worker = workers[sender] ?? WorkerInfo(identity: identity, lastSeen: now)
        worker.identity = identity
        // A worker holds at most the protocol's window, whatever it asks for.
        worker.credit = max(0, min(credit, WireProtocol.maximumCredit - stillHeld(by: worker)))
        workers[sender] = worker
        if worker.credit > 0, !idle.contains(sender) { idle.append(sender) }
        dispatch(to: sender, now: now, &actions)
    }

    /// Jobs the worker may still hold: those its last heartbeat listed, and those sent since.
    /// The rest it has finished (their results are on the way to the sink), and counting them
    /// would starve a fast worker of credit until the sink acknowledges them.
    func stillHeld(by worker: WorkerInfo) -> Int {
        guard let lastHeartbeat = worker.lastHeartbeat else { return worker.jobs.count }
        return worker.jobs.count { job in
            if worker.lastHeld.contains(job) { return true }
            guard case .assigned(_, let since)? = tracked[job]?.state else { return false }
            return since >= lastHeartbeat
        }
    }

    mutating func heartbeat(_ sender: [UInt8], _ identity: WorkerIdentity, held: [Int], now: ContinuousClock.Instant) {
        guard held.count <= WireProtocol.maximumCredit else {
            progress.dropped.malformed += 1
            return
        }
        var worker = workers[sender] ?? WorkerInfo(identity: identity, lastSeen: now)
        worker.lastSeen = now
        if held.first != worker.running {
            worker.running = held.first
            worker.runningSince = now
        }
        let stillHeld = Set(held)
        worker.lastHeld = stillHeld
        worker.lastHeartbeat = now
        for job in worker.jobs where !stillHeld.contains(job) {
            guard let entry = tracked[job], case .assigned(let owner, let since) = entry.state, owner == sender else {
                worker.jobs.remove(job)
                continue
            }
            if since.duration(to: now) > Self.handoverGrace {
                worker.jobs.remove(job)
                tracked[job]!.state = .awaitingStore(since: now)
            }
        }
        workers[sender] = worker
    }

    /// Gives queued jobs to a worker that asked, as many as its credit, in as few frames as fit.
    mutating func dispatch(to worker: [UInt8], now: ContinuousClock.Instant, _ actions: inout [Action]) {
        guard var info = workers[worker] else {
            idle.removeAll { $0 == worker }
            return
        }
        var group: [Job] = []
        var groupBytes = 0
        while info.credit > 0, let id = retries.popLast() ?? queued.popFirst() {
            guard var entry = tracked[id], entry.state == .queued else { continue }
            entry.attempts += 1
            entry.job.attempt = entry.attempts
            entry.state = .assigned(worker: worker, since: now)
            tracked[id] = entry
            info.jobs.insert(id)
            info.credit -= 1
            if groupBytes + entry.job.puzzle.utf8.count > Self.jobBytesPerFrame, !group.isEmpty {
                actions.append(.send(to: worker, .jobs(group)))
                group.removeAll()
                groupBytes = 0
            }
            group.append(entry.job)
            groupBytes += entry.job.puzzle.utf8.count
        }
        if !group.isEmpty { actions.append(.send(to: worker, .jobs(group))) }
        workers[worker] = info
        if info.credit == 0 { idle.removeAll { $0 == worker } }
    }

    /// Workers silent too long, and running jobs past their time limit.
    mutating func checkWorkers(now: ContinuousClock.Instant, _ actions: inout [Action]) {
        for (id, worker) in workers where worker.lastSeen.duration(to: now) > configuration.silenceLimit {
            forget(id, fault: "its worker \(worker.identity) went silent while solving it", now: now, &actions)
        }
        for (id, worker) in workers {
            guard let job = worker.running, let since = worker.runningSince, let entry = tracked[job],
                  case .assigned(let owner, _) = entry.state, owner == id, let limit = entry.job.timeoutSeconds,
                  since.duration(to: now) > .seconds(limit) + configuration.overrunGrace
            else { continue }
            forget(id, fault: "it overran its time limit of \(limit) s", now: now, &actions)
        }
    }

    /// Stops counting on a worker: its jobs go back to the queue. Only the job it was running
    /// is charged an attempt (`fault`): the ones queued behind it did nothing wrong.
    mutating func forget(_ id: [UInt8], fault: String, now: ContinuousClock.Instant, _ actions: inout [Action]) {
        guard let info = workers.removeValue(forKey: id) else { return }
        idle.removeAll { $0 == id }
        for job in info.jobs.sorted() {
            guard let entry = tracked[job], case .assigned(let owner, _) = entry.state, owner == id else { continue }
            requeue(job, fault: job == info.running ? fault : nil, now: now, &actions)
        }
    }

    /// Results the sink never acknowledged: solved again, unless the sink itself seems down
    /// (silent for the store timeout), when re-issuing would only repeat work it cannot store.
    mutating func checkStores(now: ContinuousClock.Instant, _ actions: inout [Action]) {
        let sinkAlive = resume.lastHeard.map { $0.duration(to: now) < configuration.storeTimeout } ?? false
        for (id, entry) in tracked {
            switch entry.state {
            case .awaitingStore(let since) where sinkAlive && since.duration(to: now) > configuration.storeTimeout:
                requeue(id, fault: nil, now: now, &actions)
            case .reported(let result, let since) where since.duration(to: now) > configuration.storeTimeout:
                tracked[id]!.state = .reported(result, since: now)
                actions.append(.sendResults(.results([result])))
            default:
                break
            }
        }
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
                entry.state = .reported(result, since: now)
                tracked[job] = entry
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
