// The sink's rules, without sockets or a database: frames and the store's answers in, actions
// out, on a clock the test moves.

import Testing
@testable import GridlockCluster
import GridlockWire

@Suite("Sink state machine")
struct SinkMachineTests {
    static let t0 = ContinuousClock.now
    static let worker = WorkerIdentity(host: "w", pid: 1)

    /// A one-move board, its cluster size telling jobs apart, and its answer: the sink replays it.
    static func result(_ job: Int, batch: String = "b") -> JobResult {
        let asked = Job(
            batch: batch, id: job, attempt: 1, kind: .rushhour, puzzle: "01 ooooooooooooAAoooooooooooooooooooooo \(job + 1)",
            solver: "bfs", maxStates: 100, timeoutSeconds: nil, source: "f.txt:\(job + 1)", firstLine: job + 1)
        var result = JobResult(answering: asked, worker: worker, status: .solved)
        result.moves = 1
        result.expectedMoves = 1
        result.solution = "A right 4"
        return result
    }

    static func frame(_ results: [JobResult]) -> [[UInt8]] {
        [WireMessage.results(results).encoded()]
    }

    /// The actions but the operator's log lines.
    static func withoutLogs(_ actions: [SinkMachine.Action]) -> [SinkMachine.Action] {
        actions.filter { if case .log = $0 { false } else { true } }
    }

    static func stores(_ actions: [SinkMachine.Action]) -> [[JobResult]] {
        actions.compactMap { action in
            if case .store(let results) = action { return results }
            return nil
        }
    }

    @Test("with a key, only results carrying their job's lease are stored; the coordinator's asks need their tag")
    func keyedSinkDropsForgeries() {
        let key = ClusterKey.random()
        var machine = SinkMachine(key: key)
        var honest = Self.result(0)
        honest.lease = key.lease(answering: honest)
        var altered = honest
        altered.puzzle = "another puzzle"
        let unleased = Self.result(1)
        // A real lease, answered in another worker's name: the job was never leased to it.
        var impersonated = honest
        impersonated.worker = WorkerIdentity(host: "elsewhere", pid: honest.worker.pid)
        var later = Self.result(2)
        later.lease = key.lease(answering: later)
        // The forgeries among the honest results: the honest ones stay, in order.
        _ = machine.receiveResults(Self.frame([altered, honest, unleased, impersonated, later]), now: Self.t0)
        #expect(machine.counters.dropped.forged == 3)
        let stored = Self.stores(machine.finish())
        #expect(stored == [[honest, later]])

        let query = WireMessage.storedQuery(batch: "b", from: 0, limit: 10)
        #expect(Self.withoutLogs(machine.receiveFromCoordinator([query.encoded()], now: Self.t0)).isEmpty)
        #expect(Self.withoutLogs(machine.receiveFromCoordinator(query.frames(key: ClusterKey.random()), now: Self.t0)).isEmpty)
        #expect(machine.counters.dropped.forged == 5)
        #expect(machine.receiveFromCoordinator(query.frames(key: key), now: Self.t0) == [.readStored(batch: "b", from: 0, limit: 10)])
    }

    @Test("the sink greets the coordinator at once and then once per interval")
    func greetsOncePerInterval() {
        var machine = SinkMachine()
        #expect(machine.tick(now: Self.t0) == [.send(.sinkHello)])
        #expect(machine.tick(now: Self.t0.advanced(by: .milliseconds(999))).isEmpty)
        #expect(machine.tick(now: Self.t0.advanced(by: .seconds(1))) == [.send(.sinkHello)])
    }

    @Test("results wait for the window after the first, then are stored together, in order")
    func resultsWaitForTheWindow() {
        var machine = SinkMachine()
        _ = machine.tick(now: Self.t0)
        #expect(machine.receiveResults(Self.frame([Self.result(0)]), now: Self.t0).isEmpty)
        #expect(machine.holdsResults)
        #expect(!machine.storeIsDue(now: Self.t0.advanced(by: .milliseconds(19))))
        #expect(machine.timeout(now: Self.t0.advanced(by: .milliseconds(5))) == .milliseconds(15))
        #expect(machine.receiveResults(Self.frame([Self.result(1), Self.result(2)]), now: Self.t0.advanced(by: .milliseconds(10))).isEmpty)
        #expect(Self.stores(machine.tick(now: Self.t0.advanced(by: .milliseconds(19)))).isEmpty)
        let due = Self.t0.advanced(by: SinkMachine.storeWindow)
        #expect(machine.storeIsDue(now: due))
        #expect(Self.stores(machine.tick(now: due)).map { $0.map(\.job) } == [[0, 1, 2]])
        #expect(!machine.holdsResults)
        #expect(Self.stores(machine.tick(now: due.advanced(by: .seconds(1)))).isEmpty)
    }

