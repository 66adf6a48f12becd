// Workers given no more jobs: one whose answer the sink's replay refused (it called a wrong
// answer right: a liar, or broken past trusting), or whose jobs ran out their lease
// `quarantineAfterLeaseEnds` times (it holds jobs and finishes none). A lease bounds each
// stall; the quarantine stops the same worker stalling job after job.
//
// Each lease end is a strike, but a job that runs out its lease on two workers is poison, not
// theirs to answer for: its strikes are taken back. The stall that quarantines a worker costs
// its job no attempt, so a liar that takes the same job again and again fails no job. A quarantined worker is told the batch is drained
// (an honest one stops asking; a batch's own worker exits), its asks and heartbeats are
// answered with that and nothing else, and the jobs it held go back in line uncharged. The
// operator is warned, naming it, and the batch's record lists it (`report`, the batches table).
//
// A local batch's workers are its own children: quarantining the last one would leave the
// batch waiting for a worker that never comes, so it is kept, with a warning
// (`keepsLastWorker`). A cluster's coordinator waits instead: more workers can connect.
//
// Workers are known by the identity they give (host and process), bound to their connection: a
// connection that changes its name is refused, and a quarantined worker's connections stay
// refused under any name. With a key, a job's lease names the worker it was given to, so the
// identity the sink names is the one that took the job. A worker holding a shared key
// (`--key-file`) can make leases in any name, and so could have another quarantined: CURVE keys
// keep the lease key from workers.
//
// A strike needs the worker to say it runs the job whose lease ended: an honest worker still on
// a job taken back from it (a job without a limit past --lease-limit, a coordinator suspended
// for a while) has the next one's lease end while it says it runs the first, and is not struck
// for it again. Refusals have a poison rule too: once the replay refuses the answers of one
// solver from two workers, the fault is the solver's (or the replay's), and no more workers are
// quarantined for it; the answers are stored wrong all the same.

import GridlockWire

struct WorkerQuarantine {
    /// Lease ends counted against each worker not yet quarantined.
    var strikes: [WorkerIdentity: Int] = [:]
    /// The connections of the workers quarantined: refused whatever name they give next.
    var connections: Set<[UInt8]> = []
    /// The workers whose answers the replay refused, by solver; and the solvers found at fault.
    var refutedBySolver: [String: WorkerIdentity] = [:]
    var suspectSolvers: Set<String> = []
    /// Lines for the operator, a few a minute; and whether the sink's record is behind.
    var lines = LineBudget()
    var recordPending = false
    /// The most workers, strikes and connections kept: past them, a flood of names (possible
    /// only with the shared key or without keys) costs no more memory.
    static let maximumEntries = 4_096
    /// The workers quarantined, and why, in the order they were.
    private(set) var reasons: [WorkerIdentity: String] = [:]
    private(set) var order: [WorkerIdentity] = []
    /// Workers kept though they earned quarantine (the batch's last), warned of once each.
    var kept: Set<WorkerIdentity> = []

    func contains(_ worker: WorkerIdentity) -> Bool { reasons[worker] != nil }

    mutating func add(_ worker: WorkerIdentity, reason: String, connections ids: [[UInt8]]) {
        if connections.count < Self.maximumEntries { connections.formUnion(ids.prefix(Self.maximumEntries - connections.count)) }
        strikes[worker] = nil
        guard reasons.count < Self.maximumEntries, reasons.updateValue(reason, forKey: worker) == nil else { return }
        order.append(worker)
    }

    /// The batch record's list: "host:pid (why)", each within the wire's bound on a name, the
    /// first `BatchRecipe.maximumQuarantined`.
    var recorded: [String] {
        order.prefix(BatchRecipe.maximumQuarantined).map { Self.bounded("\($0) (\(reasons[$0]!))") }
    }

    /// Cut to the wire's bound on a name, whole characters only.
    static func bounded(_ text: String, bytes: Int = WireProtocol.maximumNameBytes) -> String {
        guard text.utf8.count > bytes else { return text }
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let size = String(scalar).utf8.count
            guard used + size <= bytes - 3 else { break }
            kept.append(scalar)
            used += size
        }
        return String(kept) + "..."
    }
}

