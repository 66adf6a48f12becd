// Who holds which job, and what happens when a worker asks, goes quiet, or overruns.

import GridlockWire

extension CoordinatorMachine {
    /// The most bytes of jobs in one frame, well under the frame limit whatever the records.
    static let jobBytesPerFrame = 4 << 20

    mutating func ready(
        _ sender: [UInt8], _ identity: WorkerIdentity, credit: Int, jobSeconds: Double?, now: ContinuousClock.Instant,
        _ actions: inout [Action]
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
        worker.jobSeconds = jobSeconds
        // A worker holds at most the protocol's window, whatever it asks for.
        worker.credit = max(0, min(credit, WireProtocol.maximumCredit - stillHeld(by: worker)))
        if worker.credit > 0, worker.idleTicket == nil {
            worker.idleTicket = nextIdleTicket
            idle.append((sender, nextIdleTicket))
            nextIdleTicket += 1
        }
        workers[sender] = worker
        dispatch(to: sender, now: now, &actions)
    }

    /// The most jobs a heartbeat may say a worker holds. An honest one holds its credit (and,
    /// with `--paired`, the rest of a record past it, since a record's jobs go to one worker
    /// whole); the bound is four times that, so no honest worker comes near it. More is a
    /// hostile peer's.
    static let maximumHeldListed = 4 * WireProtocol.maximumCredit

    var maximumHeldListed: Int {
        Self.maximumHeldListed + (configuration.paired ? 4 * configuration.jobsPerRecord : 0)
    }

    /// Jobs the worker may still hold: those its last heartbeat said it held and those then on
    /// their way to it, and those sent since. The rest it has finished (their results are on
    /// the way to the sink), and counting them would starve a fast worker of credit until the
    /// sink acknowledges them.
    func stillHeld(by worker: WorkerInfo) -> Int {
        worker.lastHeartbeat == nil ? worker.sent.count : worker.lastHeldCount + worker.sentSinceHeartbeat
    }

    /// Where a worker is in its chunks. A worker solves its jobs in the order they were sent,
    /// so every job sent before its current position is finished: its result is on the way to
    /// the sink, and it waits for the sink's word. Chunks newer than the last it received are
    /// on their way; one sent longer ago than the hand-over grace is lost, and its jobs go out
    /// again. This costs the jobs finished since the last heartbeat and those on their way,
    /// whatever the worker holds.
    mutating func heartbeat(
        _ sender: [UInt8], _ identity: WorkerIdentity, held: HeldWork, now: ContinuousClock.Instant, _ actions: inout [Action]
    ) {
        guard held.jobs <= maximumHeldListed else {
            refuse(.malformed, "heartbeat holding \(held.jobs) jobs, over \(maximumHeldListed)", from: sender, now: now, &actions)
            return
        }
        // A position in this run's chunks needs one of them received, at or after it: an honest
        // worker is never ahead of what it received.
        let received = held.lastReceived.flatMap { isOurs($0) ? $0 : nil }
        if let current = held.current, isOurs(current.chunk), !(received.map { current.chunk <= $0 } ?? false) {
            refuse(.malformed, "heartbeat at \(current), past the last chunk it received", from: sender, now: now, &actions)
            return
        }
        // A quarantined worker's jobs were taken back: what it says it holds is no matter.
        guard !isQuarantined(identity, sender: sender), !changesName(sender, identity, now: now, &actions) else { return }
        var worker = workers.removeValue(forKey: sender) ?? WorkerInfo(identity: identity, lastSeen: now)
        worker.lastSeen = now
        worker.lastHeartbeat = now
        worker.sentSinceHeartbeat = 0
        // Everything before this position is finished. A position from another run (this
        // coordinator's before a restart) says nothing of this run's chunks: the worker solves
        // in order, so it has started none of them.
        var finishedBefore: ChunkPosition?
        if let current = held.current {
            finishedBefore = isOurs(current.chunk) ? current : nil
        } else if let received {
            finishedBefore = ChunkPosition(chunk: ChunkID(received.value + 1), index: 0)
        }
        while let boundary = finishedBefore, let entry = worker.sent.first, entry.position < boundary {
            _ = worker.sent.popFirst()
            if isAssigned(entry.job, to: sender, at: entry.position) { markAwaitingStore(entry.job, now: now) }
        }
        let running = held.current.flatMap { current in
            worker.sent.first.flatMap { $0.position == current && isOurs(current.chunk) ? $0.job : nil }
        }
        if held.current != worker.runningAt {
            worker.runningAt = held.current
            worker.runningSince = now
        }
        worker.running = running
        let onTheirWay = takeLostChunks(of: &worker, sender, received: received, now: now, &actions)
        // What it says it holds, but never less than what this run sent it and it has not passed:
        // a worker that stays at one place while it asks again holds all it was sent, and must
        // not be given more (its own count is its word only).
        worker.lastHeldCount = max(held.jobs + onTheirWay, worker.sent.count)
        workers[sender] = worker
    }

