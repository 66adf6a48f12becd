// Quarantine: a worker whose jobs keep running out their lease, or whose answer the sink's
// replay refused, is given no more jobs (CoordinatorMachine+Quarantine.swift).

import Foundation
import Testing
@testable import GridlockCluster
import GridlockWire

@Suite("Coordinator quarantine")
struct CoordinatorQuarantineTests {
    typealias T = CoordinatorMachineTests
    static let liar = WorkerIdentity(host: "liar", pid: 1)
    static let honest = WorkerIdentity(host: "honest", pid: 2)
    static let liarID: [UInt8] = [1]
    static let honestID: [UInt8] = [2]

    /// `count` jobs with a time limit of 1 s (a lease of 3 s each), read, the sink heard.
    static func machine(jobs count: Int, keepsLastWorker: Bool = false, record: BatchRecord? = nil) -> CoordinatorMachine {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: WorkerIdentity(host: "c", pid: 0))
        configuration.keepsLastWorker = keepsLastWorker
        configuration.record = record
        var machine = CoordinatorMachine(configuration: configuration)
        let jobs = (0..<count).map { id -> ReadJob in
            var job = T.job(id)
            job.job.timeoutSeconds = 1
            return job
        }
        _ = machine.read(jobs, ended: true, now: T.t0)
        _ = machine.receive(.sinkHello, from: T.sink, now: T.t0)
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: T.sink, now: T.t0)
        return machine
    }

    static func at(_ offset: Duration) -> ContinuousClock.Instant { T.t0.advanced(by: offset) }

    /// The liar asks for `credit` jobs at `start` and heartbeats whatever it holds, finishing
    /// none, until `end`; returns every action.
    static func stall(_ machine: inout CoordinatorMachine, credit: Int, from start: Duration, to end: Duration) -> [CoordinatorMachine.Action] {
        var actions = machine.receive(.ready(liar, credit: credit), from: liarID, now: at(start))
        var held = T.dispatched(actions).map(\.id)
        var now = start
        while now <= end {
            actions += machine.receive(.heartbeat(liar, machine.held(by: liarID, held)), from: liarID, now: at(now))
            actions += machine.tick(now: at(now))
            // What it was told to give up (a lease ended) it drops, as a real worker would not.
            held.removeAll { !machine.isAssigned($0, to: liarID) }
            now += .milliseconds(250)
        }
        return actions
    }

    static func logs(_ actions: [CoordinatorMachine.Action]) -> [String] {
        actions.compactMap { if case .log(let line) = $0 { line } else { nil } }
    }

    @Test("a worker whose jobs run out their lease three times is quarantined: drained, no more jobs, named, counted; the job that tipped it is not charged")
    func repeatedLeaseEndsQuarantine() {
        var machine = Self.machine(jobs: 2)
        // One job at a time, the same one back each time: leases end at 3, 6.5 and 10 s.
        var actions = Self.stall(&machine, credit: 1, from: .zero, to: .milliseconds(3_250))
        actions += Self.stall(&machine, credit: 1, from: .milliseconds(3_500), to: .milliseconds(6_750))
        #expect(machine.progress.quarantined == 0)
        actions += Self.stall(&machine, credit: 1, from: .milliseconds(7_000), to: .milliseconds(10_250))
        #expect(machine.progress.quarantined == 1)
        #expect(Self.logs(actions).contains { $0.contains("quarantined worker liar:1") && $0.contains("3 jobs held past their lease") })
        #expect(actions.contains(.send(to: Self.liarID, .drained)))
        // Asking again, under its name or on a new connection, gets it nothing but "drained".
        let asked = machine.receive(.ready(Self.liar, credit: 4), from: [7], now: Self.at(.milliseconds(10_500)))
        #expect(T.dispatched(asked).isEmpty && asked.contains(.send(to: [7], .drained)))
        // Job 0 was held three times, charged twice: an honest worker gets its third attempt.
        let handed = T.dispatched(machine.receive(.ready(Self.honest, credit: 2), from: Self.honestID, now: Self.at(.milliseconds(10_500))))
        #expect(handed.map(\.id).sorted() == [0, 1])
        #expect(handed.first { $0.id == 0 }?.attempt == 3)
        #expect(machine.progress.failed == 0)
    }

    @Test("a job that runs out its lease on two workers is poison: its strikes are taken back")
    func poisonJobStrikesNoOne() {
        var machine = Self.machine(jobs: 3)
        // The liar stalls job 0 twice (two strikes), then an honest worker stalls it too.
        _ = Self.stall(&machine, credit: 1, from: .zero, to: .milliseconds(3_250))
        _ = Self.stall(&machine, credit: 1, from: .milliseconds(3_500), to: .milliseconds(6_750))
        #expect(machine.quarantine.strikes[Self.liar] == 2)
        let handed = T.dispatched(machine.receive(.ready(Self.honest, credit: 1), from: Self.honestID, now: Self.at(.seconds(7))))
        #expect(handed.map(\.id) == [0])
        var now = Duration.seconds(7)
        while now <= .milliseconds(10_250) {
            _ = machine.receive(.heartbeat(Self.honest, machine.held(by: Self.honestID, [0])), from: Self.honestID, now: Self.at(now))
            _ = machine.tick(now: Self.at(now))
            now += .milliseconds(250)
        }
        #expect(machine.quarantine.strikes.isEmpty, "\(machine.quarantine.strikes)")
        // So one more stall of another job is the liar's first strike again, not its third.
        _ = Self.stall(&machine, credit: 1, from: .milliseconds(10_500), to: .milliseconds(13_750))
        #expect(machine.progress.quarantined == 0)
        #expect(machine.quarantine.strikes[Self.liar] == 1)
    }

    @Test("a worker whose answer the sink's replay refused is quarantined at once, and the batch's record says so")
    func refutedAnswerQuarantines() {
        let record = BatchRecord(
            batch: "b", started: "2026-12-03T00:00:00Z", host: "h", cores: 2, configuration: "debug", revision: "r", solvers: "bfs@1", jobs: 0,
            limits: JobLimits(), wallLimitSeconds: nil,
            recipe: BatchRecipe(options: [], files: [], outsideSolvers: [], workers: 0, pinning: nil, paired: false, repeats: 1, loadAtStart: 0))
        var machine = Self.machine(jobs: 3, record: record)
        let first = T.dispatched(machine.receive(.ready(Self.liar, credit: 2), from: Self.liarID, now: T.t0))
        #expect(first.map(\.id) == [0, 1])
        _ = machine.receive(.heartbeat(Self.liar, machine.held(by: Self.liarID, [1])), from: Self.liarID, now: Self.at(.seconds(2)))
        let fingerprint = first[0].fingerprint
        let acknowledged = machine.receive(
            .stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: fingerprint, status: .solved, wrong: true, refutedWorker: Self.liar)]),
            from: T.sink, now: Self.at(.seconds(2)))
        #expect(machine.progress.refuted == 1 && machine.progress.quarantined == 1)
        #expect(machine.progress.stored == 1, "its answer is stored, as wrong")
        #expect(Self.logs(acknowledged).contains { $0.contains("quarantined worker liar:1: the sink's replay refused its answer to job 0") })
        // The sink hears of it at the next tick, once for every quarantine since the last.
        let ticked = machine.tick(now: Self.at(.seconds(2)))
        let recorded = ticked.compactMap { action -> BatchRecord? in
            if case .send(T.sink, .batchRecord(let record)) = action { record } else { nil }
        }
        #expect(recorded.first?.recipe?.quarantined == ["liar:1 (the sink's replay refused its answer to job 0)"])
        #expect(recorded.first?.jobs == 0, "mid-batch, the total is not yet known")
        // The job it still held is handed to another worker, with no attempt charged.
        let handed = T.dispatched(machine.receive(.ready(Self.honest, credit: 4), from: Self.honestID, now: Self.at(.seconds(2))))
        #expect(handed.map(\.id).sorted() == [1, 2])
        #expect(handed.first { $0.id == 1 }?.attempt == 1)
        // Its heartbeats no longer bring it back.
        _ = machine.receive(.heartbeat(Self.liar, machine.held(by: Self.liarID, [])), from: Self.liarID, now: Self.at(.seconds(3)))
        #expect(machine.workers[Self.liarID] == nil)
    }

    @Test("a local batch never quarantines its last worker: it warns instead; with another one left, it does")
    func lastLocalWorkerIsKept() {
        for (keeps, another) in [(true, false), (false, false), (true, true)] {
            var machine = Self.machine(jobs: 3, keepsLastWorker: keeps)
            if another { _ = machine.receive(.ready(Self.honest, credit: 1), from: Self.honestID, now: T.t0) }
            _ = T.dispatched(machine.receive(.ready(Self.liar, credit: 1), from: Self.liarID, now: T.t0))
            let actions = machine.receive(
                .stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: T.job(0).job.fingerprint, status: .solved, wrong: true, refutedWorker: Self.liar)]),
                from: T.sink, now: Self.at(.seconds(1)))
            let kept = keeps && !another
            #expect(machine.progress.quarantined == (kept ? 0 : 1))
            #expect(Self.logs(actions).contains { $0.contains("it is this batch's last worker") } == kept)
            let asked = T.dispatched(machine.receive(.ready(Self.liar, credit: 1), from: Self.liarID, now: Self.at(.seconds(1))))
            #expect(asked.isEmpty == !kept)
        }
    }

    /// Heartbeats from the liar listing `listed` at each 250 ms from `start` to `end`, ticking.
    static func beat(_ machine: inout CoordinatorMachine, _ listed: [Int], from start: Duration, to end: Duration) {
        var now = start
        while now <= end {
            _ = machine.receive(.heartbeat(liar, machine.held(by: liarID, listed)), from: liarID, now: at(now))
            _ = machine.tick(now: at(now))
            now += .milliseconds(250)
        }
    }

    @Test("a lease that ends on the job the worker says it runs is a strike; one that ends while it says it runs another is not, though the job goes back")
    func strikesNeedTheRunningJob() {
        for runsIt in [true, false] {
            var machine = Self.machine(jobs: 2)
            _ = machine.receive(.ready(Self.liar, credit: 1), from: Self.liarID, now: T.t0)
            // A job it was never given first for a second, so the job's own clock starts late
            // and only its lease (3 s from the hand-over) can end it.
            Self.beat(&machine, [999, 0], from: .zero, to: .milliseconds(750))
            Self.beat(&machine, runsIt ? [0] : [999, 0], from: .seconds(1), to: .milliseconds(3_250))
            #expect(machine.progress.reissued == 1, "\(runsIt)")
            #expect(machine.quarantine.strikes[Self.liar] == (runsIt ? 1 : nil), "\(runsIt): \(machine.quarantine.strikes)")
        }
    }

    @Test("a connection that changes its name is refused: a worker cannot shed its strikes, or a quarantine, by renaming itself")
    func renamingIsRefused() {
        var machine = Self.machine(jobs: 3)
        _ = machine.receive(.ready(Self.liar, credit: 1), from: Self.liarID, now: T.t0)
        let renamed = WorkerIdentity(host: "liar", pid: 2)
        #expect(T.dispatched(machine.receive(.ready(renamed, credit: 1), from: Self.liarID, now: T.t0)).isEmpty)
        _ = machine.receive(.heartbeat(renamed, machine.held(by: Self.liarID, [])), from: Self.liarID, now: T.t0)
        #expect(machine.progress.dropped.unexpected == 2)
        // Quarantined, its connection stays refused under any name.
        _ = machine.receive(
            .stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: T.job(0).job.fingerprint, status: .solved, wrong: true, refutedWorker: Self.liar)]),
            from: T.sink, now: T.t0)
        let asked = machine.receive(.ready(renamed, credit: 1), from: Self.liarID, now: T.t0)
        #expect(T.dispatched(asked).isEmpty && asked.contains(.send(to: Self.liarID, .drained)))
    }

    @Test("once the replay refuses one solver's answers from two workers, the solver is at fault: no more quarantines for it, said once")
    func refusedSolverStopsQuarantines() {
        var machine = Self.machine(jobs: 4)
        let third = WorkerIdentity(host: "third", pid: 3)
        var actions: [CoordinatorMachine.Action] = []
        for (job, worker) in [(0, Self.liar), (1, Self.honest), (2, third)] {
            actions += machine.receive(
                .stored(batch: "b", jobs: [StoredJob(job: job, fingerprint: T.job(job).job.fingerprint, status: .solved, wrong: true, refutedWorker: worker)]),
                from: T.sink, now: T.t0)
        }
        #expect(machine.progress.refuted == 3 && machine.progress.quarantined == 1)
        #expect(machine.quarantine.contains(Self.liar) && !machine.quarantine.contains(Self.honest))
        #expect(Self.logs(actions).filter { $0.contains("the solver or the replay is at fault") }.count == 1)
    }

    @Test("the sink keeps the quarantined workers in the batch's recipe: a resumed batch adds to the list, never past its bound")
    func storeKeepsTheList() throws {
        let store = try ResultStore(path: ResultColumnTests.temporaryPath())
        let record = BatchRecord(
            batch: "b", started: "2026-12-03T00:00:00Z", host: "h", cores: 2, configuration: "debug", revision: "r", solvers: "bfs@1", jobs: 0,
            limits: JobLimits(), wallLimitSeconds: nil,
            recipe: BatchRecipe(options: [], files: [], outsideSolvers: [], workers: 0, pinning: nil, paired: false, repeats: 1, loadAtStart: 0))
        try store.record(record)
        try store.recordQuarantined(batch: "b", ["a:1 (x)"])
        try store.recordQuarantined(batch: "b", ["a:1 (x)", "b:2 (y)"])
        #expect(try store.batches().first?.recipe?.quarantined == ["a:1 (x)", "b:2 (y)"])
        try store.recordQuarantined(batch: "b", (0..<100).map { "w:\($0) (z)" })
        #expect(try store.batches().first?.recipe?.quarantined?.count == BatchRecipe.maximumQuarantined)
        // A batch that is not there is left alone.
        try store.recordQuarantined(batch: "nosuch", ["c:3 (z)"])
        #expect(try store.batches().count == 1)
    }

    @Test("a quarantine line is cut to the wire's bound on a name, on a character's edge")
    func recordedLinesAreBounded() {
        let long = String(repeating: "é", count: 300)
        let cut = WorkerQuarantine.bounded(long)
        #expect(cut.utf8.count <= WireProtocol.maximumNameBytes && cut.hasSuffix("...") && cut.hasPrefix("éé"))
        #expect(WorkerQuarantine.bounded("short") == "short")
    }
}