extension CoordinatorMachine {
    /// A job ran out its lease (or overran) on `worker`, whose connection is `id`: a strike.
    /// Once a job has done so on two workers it is poison, not theirs to answer for: the
    /// strikes it gave are taken back, and it gives no more. True when the worker is
    /// quarantined now, its jobs (this one too) back in line uncharged.
    mutating func strike(
        _ worker: WorkerIdentity, id: [UInt8], job: Int, running: Int?, now: ContinuousClock.Instant, _ actions: inout [Action]
    ) -> Bool {
        guard let limit = configuration.quarantineAfterLeaseEnds, !quarantine.contains(worker), running == job,
              let index = tracked.index(forKey: job)
        else { return false }
        // The workers it stalled on before, one entry a strike; nil once it is poison.
        let before = tracked.values.modifyEntry(at: index) { entry -> [WorkerIdentity]? in
            guard Set(entry.stalledOn).count < 2 else { return nil }
            defer { entry.stalledOn.append(worker) }
            return entry.stalledOn
        }
        guard let before else { return false }
        if let other = before.first, other != worker {
            for struck in before {
                if let strikes = quarantine.strikes[struck] { quarantine.strikes[struck] = strikes > 1 ? strikes - 1 : nil }
            }
            return false
        }
        guard quarantine.strikes[worker] != nil || quarantine.strikes.count < WorkerQuarantine.maximumEntries else { return false }
        let strikes = quarantine.strikes[worker, default: 0] + 1
        quarantine.strikes[worker] = strikes
        guard strikes >= limit else { return false }
        return isolate(worker, reason: "\(strikes) jobs held past their lease", ids: [id], now: now, &actions)
    }

    /// The sink's replay refused an answer `worker` called right, to `job` (still tracked: its
    /// solver is known; a late duplicate's is not, and counts as a solver of its own).
    mutating func refuted(_ worker: WorkerIdentity, job: Int, now: ContinuousClock.Instant, _ actions: inout [Action]) {
        progress.refuted += 1
        guard !quarantine.contains(worker) else { return }
        let solver = tracked.index(forKey: job).map { tracked.values[$0].job.solver } ?? ""
        if let other = quarantine.refutedBySolver[solver], other != worker {
            if quarantine.suspectSolvers.insert(solver).inserted {
                actions.append(.log("the sink's replay refused answers of solver \(solver.isEmpty ? "(unknown)" : solver) from two workers, \(other) and \(worker): the solver or the replay is at fault, not a lying worker, so no more workers are quarantined for its answers (they are stored wrong all the same)"))
            }
            return
        }
        guard !quarantine.suspectSolvers.contains(solver) else { return }
        if quarantine.refutedBySolver.count < WorkerQuarantine.maximumEntries { quarantine.refutedBySolver[solver] = worker }
        _ = isolate(worker, reason: "the sink's replay refused its answer to job \(job)", ids: [], now: now, &actions)
    }

    /// Gives `worker` no more jobs: the ones it holds go back in line, and each of its
    /// connections (those known, and `ids`) is told the batch is drained. False when it is
    /// kept as the batch's last worker.
    mutating func isolate(_ worker: WorkerIdentity, reason: String, ids: [[UInt8]], now: ContinuousClock.Instant, _ actions: inout [Action]) -> Bool {
        let connections = workers.filter { $0.value.identity == worker }.map(\.key)
        if configuration.keepsLastWorker, !workers.values.contains(where: { $0.identity != worker && !quarantine.contains($0.identity) }) {
            if quarantine.kept.insert(worker).inserted {
                actions.append(.log("worker \(worker) is not quarantined though it earned it (\(reason)): it is this batch's last worker"))
            }
            return false
        }
        let all = Set(connections + ids).sorted(by: { $0.lexicographicallyPrecedes($1) })
        quarantine.add(worker, reason: reason, connections: all)
        progress.quarantined += 1
        if let earlier = quarantine.lines.admit(now: now) {
            actions.append(.log("quarantined worker \(worker): \(reason); it is given no more jobs".printable + earlier))
        }
        for id in connections { forget(id, fault: nil, now: now, &actions) }
        for id in all { actions.append(.send(to: id, .drained)) }
        // The record kept by the sink lists it at the next tick: a batch that never ends still
        // says so, and a flood of quarantines sends one record a tick.
        quarantine.recordPending = true
        return true
    }

    /// Whether a worker's word is to be answered only with "drained".
    func isQuarantined(_ worker: WorkerIdentity, sender: [UInt8]) -> Bool {
        quarantine.contains(worker) || quarantine.connections.contains(sender)
    }

    /// Sends the sink the record with the workers quarantined since the last tick.
    mutating func sendPendingRecord(_ actions: inout [Action]) {
        guard quarantine.recordPending, let record = currentRecord(), let sink = resume.sink else { return }
        quarantine.recordPending = false
        actions.append(.send(to: sink, .batchRecord(record)))
    }

    /// The batch's record with the workers quarantined so far, and its number of jobs once
    /// they are all stored (`complete`; 0 before, which the sink takes as not yet known).
    func currentRecord(complete: Bool = false) -> BatchRecord? {
        guard var record = configuration.record else { return nil }
        if complete { record.jobs = progress.read }
        if !quarantine.order.isEmpty { record.recipe?.quarantined = quarantine.recorded }
        return record
    }
}