    /// The jobs sent to a worker in chunks it had not received when its heartbeat left: those
    /// sent more than the hand-over grace before go out again, uncharged (a late arrival is
    /// solved twice, and the sink keeps one answer). Returns how many are still on their way.
    /// They are at the end of the worker's list, so this looks at them only.
    mutating func takeLostChunks(
        of worker: inout WorkerInfo, _ sender: [UInt8], received: ChunkID?, now: ContinuousClock.Instant, _ actions: inout [Action]
    ) -> Int {
        let sent = worker.sent.contents
        var firstUnreceived = sent.endIndex
        while firstUnreceived > sent.startIndex, received.map({ sent[firstUnreceived - 1].position.chunk > $0 }) ?? true {
            firstUnreceived -= 1
        }
        var lost = 0
        while firstUnreceived + lost < sent.endIndex, sent[firstUnreceived + lost].at.duration(to: now) > Self.handoverGrace {
            lost += 1
        }
        guard lost > 0 else { return sent.endIndex - firstUnreceived }
        let lostJobs = sent[firstUnreceived..<(firstUnreceived + lost)]
        for entry in lostJobs where isAssigned(entry.job, to: sender, at: entry.position) {
            requeue(entry.job, fault: nil, now: now, &actions)
        }
        let lostRange = lostJobs.startIndex..<lostJobs.endIndex
        var kept = FIFO<SentJob>()
        for index in sent.indices where !lostRange.contains(index) { kept.append(sent[index]) }
        worker.sent = kept
        return sent.endIndex - firstUnreceived - lost
    }

    /// Whether a known connection gives another name than it did: refused, so that a worker
    /// cannot shed its strikes, or a quarantine, by renaming itself.
    mutating func changesName(_ sender: [UInt8], _ identity: WorkerIdentity, now: ContinuousClock.Instant, _ actions: inout [Action]) -> Bool {
        guard let index = workers.index(forKey: sender), workers.values[index].identity != identity else { return false }
        refuse(.unexpected, "a worker named \(workers.values[index].identity) that now says it is \(identity)", from: sender, now: now, &actions)
        return true
    }

    /// Whether the job is the worker's, at that place in its chunks (a job taken back and sent
    /// to the same worker again is at a later place).
    func isAssigned(_ job: Int, to worker: [UInt8], at position: ChunkPosition) -> Bool {
        guard case .assigned(let owner, let at, _, _)? = state(of: job) else { return false }
        return owner == worker && at == position
    }

    /// Whether the job is the worker's, wherever in its chunks.
    func isAssigned(_ job: Int, to worker: [UInt8]) -> Bool {
        guard case .assigned(let owner, _, _, _)? = state(of: job) else { return false }
        return owner == worker
    }

    /// How many jobs go in one chunk to a worker whose jobs take `jobSeconds`: about
    /// `chunkWork` of them, from 1 (slow jobs, or none finished yet) to `maximumChunkJobs`.
    func chunkJobs(jobSeconds: Double?) -> Int {
        guard let jobSeconds else { return 1 }
        let work = Double(seconds: configuration.chunkWork)
        guard jobSeconds > 0, work / jobSeconds < Double(WireProtocol.maximumChunkJobs) else { return WireProtocol.maximumChunkJobs }
        return max(1, Int(work / jobSeconds))
    }

