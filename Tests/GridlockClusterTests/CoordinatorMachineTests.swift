// The coordinator's rules, without sockets: events in, actions out, on a clock the test moves.

import Testing
@testable import GridlockCluster
import GridlockWire

@Suite("Coordinator state machine")
struct CoordinatorMachineTests {
    static let t0 = ContinuousClock.now
    static let sink: [UInt8] = [9]
    static let worker: [UInt8] = [1]
    static let identity = WorkerIdentity(host: "w", pid: 1)

    static func job(_ id: Int, puzzle: String? = nil) -> ReadJob {
        ReadJob(job: Job(
            batch: "b", id: id, attempt: 0, kind: "rushhour", puzzle: puzzle ?? "puzzle \(id)", solver: "bfs",
            maxStates: 100, timeoutSeconds: nil, source: "f.txt:\(id + 1)", firstLine: id + 1))
    }

    /// A machine that has read `count` jobs (input ended) and heard the sink list `stored`.
    static func machine(jobs count: Int, stored: [StoredJob] = [], resumeChanged: Bool = false) -> CoordinatorMachine {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: WorkerIdentity(host: "c", pid: 0))
        configuration.resumeChanged = resumeChanged
        var machine = CoordinatorMachine(configuration: configuration)
        _ = machine.read((0..<count).map { job($0) }, ended: true, now: t0)
        _ = machine.receive(.sinkHello, from: sink, now: t0)
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: stored, complete: true), from: sink, now: t0)
        return machine
    }

    static func dispatched(_ actions: [CoordinatorMachine.Action]) -> [Job] {
        actions.flatMap { action -> [Job] in
            if case .send(_, .jobs(let jobs)) = action { return jobs }
            return []
        }
    }

    @Test("no job goes out before the sink's page says what is stored; then in order, as many as the credit")
    func waitsForTheSinkThenDispatchesByCredit() {
        var machine = CoordinatorMachine(configuration: .init(batch: "b", identity: Self.identity))
        _ = machine.read((0..<10).map { Self.job($0) }, ended: true, now: Self.t0)
        #expect(Self.dispatched(machine.receive(.ready(Self.identity, credit: 3), from: Self.worker, now: Self.t0)).isEmpty)
        let hello = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        #expect(hello.contains(.send(to: Self.sink, .storedQuery(batch: "b", from: 0, limit: WireProtocol.storedPageSize))))
        // A page from anyone but the sink is not believed.
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: [7], now: Self.t0)
        #expect(machine.progress.dropped.unexpected == 1)
        let page = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
        #expect(Self.dispatched(page).map(\.id) == [0, 1, 2])
    }

    @Test("a stored job with the same fingerprint is skipped; another fingerprint stops the batch naming its line")
    func resumeComparesFingerprints() {
        let same = StoredJob(job: 1, fingerprint: Self.job(1).job.fingerprint)
        var machine = Self.machine(jobs: 3, stored: [same])
        #expect(machine.progress.storedBefore == 1)
        let jobs = Self.dispatched(machine.receive(.ready(Self.identity, credit: 10), from: Self.worker, now: Self.t0))
        #expect(jobs.map(\.id) == [0, 2])

        var changed = CoordinatorMachine(configuration: .init(batch: "b", identity: Self.identity))
        _ = changed.read((0..<3).map { Self.job($0) }, ended: true, now: Self.t0)
        _ = changed.receive(.sinkHello, from: Self.sink, now: Self.t0)
        let other = StoredJob(job: 1, fingerprint: JobFingerprint(12_345))
        let actions = changed.receive(.storedPage(batch: "b", from: 0, jobs: [other], complete: true), from: Self.sink, now: Self.t0)
        let stop = actions.compactMap { action -> CoordinatorStop? in
            if case .stop(let reason) = action { return reason }
            return nil
        }
        #expect(stop.count == 1)
        #expect(stop.first?.description.contains("f.txt:2 differs") == true)
    }

    @Test("with resumeChanged a changed job is solved again and counted")
    func resumeChangedSolvesChangedJobs() {
        var machine = Self.machine(jobs: 2, stored: [StoredJob(job: 0, fingerprint: JobFingerprint(1))], resumeChanged: true)
        #expect(machine.progress.changed == 1)
        let jobs = Self.dispatched(machine.receive(.ready(Self.identity, credit: 10), from: Self.worker, now: Self.t0))
        #expect(jobs.map(\.id) == [0, 1])
    }

    @Test("only the sink's acknowledgement with the job's own fingerprint settles it; the last one completes the batch")
    func acknowledgementsMustMatch() {
        var machine = Self.machine(jobs: 1)
        let job = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0))[0]
        _ = machine.receive(.stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: job.fingerprint)]), from: [7], now: Self.t0)
        _ = machine.receive(.stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: JobFingerprint(3))]), from: Self.sink, now: Self.t0)
        #expect(machine.progress.stored == 0)
        let done = machine.receive(.stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: job.fingerprint)]), from: Self.sink, now: Self.t0)
        #expect(machine.progress.stored == 1)
        #expect(done.contains(.stop(.complete)))
    }

    @Test("a silent worker's jobs go to another; only the one it was running is charged an attempt")
    func silentWorkerLosesItsJobs() {
        var machine = Self.machine(jobs: 3)
        _ = machine.receive(.ready(Self.identity, credit: 3), from: Self.worker, now: Self.t0)
        _ = machine.receive(.heartbeat(Self.identity, jobs: [0, 1, 2]), from: Self.worker, now: Self.t0)
        let later = Self.t0.advanced(by: .seconds(5))
        _ = machine.tick(now: later)
        #expect(machine.progress.reissued == 3)
        let again = Self.dispatched(machine.receive(.ready(Self.identity, credit: 3), from: [2], now: later))
        #expect(Set(again.map(\.id)) == [0, 1, 2])
        #expect(again.first { $0.id == 0 }?.attempt == 2)
        #expect(again.first { $0.id == 1 }?.attempt == 1)
    }

    @Test("the read-ahead is bounded: the machine never asks for more than it may hold")
    func readAheadIsBounded() {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        configuration.readAhead = 8
        var machine = CoordinatorMachine(configuration: configuration)
        #expect(machine.wantedJobs == 8)
        _ = machine.read((0..<8).map { Self.job($0) }, ended: false, now: Self.t0)
        #expect(machine.wantedJobs == 0)
    }
}
