// Checking each job read against what the sink already stores, a page at a time (see the
// header of CoordinatorMachine.swift).

import GridlockWire

/// The sink's connection and the page of stored jobs being compared with the input.
struct ResumeCheck {
    /// The routing id of the sink's connection: the only peer whose `stored` and pages count.
    var sink: [UInt8]?
    var lastHeard: ContinuousClock.Instant?
    var page = FIFO<StoredJob>()
    /// No stored job is numbered above the page's last.
    var complete = false
    /// The query sent and not yet answered.
    var outstanding: Int?
    /// Whether the stored batch was checked for jobs beyond the input's end.
    var endChecked = false

    mutating func sinkSaidHello(_ sender: [UInt8], batch: String, now: ContinuousClock.Instant, _ actions: inout [CoordinatorMachine.Action]) {
        lastHeard = now
        guard sender != sink else { return }
        // A new connection: a restarted sink. A query the old one never answered is asked again.
        sink = sender
        if let from = outstanding {
            actions.append(.send(to: sender, .storedQuery(batch: batch, from: from, limit: WireProtocol.storedPageSize)))
        }
    }

    /// Takes a page if it answers the query outstanding, in order; false otherwise.
    mutating func accept(from: Int, jobs: [StoredJob], complete: Bool) -> Bool {
        guard outstanding == from, jobs.count <= WireProtocol.storedPageSize else { return false }
        var previous = from - 1
        for stored in jobs {
            guard stored.job > previous else { return false }
            previous = stored.job
        }
        for stored in jobs { page.append(stored) }
        self.complete = complete || jobs.isEmpty
        outstanding = nil
        return true
    }

    mutating func request(from: Int, batch: String, _ actions: inout [CoordinatorMachine.Action]) {
        guard outstanding == nil else { return }
        outstanding = from
        if let sink { actions.append(.send(to: sink, .storedQuery(batch: batch, from: from, limit: WireProtocol.storedPageSize))) }
    }
}

extension CoordinatorMachine {
    /// Moves read jobs whose stored state is known on to the queue.
    mutating func verify(now: ContinuousClock.Instant, _ actions: inout [Action]) {
        while let item = unverified.first {
            let id = item.id
            while let head = resume.page.first, head.job < id { _ = resume.page.popFirst() }
            if let head = resume.page.first, head.job == id {
                _ = resume.page.popFirst()
                if head.fingerprint == item.fingerprint {
                    progress.storedBefore += 1
                    progress.tally.add(head)
                    _ = unverified.popFirst()
                    continue
                }
                guard configuration.resumeChanged else {
                    stop(.inputChanged("""
                        \(item.job.source) differs from what batch \(configuration.batch) stored as job \(id) \
                        (\(item.job.solver)): the input changed since the batch ran. Pass --resume-changed to keep \
                        the rows that still match and solve the rest, or give the batch a new name.
                        """), &actions)
                    return
                }
                progress.changed += 1
            } else if resume.page.isEmpty, !resume.complete {
                resume.request(from: id, batch: configuration.batch, &actions)
                return
            }
            _ = unverified.popFirst()
            enqueue(item, now: now, &actions)
        }
        guard inputEnded, !resume.endChecked else { return }
        let total = progress.read
        if let beyond = resume.page.first, beyond.job >= total {
            guard configuration.resumeChanged else {
                stop(.inputChanged("""
                    the input has \(total) jobs but batch \(configuration.batch) stored job \(beyond.job): the input \
                    got shorter since the batch ran. Pass --resume-changed to keep the rows that still match and \
                    drop the rest, or give the batch a new name.
                    """), &actions)
                return
            }
            if let sink = resume.sink { actions.append(.send(to: sink, .forget(batch: configuration.batch, from: total))) }
            resume.endChecked = true
        } else if resume.complete {
            resume.endChecked = true
        } else {
            resume.request(from: total, batch: configuration.batch, &actions)
        }
    }

    /// A checked job: queued for a worker, or reported invalid at once when it could not be read.
    mutating func enqueue(_ item: ReadJob, now: ContinuousClock.Instant, _ actions: inout [Action]) {
        let id = item.id
        guard let reason = item.unreadable else {
            tracked[id] = Tracked(item, state: .queued)
            queued.append(id)
            return
        }
        var result = JobResult(answering: item.job, worker: configuration.identity, status: .invalid)
        result.error = reason
        result = signed(result)
        tracked[id] = Tracked(item, state: .queued)
        markReported(id, result, now: now)
        actions.append(.sendResults(.results([result])))
    }

    mutating func stop(_ reason: CoordinatorStop, _ actions: inout [Action]) {
        stopped = true
        actions.append(.stop(reason))
    }
}