    /// Gives queued jobs to a worker that asked, as many as its credit, in chunks of about
    /// `chunkWork` each, in as few frames as fit.
    mutating func dispatch(to worker: [UInt8], now: ContinuousClock.Instant, _ actions: inout [Action]) {
        // A stopped batch (the sink gone, the input changed) hands out nothing more.
        guard !stopped else { return }
        guard var info = workers.removeValue(forKey: worker) else { return }
        var frame: [JobChunk] = []
        var chunk: [Job] = []
        var frameBytes = 0
        var lastSource: String?
        let perChunk = chunkJobs(jobSeconds: info.jobSeconds)
        func closeChunk() {
            guard !chunk.isEmpty else { return }
            frame.append(JobChunk(id: ChunkID(nextChunk), jobs: chunk))
            info.lastChunkSent = ChunkID(nextChunk)
            nextChunk += 1
            chunk.removeAll()
        }
        // --paired: past the credit, the rest of the last record's jobs go to the same worker.
        func nextID() -> Int? {
            if info.credit > 0 { return retries.popLast() ?? queued.popFirst() }
            guard configuration.paired, let lastSource, let next = queued.first, tracked[next]?.job.source == lastSource else { return nil }
            return queued.popFirst()
        }
        // A copy, once: the closure below changes `tracked` and may not read `self`.
        let configuration = self.configuration
        while let id = nextID() {
            guard let index = tracked.index(forKey: id), case .queued = tracked.values[index].state else { continue }
            let bytes = tracked.values[index].puzzleBytes
            if frameBytes + bytes > Self.jobBytesPerFrame, frameBytes > 0 {
                // A chunk never spans two frames: the worker counts a chunk received whole. Cut
                // before this job's place is taken, so that it is the next chunk's first.
                closeChunk()
                actions.append(.send(to: worker, .jobs(frame)))
                frame.removeAll()
                frameBytes = 0
            }
            let position = ChunkPosition(chunk: ChunkID(nextChunk), index: chunk.count)
            // Changed in place: reading an entry's field, or writing a copy back, copies the entry
            // and its state (a third of dispatching).
            // The lease starts when the jobs sent before it are due, as the worker solves in order.
            let leaseStart = max(now, info.leaseChainEnd ?? now)
            guard let (handedOut, leaseEnd) = tracked.values.modifyEntry(at: index, { entry -> (Job, ContinuousClock.Instant?)? in
                      guard case .queued = entry.state else { return nil }
                      entry.attempts += 1
                      let leaseEnd = Self.leaseBudget(of: entry.job, configuration).map { leaseStart + $0 }
                      entry.state = .assigned(worker: worker, at: position, since: now, leaseEnd: leaseEnd)
                      var job = entry.job
                      job.attempt = entry.attempts
                      return (job, leaseEnd)
                  })
            else { continue }
            if let leaseEnd { info.leaseChainEnd = leaseEnd }
            var job = handedOut
            if let key = configuration.key { job.lease = key.lease(for: job, to: info.identity) }
            info.sent.append(SentJob(job: id, position: position, at: now))
            info.sentSinceHeartbeat += 1
            info.credit = max(0, info.credit - 1)
            lastSource = job.source
            chunk.append(job)
            frameBytes += bytes
            if chunk.count >= perChunk { closeChunk() }
        }
        closeChunk()
        if !frame.isEmpty { actions.append(.send(to: worker, .jobs(frame))) }
        // Its entry in `idle` is left there, skipped when met: removing it would walk the list.
        if info.credit == 0 { info.idleTicket = nil }
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
                  case .assigned(let owner, _, _, _) = entry.state, owner == id,
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
            guard let job = worker.sent.contents.first(where: { isAssigned($0.job, to: id, at: $0.position) })?.job,
                  case .assigned(_, _, let since, let leaseEnd?)? = state(of: job), now > leaseEnd
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
        for entry in info.sent.contents where isAssigned(entry.job, to: id, at: entry.position) {
            requeue(entry.job, fault: entry.job == atFault ? fault : nil, now: now, &actions)
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