    @Test("a full group is stored at once, without waiting for the window")
    func fullGroupIsStoredAtOnce() {
        var machine = SinkMachine()
        let group = (0..<SinkMachine.storeGroup).map { Self.result($0) }
        #expect(machine.receiveResults(Self.frame(Array(group.dropLast())), now: Self.t0).isEmpty)
        #expect(machine.wantsResults)
        let actions = machine.receiveResults(Self.frame([group.last!]), now: Self.t0)
        #expect(Self.stores(actions).map(\.count) == [SinkMachine.storeGroup])
    }

    @Test("acknowledgements follow the write, one frame per batch, each job as its row stands; duplicates counted")
    func acknowledgementsFollowTheWrite() {
        var machine = SinkMachine()
        let written = [Self.result(0, batch: "x"), Self.result(0, batch: "y"), Self.result(1, batch: "x")]
        // y's job 0 was stored before, cut off: the duplicate is acknowledged as that row.
        let earlier = StoredJob(job: 0, fingerprint: written[1].fingerprint, status: .cutoff, wrong: false)
        let rows = [StoredJob(storing: written[0]), earlier, StoredJob(storing: written[2])]
        let acks = machine.stored(written, as: ResultStore.Stored(rows: rows, inserted: 2))
        #expect(acks == [
            .send(.stored(batch: "x", jobs: [rows[0], rows[2]])),
            .send(.stored(batch: "y", jobs: [earlier])),
        ])
        #expect(machine.counters.stored == 2)
        #expect(machine.counters.duplicates == 1)
    }

    @Test("a query for stored jobs is read within bounds and answered with a page that says whether it is the last")
    func storedQueryIsAnsweredWithAPage() {
        var machine = SinkMachine()
        let huge = machine.receiveFromCoordinator([WireMessage.storedQuery(batch: "b", from: -5, limit: 1 << 40).encoded()], now: Self.t0)
        #expect(huge == [.readStored(batch: "b", from: 0, limit: WireProtocol.storedPageSize)])
        let tiny = machine.receiveFromCoordinator([WireMessage.storedQuery(batch: "b", from: 3, limit: 0).encoded()], now: Self.t0)
        #expect(tiny == [.readStored(batch: "b", from: 3, limit: 1)])
        let page = [StoredJob(job: 3, fingerprint: JobFingerprint(7))]
        #expect(machine.read(batch: "b", from: 3, limit: 2, page: page) == [.send(.storedPage(batch: "b", from: 3, jobs: page, complete: true))])
        #expect(machine.read(batch: "b", from: 3, limit: 1, page: page) == [.send(.storedPage(batch: "b", from: 3, jobs: page, complete: false))])
    }

    @Test("forget deletes from a job number that is never negative")
    func forgetIsBounded() {
        var machine = SinkMachine()
        #expect(machine.receiveFromCoordinator([WireMessage.forget(batch: "b", from: -1).encoded()], now: Self.t0) == [.forget(batch: "b", from: 0)])
        #expect(machine.receiveFromCoordinator([WireMessage.forget(batch: "b", from: 9).encoded()], now: Self.t0) == [.forget(batch: "b", from: 9)])
    }

    @Test("frames that do not decode, or are messages a sink never takes, are counted and dropped")
    func strayFramesAreDropped() {
        var machine = SinkMachine()
        #expect(Self.withoutLogs(machine.receiveResults([[0xFF]], now: Self.t0)).isEmpty)
        #expect(Self.withoutLogs(machine.receiveResults(Self.frame([Self.result(0)]) + [[1]], now: Self.t0)).isEmpty)
        #expect(Self.withoutLogs(machine.receiveResults([WireMessage.sinkHello.encoded()], now: Self.t0)).isEmpty)
        #expect(machine.counters.dropped.malformed == 3)
        // An empty group opens no window and stores nothing.
        #expect(machine.receiveResults(Self.frame([]), now: Self.t0).isEmpty)
        #expect(!machine.holdsResults)
        #expect(Self.withoutLogs(machine.receiveFromCoordinator([[0x00, 0x01]], now: Self.t0)).isEmpty)
        #expect(machine.counters.dropped.malformed == 4)
        #expect(Self.withoutLogs(machine.receiveFromCoordinator([WireMessage.drained.encoded()], now: Self.t0)).isEmpty)
        #expect(machine.counters.dropped.unexpected == 1)
    }

    static let machineRecord = MachineRecord(
        host: "w", cpuModel: "CPU", cores: 2, threads: 4, governor: nil, turbo: nil, kernel: "6.1", memoryBytes: 1 << 30, loadAverage: 0, method: "m")

    @Test("a worker's machine is recorded once per batch and host; with a key, only with the key's tag")
    func machinesRecordedOnce() {
        let key = ClusterKey.random()
        var machine = SinkMachine(key: key)
        let message = WireMessage.machine(batch: "b", Self.machineRecord)
        // Untagged, or tagged with another key: a peer without the cluster's key.
        #expect(Self.withoutLogs(machine.receiveResults([message.encoded()], now: Self.t0)).isEmpty)
        #expect(Self.withoutLogs(machine.receiveResults(message.frames(key: ClusterKey.random()), now: Self.t0)).isEmpty)
        #expect(machine.counters.dropped.forged == 2)
        #expect(machine.receiveResults(message.frames(key: key), now: Self.t0) == [.recordMachine(batch: "b", Self.machineRecord)])
        // Another worker of the same host, the same batch: one row is enough.
        #expect(machine.receiveResults(message.frames(key: key), now: Self.t0).isEmpty)
        let otherBatch = WireMessage.machine(batch: "c", Self.machineRecord)
        #expect(machine.receiveResults(otherBatch.frames(key: key), now: Self.t0) == [.recordMachine(batch: "c", Self.machineRecord)])
        // CURVE workers hold no key; the transport admitted them by theirs.
        var curve = SinkMachine(key: key, workersAdmittedByTransport: true)
        #expect(curve.receiveResults([message.encoded()], now: Self.t0) == [.recordMachine(batch: "b", Self.machineRecord)])
        // Without a key anything is believed, as results are.
        var open = SinkMachine()
        #expect(open.receiveResults([message.encoded()], now: Self.t0) == [.recordMachine(batch: "b", Self.machineRecord)])
        // A results frame with a second frame is still malformed.
        #expect(Self.withoutLogs(open.receiveResults(Self.frame([Self.result(0)]) + [[1]], now: Self.t0)).isEmpty)
        #expect(open.counters.dropped.malformed == 1)
    }

    @Test("a coordinator's record of its batch is kept; with a key, only with the coordinator's tag")
    func batchRecordKept() {
        let record = BatchRecord(
            batch: "b", started: "2026-11-26T19:00:00Z", host: "c", cores: 2, configuration: "release", revision: "r", solvers: "bfs@1", jobs: 0,
            limits: JobLimits(cpuSeconds: 1), wallLimitSeconds: nil)
        let key = ClusterKey.random()
        var machine = SinkMachine(key: key)
        let message = WireMessage.batchRecord(record)
        #expect(Self.withoutLogs(machine.receiveFromCoordinator([message.encoded()], now: Self.t0)).isEmpty)
        #expect(Self.withoutLogs(machine.receiveFromCoordinator(message.frames(key: ClusterKey.random()), now: Self.t0)).isEmpty)
        #expect(machine.counters.dropped.forged == 2)
        #expect(machine.receiveFromCoordinator(message.frames(key: key), now: Self.t0) == [.recordBatch(record)])
        // A worker's results socket is no place for it.
        var open = SinkMachine()
        #expect(Self.withoutLogs(open.receiveResults([message.encoded()], now: Self.t0)).isEmpty)
        #expect(open.counters.dropped.malformed == 1)
    }

    @Test("past the most machines a sink keeps, records are refused and counted, not written")
    func machinesBounded() {
        var machine = SinkMachine()
        var recorded = 0
        for host in 0...SinkMachine.maximumMachines {
            var record = Self.machineRecord
            record.host = "h\(host)"
            recorded += Self.withoutLogs(machine.receiveResults([WireMessage.machine(batch: "b", record).encoded()], now: Self.t0)).count
        }
        #expect(recorded == SinkMachine.maximumMachines)
        #expect(machine.counters.dropped.unexpected == 1)
    }

    @Test("stopping stores whatever still waits")
    func finishStoresWhatWaits() {
        var machine = SinkMachine()
        #expect(machine.finish().isEmpty)
        _ = machine.receiveResults(Self.frame([Self.result(4)]), now: Self.t0)
        #expect(Self.stores(machine.finish()).map { $0.map(\.job) } == [[4]])
    }

    @Test("the loop never sleeps past the next greeting")
    func timeoutStopsAtTheNextGreeting() {
        var machine = SinkMachine()
        _ = machine.tick(now: Self.t0)
        #expect(machine.timeout(now: Self.t0.advanced(by: .milliseconds(990))) == .milliseconds(10))
        #expect(machine.timeout(now: Self.t0.advanced(by: .seconds(2))) == .zero)
    }
}
