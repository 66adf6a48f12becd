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
            batch: "b", id: id, attempt: 0, kind: .rushhour, puzzle: puzzle ?? "puzzle \(id)", solver: "bfs",
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

    /// The actions but the operator's log lines.
    static func withoutLogs(_ actions: [CoordinatorMachine.Action]) -> [CoordinatorMachine.Action] {
        actions.filter { if case .log = $0 { false } else { true } }
    }

    static func dispatched(_ actions: [CoordinatorMachine.Action]) -> [Job] {
        actions.flatMap { action -> [Job] in
            if case .send(_, .jobs(let chunks)) = action { return chunks.flatMap(\.jobs) }
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

    @Test("the sink hears of the batch when the coordinator first hears it (again after a restart), and its number of jobs at the end")
    func batchRecordSent() {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        let record = BatchRecord(
            batch: "b", started: "t", host: "c", cores: 2, configuration: "release", revision: "r", solvers: "bfs@1", jobs: 0,
            limits: JobLimits(cpuSeconds: 1), wallLimitSeconds: 30)
        configuration.record = record
        var machine = CoordinatorMachine(configuration: configuration)
        _ = machine.read((0..<2).map { Self.job($0) }, ended: true, now: Self.t0)
        #expect(machine.receive(.sinkHello, from: Self.sink, now: Self.t0).contains(.send(to: Self.sink, .batchRecord(record))))
        // The same sink again: nothing new to say.
        #expect(!machine.receive(.sinkHello, from: Self.sink, now: Self.t0).contains { if case .send(_, .batchRecord) = $0 { true } else { false } })
        // A restarted sink (a new connection) hears it again.
        let restarted: [UInt8] = [8]
        #expect(machine.receive(.sinkHello, from: restarted, now: Self.t0).contains(.send(to: restarted, .batchRecord(record))))
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: restarted, now: Self.t0)
        let jobs = Self.dispatched(machine.receive(.ready(Self.identity, credit: 2), from: Self.worker, now: Self.t0))
        #expect(jobs.count == 2)
        let stored = machine.receive(.stored(batch: "b", jobs: jobs.map { StoredJob(job: $0.id, fingerprint: $0.fingerprint) }), from: restarted, now: Self.t0)
        var final = record
        final.jobs = 2
        #expect(stored.contains(.send(to: restarted, .batchRecord(final))) && stored.contains(.stop(.complete)), "\(stored)")
        // A worker that sends one is refused.
        #expect(Self.withoutLogs(machine.receive(.batchRecord(record), from: Self.worker, now: Self.t0)).isEmpty)
    }

    @Test("the sink's word that it stopped stops the batch with its reason; the same words from another peer do not")
    func sinkStoppedStopsTheBatch() {
        var machine = Self.machine(jobs: 3)
        #expect(Self.withoutLogs(machine.receive(.sinkStopped(reason: "disk full"), from: [7], now: Self.t0)).isEmpty)
        #expect(machine.progress.dropped.unexpected == 1)
        let actions = machine.receive(.sinkStopped(reason: "disk full"), from: Self.sink, now: Self.t0)
        #expect(actions == [.stop(.sinkStopped("disk full"))])
        // Stopped: nothing more goes out.
        #expect(Self.dispatched(machine.receive(.ready(Self.identity, credit: 3), from: Self.worker, now: Self.t0)).isEmpty)
    }

    @Test("with CURVE, a worker admitted by the transport asks untagged and gets leased jobs; the sink's words still need their tag")
    func curveAdmittedWorkers() {
        let key = ClusterKey.random()
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        configuration.key = key
        configuration.workersAdmittedByTransport = true
        var machine = CoordinatorMachine(configuration: configuration)
        _ = machine.read((0..<2).map { Self.job($0) }, ended: true, now: Self.t0)
        // An admitted worker cannot pose as the sink: its hello has no tag.
        #expect(Self.withoutLogs(machine.receive([Self.worker, WireMessage.sinkHello.encoded()], now: Self.t0)).isEmpty)
        #expect(machine.progress.dropped.forged == 1)
        _ = machine.receive([Self.sink] + WireMessage.sinkHello.frames(key: key), now: Self.t0)
        _ = machine.receive([Self.sink] + WireMessage.storedPage(batch: "b", from: 0, jobs: [], complete: true).frames(key: key), now: Self.t0)
        let jobs = Self.dispatched(machine.receive([Self.worker, WireMessage.ready(Self.identity, credit: 3).encoded()], now: Self.t0))
        #expect(jobs.map(\.id) == [0, 1])
        #expect(jobs.allSatisfy { $0.lease == key.lease(for: $0, to: Self.identity) && $0.lease != 0 })
        #expect(machine.progress.dropped.forged == 1)
    }

    @Test("with a key, jobs go out with their lease, only to a worker whose asks carry the tag, and the sink's words count only with their tag")
    func keyedCoordinator() {
        let key = ClusterKey.random()
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        configuration.key = key
        var machine = CoordinatorMachine(configuration: configuration)
        _ = machine.read((0..<3).map { Self.job($0) }, ended: true, now: Self.t0)
        // Untagged or wrongly tagged, the hello and the page are forgeries: nothing goes out.
        let hello = WireMessage.sinkHello
        #expect(Self.withoutLogs(machine.receive([Self.sink, hello.encoded()], now: Self.t0)).isEmpty)
        #expect(Self.withoutLogs(machine.receive([Self.sink] + hello.frames(key: ClusterKey.random()), now: Self.t0)).isEmpty)
        #expect(machine.progress.dropped.forged == 2)
        _ = machine.receive([Self.sink] + hello.frames(key: key), now: Self.t0)
        _ = machine.receive([Self.sink] + WireMessage.storedPage(batch: "b", from: 0, jobs: [], complete: true).frames(key: key), now: Self.t0)
        // A worker without the key asks in vain, untagged or tagged with another key.
        let ready = WireMessage.ready(Self.identity, credit: 3)
        #expect(Self.dispatched(machine.receive([Self.worker, ready.encoded()], now: Self.t0)).isEmpty)
        #expect(Self.dispatched(machine.receive([Self.worker] + ready.frames(key: ClusterKey.random()), now: Self.t0)).isEmpty)
        let heartbeat = WireMessage.heartbeat(Self.identity, .nothing)
        #expect(Self.withoutLogs(machine.receive([Self.worker, heartbeat.encoded()], now: Self.t0)).isEmpty)
        #expect(machine.progress.dropped.forged == 5)
        // Nor is it known: it does not hear `alive`.
        #expect(!machine.tick(now: Self.t0).contains(.send(to: Self.worker, .alive)))
        let jobs = Self.dispatched(machine.receive([Self.worker] + ready.frames(key: key), now: Self.t0))
        #expect(jobs.map(\.id) == [0, 1, 2])
        #expect(jobs.allSatisfy { $0.lease == key.lease(for: $0, to: Self.identity) && $0.lease != 0 })
        // A forged acknowledgement settles nothing; the sink's own does.
        let stored = WireMessage.stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: jobs[0].fingerprint)])
        _ = machine.receive([Self.sink, stored.encoded()], now: Self.t0)
        #expect(machine.progress.stored == 0)
        _ = machine.receive([Self.sink] + stored.frames(key: key), now: Self.t0)
        #expect(machine.progress.stored == 1)
    }

    @Test("every known worker hears `alive` once a second, busy or idle; nobody else does")
    func workersHearTheCoordinator() {
        var machine = Self.machine(jobs: 1)
        _ = machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0)
        _ = machine.receive(.ready(WorkerIdentity(host: "w2", pid: 2), credit: 1), from: [2], now: Self.t0)
        let alive = { (actions: [CoordinatorMachine.Action]) in
            actions.compactMap { action -> [UInt8]? in
                if case .send(let peer, .alive) = action { return peer }
                return nil
            }
        }
        #expect(alive(machine.tick(now: Self.t0)) == [Self.worker, [2]])
        #expect(alive(machine.tick(now: Self.t0.advanced(by: .milliseconds(500)))).isEmpty)
        #expect(alive(machine.tick(now: Self.t0.advanced(by: .milliseconds(1_000)))) == [Self.worker, [2]])
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
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [0, 1, 2])), from: Self.worker, now: Self.t0)
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

    static func sentResults(_ actions: [CoordinatorMachine.Action]) -> [JobResult] {
        actions.flatMap { action -> [JobResult] in
            if case .sendResults(.results(let results)) = action { return results }
            return []
        }
    }

    static func isAwaitingStore(_ machine: CoordinatorMachine, _ job: Int) -> Bool {
        if case .awaitingStore? = machine.state(of: job) { return true }
        return false
    }

    @Test("jobs sent before the one a heartbeat is at are finished at once, and no longer count against the credit")
    func heartbeatFinishesTheJobsBeforeTheFirstHeld() {
        var machine = Self.machine(jobs: 300)
        _ = machine.receive(.ready(Self.identity, credit: 10), from: Self.worker, now: Self.t0)
        let soon = Self.t0.advanced(by: .milliseconds(100))
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [5, 6, 7, 8, 9])), from: Self.worker, now: soon)
        // It says it received every chunk and is at job 5: the jobs before it are finished.
        #expect((0..<5).allSatisfy { Self.isAwaitingStore(machine, $0) })
        #expect((5..<10).allSatisfy { machine.isAssigned($0, to: Self.worker) })
        // It holds 5, so it may be sent 251 more, not 246.
        let more = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1_000), from: Self.worker, now: soon))
        #expect(more.count == WireProtocol.maximumCredit - 5)
    }

    @Test("chunks a worker has not received yet are on their way and count against its credit; past the hand-over grace they are lost and go out again, uncharged")
    func chunksOnTheirWay() {
        var machine = Self.machine(jobs: 300)
        _ = machine.receive(.ready(Self.identity, credit: 4), from: Self.worker, now: Self.t0)
        // None finished yet: one job a chunk, four chunks.
        #expect(machine.workers[Self.worker]?.sent.contents.map(\.position.index) == [0, 0, 0, 0])
        // The heartbeat left before the jobs arrived: none is finished.
        let soon = Self.t0.advanced(by: .milliseconds(10))
        _ = machine.receive(.heartbeat(Self.identity, .nothing), from: Self.worker, now: soon)
        #expect((0..<4).allSatisfy { machine.isAssigned($0, to: Self.worker) })
        // They count against its credit while on their way.
        let more = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1_000), from: Self.worker, now: soon))
        #expect(more.count == WireProtocol.maximumCredit - 4)
        // Received and finished, all of them: the first four are finished.
        let received = machine.workers[Self.worker]?.lastChunkSent
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, more.map(\.id), received: received)), from: Self.worker, now: soon)
        #expect((0..<4).allSatisfy { Self.isAwaitingStore(machine, $0) })
        #expect(machine.progress.reissued == 0)
        // Another worker's chunks never arrive: past the grace they go out again, uncharged.
        _ = machine.receive(.ready(Self.identity, credit: 1), from: [2], now: soon)
        let lostJob = machine.workers[[2]]!.sent.first!.job
        _ = machine.receive(.heartbeat(Self.identity, .nothing), from: [2], now: Self.t0.advanced(by: .milliseconds(900)))
        #expect(machine.progress.reissued == 0)
        _ = machine.receive(.heartbeat(Self.identity, .nothing), from: [2], now: Self.t0.advanced(by: .milliseconds(1_100)))
        #expect(machine.progress.reissued == 1)
        #expect(machine.workers[[2]]?.sent.isEmpty == true)
        let again = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1), from: [3], now: Self.t0.advanced(by: .milliseconds(1_100))))
        #expect(again.map(\.id) == [lostJob] && again.map(\.attempt) == [1])
    }

    @Test("a heartbeat saying it holds more jobs than any worker may is dropped as malformed; an honest worker's is not")
    func oversizedHeartbeatIsDropped() {
        var machine = Self.machine(jobs: 1)
        let bound = CoordinatorMachine.maximumHeldListed
        #expect(bound == 4 * WireProtocol.maximumCredit)
        _ = machine.receive(.heartbeat(Self.identity, HeldWork(current: nil, lastReceived: nil, jobs: bound + 1)), from: Self.worker, now: Self.t0)
        #expect(machine.progress.dropped.malformed == 1)
        #expect(machine.workers.isEmpty)
        _ = machine.receive(.heartbeat(Self.identity, HeldWork(current: nil, lastReceived: nil, jobs: bound)), from: Self.worker, now: Self.t0)
        #expect(machine.progress.dropped.malformed == 1 && machine.workers.count == 1)
    }

    @Test("--paired: a record of 2,000 jobs (2 solvers x 1,000 repeats) goes to one worker whole, and its heartbeats are heard")
    func pairedRecordsPastTheBound() {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        configuration.paired = true
        configuration.jobsPerRecord = 2_000
        var machine = CoordinatorMachine(configuration: configuration)
        let record = (0..<2_000).map { id -> ReadJob in
            var job = Self.job(id)
            job.job.source = "puzzles.txt:1"
            return job
        }
        _ = machine.read(record, ended: true, now: Self.t0)
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
        let sent = Self.dispatched(machine.receive(.ready(Self.identity, credit: 4, jobSeconds: 0), from: Self.worker, now: Self.t0))
        #expect(sent.count == 2_000)
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, sent.map(\.id))), from: Self.worker, now: Self.t0.advanced(by: .seconds(1)))
        #expect(machine.progress.dropped.malformed == 0)
        // The bound grows by a record for each of the four grants it allows, no more.
        let past = HeldWork(current: nil, lastReceived: nil, jobs: CoordinatorMachine.maximumHeldListed + 4 * 2_000 + 1)
        _ = machine.receive(.heartbeat(Self.identity, past), from: Self.worker, now: Self.t0)
        #expect(machine.progress.dropped.malformed == 1)
    }

    @Test("jobs in chunks a heartbeat has not received are on their way, and count against the credit: a worker never holds past it")
    func jobsOnTheirWayCount() {
        var machine = Self.machine(jobs: 2_000)
        let first = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1_000), from: Self.worker, now: Self.t0))
        #expect(first.count == WireProtocol.maximumCredit)
        // It received the grant's first 100 jobs, finished 60, and asks again before the rest arrive.
        let later = Self.t0.advanced(by: .milliseconds(500))
        let sent = machine.workers[Self.worker]!.sent.contents
        let received = sent[sent.startIndex + 99].position.chunk
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, first[60..<100].map(\.id), received: received)), from: Self.worker, now: later)
        let more = Self.dispatched(machine.receive(.ready(Self.identity, credit: 216), from: Self.worker, now: later))
        // It will hold the 40 it has and the 156 on their way: 60 more, not 216.
        #expect(more.count == 60, "\(more.count)")
        #expect((0..<60).allSatisfy { Self.isAwaitingStore(machine, first[$0].id) })
    }

    @Test("a chunk is about 5 ms of the worker's jobs: one job until it says how long they take, the whole grant for trivial ones")
    func chunkSizes() {
        let machine = Self.machine(jobs: 1)
        #expect(machine.chunkJobs(jobSeconds: nil) == 1)
        #expect(machine.chunkJobs(jobSeconds: 0.001) == 5)
        #expect(machine.chunkJobs(jobSeconds: 0.000_01) == WireProtocol.maximumChunkJobs)
        #expect(machine.chunkJobs(jobSeconds: 0) == WireProtocol.maximumChunkJobs)
        #expect(machine.chunkJobs(jobSeconds: 2) == 1)
        var chunked = Self.machine(jobs: 300)
        let actions = chunked.receive(.ready(Self.identity, credit: 12, jobSeconds: 0.001), from: Self.worker, now: Self.t0)
        let chunks = actions.flatMap { action -> [JobChunk] in
            if case .send(_, .jobs(let chunks)) = action { return chunks }
            return []
        }
        #expect(chunks.map(\.jobs.count) == [5, 5, 2])
        #expect(chunks.flatMap(\.jobs).map(\.id) == Array(0..<12))
        #expect(Set(chunks.map(\.id)).count == 3)
    }

    @Test("a worker killed mid-chunk loses only its unfinished jobs: those before its last position wait for the sink, only the running one is charged")
    func midChunkDeath() {
        var machine = Self.machine(jobs: 8)
        let sent = Self.dispatched(machine.receive(.ready(Self.identity, credit: 8, jobSeconds: 0.000_1), from: Self.worker, now: Self.t0))
        #expect(sent.count == 8)
        #expect(Set(machine.workers[Self.worker]!.sent.contents.map(\.position.chunk)).count == 1, "one chunk of 8")
        // It is at index 3 when it dies; the sink has stored 0 and 1.
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, Array(3..<8))), from: Self.worker, now: Self.t0)
        _ = machine.receive(.stored(batch: "b", jobs: (0..<2).map { StoredJob(job: $0, fingerprint: sent[$0].fingerprint) }), from: Self.sink, now: Self.t0)
        let silent = Self.t0.advanced(by: .seconds(4))
        _ = machine.tick(now: silent)
        // Jobs 3 to 7 go out again; job 2 waits for the sink's word.
        #expect(machine.progress.reissued == 5)
        #expect(Self.isAwaitingStore(machine, 2))
        // Its result never came: after the store timeout (the sink still heard), job 2 goes out again too.
        let timedOut = silent.advanced(by: .seconds(11))
        _ = machine.receive(.stored(batch: "b", jobs: []), from: Self.sink, now: timedOut)
        _ = machine.tick(now: timedOut)
        #expect(machine.progress.reissued == 6)
        // Only the job it was running is charged an attempt.
        let again = Self.dispatched(machine.receive(.ready(Self.identity, credit: 8), from: [2], now: timedOut))
        #expect(Set(again.map(\.id)) == Set(2..<8))
        #expect(again.filter { $0.attempt == 2 }.map(\.id) == [3])
    }

    @Test("a heartbeat from a worker still on a chunk of this coordinator's run before a restart finishes none of this run's, and its held jobs count")
    func positionFromAnotherRun() {
        for old in [ChunkID(7), ChunkID(.max - 3)] {
            var machine = Self.machine(jobs: 300)
            _ = machine.receive(.ready(Self.identity, credit: 10), from: Self.worker, now: Self.t0)
            let newest = machine.workers[Self.worker]!.lastChunkSent!
            // Ids of two runs do not compare: one above this run's newest is no lie.
            let held = HeldWork(current: ChunkPosition(chunk: old, index: 3), lastReceived: newest, jobs: 50)
            _ = machine.receive(.heartbeat(Self.identity, held), from: Self.worker, now: Self.t0)
            #expect(machine.progress.dropped.malformed == 0, "\(old)")
            #expect((0..<10).allSatisfy { machine.isAssigned($0, to: Self.worker) })
            #expect(machine.workers[Self.worker]?.running == nil)
            let more = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1_000), from: Self.worker, now: Self.t0))
            // The 50 it holds include the 10 of this run it received.
            #expect(more.count == WireProtocol.maximumCredit - 50, "\(old)")
        }
    }

    @Test("a position in this run's chunks past the last one received is refused as malformed")
    func positionPastWhatWasReceived() {
        var machine = Self.machine(jobs: 300)
        _ = machine.receive(.ready(Self.identity, credit: 10), from: Self.worker, now: Self.t0)
        let sent = machine.workers[Self.worker]!.sent.contents
        let first = sent.first!.position.chunk, last = sent.last!.position
        _ = machine.receive(.heartbeat(Self.identity, HeldWork(current: last, lastReceived: first, jobs: 1)), from: Self.worker, now: Self.t0)
        #expect(machine.progress.dropped.malformed == 1)
        #expect((0..<10).allSatisfy { machine.isAssigned($0, to: Self.worker) })
    }

    @Test("a worker that stays at one place while it asks again is never given more than its credit, whatever count it gives")
    func stuckWorkerKeepsItsCredit() {
        var machine = Self.machine(jobs: 2_000)
        let first = Self.dispatched(machine.receive(.ready(Self.identity, credit: 256, jobSeconds: 0), from: Self.worker, now: Self.t0))
        #expect(first.count == 256)
        let newest = machine.workers[Self.worker]!.lastChunkSent!
        let second = machine.workers[Self.worker]!.sent.contents.dropFirst().first!.position
        var given = 0
        for step in 1...20 {
            let now = Self.t0.advanced(by: .milliseconds(50 * step))
            // It says it holds one job, at the second, and asks for all it may.
            _ = machine.receive(.heartbeat(Self.identity, HeldWork(current: second, lastReceived: newest, jobs: 1)), from: Self.worker, now: now)
            given += Self.dispatched(machine.receive(.ready(Self.identity, credit: 256, jobSeconds: 0), from: Self.worker, now: now)).count
        }
        #expect(given <= 1, "\(given) more jobs to a worker that finished one")
    }

    @Test("a frame cut at 4 MiB closes its chunk before the next job's place is taken: every job is where the coordinator says")
    func positionsAcrossAFrameCut() {
        var machine = CoordinatorMachine(configuration: .init(batch: "b", identity: Self.identity))
        let big = String(repeating: "x", count: 3 << 19)  // 1.5 MiB: two a frame.
        _ = machine.read((0..<5).map { Self.job($0, puzzle: big + "\($0)") }, ended: true, now: Self.t0)
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
        let actions = machine.receive(.ready(Self.identity, credit: 5, jobSeconds: 0), from: Self.worker, now: Self.t0)
        let frames = actions.compactMap { action -> [JobChunk]? in
            if case .send(_, .jobs(let chunks)) = action { return chunks }
            return nil
        }
        #expect(frames.count == 3)
        for chunk in frames.flatMap({ $0 }) {
            for (index, job) in chunk.jobs.enumerated() {
                guard case .assigned(_, let at, _, _)? = machine.state(of: job.id) else {
                    Issue.record("job \(job.id) is not assigned")
                    continue
                }
                #expect(at == ChunkPosition(chunk: chunk.id, index: index), "job \(job.id)")
            }
        }
    }

    /// A machine with `job` alone read, the sink heard (nothing stored), and the worker ready for it at t0.
    static func machineRunning(_ job: ReadJob) -> CoordinatorMachine {
        var machine = CoordinatorMachine(configuration: .init(batch: "b", identity: Self.identity))
        _ = machine.read([job], ended: true, now: Self.t0)
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
        _ = machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0)
        return machine
    }

    @Test("a running job past its time limit and the grace costs its worker the lease, and the job an attempt")
    func overrunningJobIsReissued() {
        var slow = Self.job(0)
        slow.job.timeoutSeconds = 1
        var machine = Self.machineRunning(slow)
        // Still heartbeating, so never silent: only the time limit can take the job back.
        // It starts running at t0 (its first heartbeat): limit 1 s plus 2 s of grace ends at 3 s.
        for step in 0...3 {
            let now = Self.t0.advanced(by: .milliseconds(step * 900))
            _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [0])), from: Self.worker, now: now)
            _ = machine.tick(now: now)
        }
        #expect(machine.progress.reissued == 0)
        let late = Self.t0.advanced(by: .milliseconds(3_100))
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [0])), from: Self.worker, now: late)
        _ = machine.tick(now: late)
        #expect(machine.progress.reissued == 1)
        let again = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1), from: [2], now: late))
        #expect(again.map(\.attempt) == [2])
    }

    /// Heartbeats that keep the running-job clock from ever reaching the limit: every other one
    /// lists a job the worker was never handed first, so the job it runs seems to start again.
    static func stall(_ machine: inout CoordinatorMachine, holding jobs: [Int], from start: Duration, to end: Duration) {
        var step = 0
        while start + .milliseconds(step * 250) <= end {
            let now = Self.t0.advanced(by: start + .milliseconds(step * 250))
            let listed = step.isMultiple(of: 2) ? [999] + jobs : jobs
            _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, listed)), from: Self.worker, now: now)
            _ = machine.tick(now: now)
            step += 1
        }
    }

    @Test("a worker that heartbeats a job but never finishes it loses it when its lease ends, whatever job it says it runs")
    func leaseEndsWhateverTheHeartbeats() {
        var held = Self.job(0)
        held.job.timeoutSeconds = 1
        var machine = Self.machineRunning(held)
        // Limit 1 s and 2 s of grace from the hand-over: the lease ends at 3 s.
        Self.stall(&machine, holding: [0], from: .zero, to: .milliseconds(3_000))
        #expect(machine.progress.reissued == 0)
        let late = Self.t0.advanced(by: .milliseconds(3_050))
        _ = machine.tick(now: late)
        #expect(machine.progress.reissued == 1)
        // The attempt is spent: it was the job held.
        let again = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1), from: [2], now: late))
        #expect(again.map(\.attempt) == [2])
    }

    @Test("a job without a time limit is held at most --lease-limit; with none, without end")
    func leaseLimitForJobsWithoutOne() {
        for limit in [Duration.seconds(60), nil] {
            var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
            configuration.leaseLimit = limit
            var machine = CoordinatorMachine(configuration: configuration)
            _ = machine.read([Self.job(0)], ended: true, now: Self.t0)
            _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
            _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
            _ = machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0)
            Self.stall(&machine, holding: [0], from: .zero, to: .seconds(60))
            #expect(machine.progress.reissued == 0)
            Self.stall(&machine, holding: [0], from: .milliseconds(60_250), to: .seconds(61))
            #expect(machine.progress.reissued == (limit == nil ? 0 : 1), "\(String(describing: limit))")
        }
    }

    @Test("leases follow one another: a job queued behind another is due when that one's lease ends, not at its own hand-over")
    func leasesAreChained() {
        var limited: [ReadJob] = []
        for id in 0..<2 {
            var job = Self.job(id)
            job.job.timeoutSeconds = 1
            limited.append(job)
        }
        var machine = CoordinatorMachine(configuration: .init(batch: "b", identity: Self.identity))
        _ = machine.read(limited, ended: true, now: Self.t0)
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
        #expect(Self.dispatched(machine.receive(.ready(Self.identity, credit: 2), from: Self.worker, now: Self.t0)).count == 2)
        // Job 0 finishes at 2.9 s, within its lease (3 s); job 1's lease ends at 6 s.
        Self.stall(&machine, holding: [0, 1], from: .zero, to: .milliseconds(2_750))
        Self.stall(&machine, holding: [1], from: .milliseconds(3_000), to: .milliseconds(5_750))
        #expect(machine.progress.reissued == 0)
        Self.stall(&machine, holding: [1], from: .milliseconds(6_000), to: .milliseconds(6_250))
        #expect(machine.progress.reissued == 1)
    }

    @Test("a job with a CPU limit and no wall limit overruns at the wall limit it implies (2 x 0.25 + 1 s) and the grace")
    func impliedWallLimitOverrun() {
        // The job keeps no wall limit of its own: its fingerprint is a batch's run before CPU limits implied one.
        var machine = Self.machineRunning(ReadJob(job: Job(
            batch: "b", id: 0, attempt: 0, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 100, timeoutSeconds: nil,
            source: "f.txt:1", firstLine: 1, limits: JobLimits(cpuSeconds: 0.25))))
        for step in 0...3 {
            let now = Self.t0.advanced(by: .milliseconds(step * 1_100))
            _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [0])), from: Self.worker, now: now)
            _ = machine.tick(now: now)
        }
        #expect(machine.progress.reissued == 0, "1.5 s and 2 s of grace: not before 3.5 s")
        let late = Self.t0.advanced(by: .milliseconds(3_600))
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [0])), from: Self.worker, now: late)
        _ = machine.tick(now: late)
        #expect(machine.progress.reissued == 1)
    }

    @Test("a job out of attempts is reported failed by the coordinator itself, and resent until the sink stores it")
    func jobOutOfAttemptsIsReportedFailed() {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        configuration.maxAttempts = 1
        var machine = CoordinatorMachine(configuration: configuration)
        _ = machine.read([Self.job(0)], ended: true, now: Self.t0)
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
        _ = machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0)
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [0])), from: Self.worker, now: Self.t0)
        let silent = Self.t0.advanced(by: .seconds(5))
        let failed = Self.sentResults(machine.tick(now: silent))
        #expect(failed.map(\.status) == [.failed])
        #expect(failed.first?.error?.contains("went silent") == true)
        // Not acknowledged within the store timeout: sent again.
        #expect(Self.sentResults(machine.tick(now: silent.advanced(by: .seconds(5)))).isEmpty)
        #expect(Self.sentResults(machine.tick(now: silent.advanced(by: .seconds(11)))).count == 1)
        let done = machine.receive(.stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: Self.job(0).job.fingerprint)]), from: Self.sink, now: silent)
        #expect(done.contains(.stop(.complete)))
        #expect(machine.progress.failed == 1)
    }

    @Test("a finished job the sink never acknowledges is solved again, but not while the sink is silent")
    func unacknowledgedResultIsReissuedOnlyWhileTheSinkIsHeard() {
        var machine = Self.machine(jobs: 2)
        _ = machine.receive(.ready(Self.identity, credit: 2), from: Self.worker, now: Self.t0)
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [1])), from: Self.worker, now: Self.t0.advanced(by: .seconds(2)))
        #expect(Self.isAwaitingStore(machine, 0))
        // The sink has said nothing for longer than the store timeout: re-issuing would only
        // repeat work it cannot store.
        let later = Self.t0.advanced(by: .seconds(14))
        _ = machine.receive(.heartbeat(Self.identity, machine.held(by: Self.worker, [1])), from: Self.worker, now: later)
        _ = machine.tick(now: later)
        #expect(machine.progress.reissued == 0)
        // The sink is heard again (it acknowledges job 1), so job 0's missing acknowledgement counts.
        _ = machine.receive(.stored(batch: "b", jobs: [StoredJob(job: 1, fingerprint: Self.job(1).job.fingerprint)]), from: Self.sink, now: later)
        _ = machine.tick(now: later.advanced(by: .seconds(1)))
        #expect(machine.progress.reissued == 1)
    }

    @Test("a record too long to read is reported invalid by the coordinator, never sent to a worker")
    func unreadableRecordIsReportedInvalid() {
        var machine = CoordinatorMachine(configuration: .init(batch: "b", identity: Self.identity))
        var long = Self.job(0)
        long.unreadable = "f.txt:1: the line is 9999999 bytes, over the limit"
        _ = machine.read([long], ended: true, now: Self.t0)
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        let page = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
        let reported = Self.sentResults(page)
        #expect(reported.map(\.status) == [.invalid])
        #expect(reported.first?.error == long.unreadable)
        #expect(Self.dispatched(machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0)).isEmpty)
        _ = machine.receive(.stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: long.job.fingerprint)]), from: Self.sink, now: Self.t0)
        #expect(machine.progress.unreadable == 1)
    }

    @Test("once every job is stored, every worker known is told the batch is drained, and a worker that asks later too")
    func drainedAfterCompletion() {
        var machine = Self.machine(jobs: 1)
        let job = Self.dispatched(machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0))[0]
        _ = machine.receive(.ready(Self.identity, credit: 1), from: [2], now: Self.t0)
        let done = machine.receive(.stored(batch: "b", jobs: [StoredJob(job: 0, fingerprint: job.fingerprint)]), from: Self.sink, now: Self.t0)
        // The idle worker that was waiting hears it at once, and so does the one that held the
        // job, without asking first (a local batch waits for its workers to exit); a later
        // asker hears it when it asks.
        #expect(done.filter { $0 == .send(to: [2], .drained) }.count == 1)
        #expect(done.filter { $0 == .send(to: Self.worker, .drained) }.count == 1)
        #expect(machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0) == [.send(to: Self.worker, .drained)])
    }

    @Test("a finished coordinator stays for workers still asking, and goes at once when none is left")
    func lingerEndsWhenWorkersAreGone() {
        #expect(!Coordinator.lingerIsOver(lingered: .zero, workersGone: { false }))
        #expect(Coordinator.lingerIsOver(lingered: .zero, workersGone: { true }))
        #expect(Coordinator.lingerIsOver(lingered: Coordinator.drainLinger, workersGone: { false }))
    }

    @Test("frames that are not two parts, do not decode, or are messages a coordinator never takes are counted and dropped")
    func strayFramesAreDropped() {
        var machine = Self.machine(jobs: 1)
        #expect(Self.withoutLogs(machine.receive([[1]], now: Self.t0)).isEmpty)
        #expect(Self.withoutLogs(machine.receive([[1], [0xFF, 0x00]], now: Self.t0)).isEmpty)
        #expect(machine.progress.dropped.malformed == 2)
        for message: WireMessage in [.jobs([]), .results([]), .storedQuery(batch: "b", from: 0, limit: 1), .forget(batch: "b", from: 0), .drained] {
            _ = machine.receive(message, from: Self.worker, now: Self.t0)
        }
        #expect(machine.progress.dropped.unexpected == 5)
    }

    @Test("a sink never heard: a warning naming the endpoint after 10 s and every 10 s, then the batch stops at the limit; one heard counts from its last word")
    func silentSink() {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        configuration.sinkSilenceLimit = .seconds(30)
        configuration.jobsEndpoint = "tcp://10.0.0.1:5555"
        var machine = CoordinatorMachine(configuration: configuration)
        _ = machine.read([Self.job(0)], ended: true, now: Self.t0)
        func logs(_ actions: [CoordinatorMachine.Action]) -> [String] {
            actions.compactMap { if case .log(let line) = $0 { line } else { nil } }
        }
        var warnings: [String] = []
        var stop: CoordinatorStop?
        for tenth in 1...400 where stop == nil {
            let actions = machine.tick(now: Self.t0.advanced(by: .milliseconds(100 * tenth)))
            warnings += logs(actions).filter { $0.contains("said anything") }
            for case .stop(let reason) in actions { stop = reason }
        }
        #expect(warnings.count == 2, "at 10 and 20 s: \(warnings)")
        #expect(warnings.first?.contains("no sink has said anything in 10 s") == true && warnings.first?.contains("tcp://10.0.0.1:5555") == true)
        #expect(stop == .sinkSilent(.seconds(30), heard: false), "\(String(describing: stop))")
        // A sink that says hello every second is never silent; once it stops, silence counts from its last word.
        var heard = CoordinatorMachine(configuration: configuration)
        _ = heard.read([Self.job(0)], ended: true, now: Self.t0)
        var stopped: [ContinuousClock.Instant] = []
        for second in 1...80 {
            let now = Self.t0.advanced(by: .seconds(second))
            if second <= 40 { _ = heard.receive(.sinkHello, from: Self.sink, now: now) }
            for case .stop(.sinkSilent(_, heard: true)) in heard.tick(now: now) { stopped.append(now) }
        }
        #expect(stopped == [Self.t0.advanced(by: .seconds(70))])
        // No limit: warned, never stopped.
        configuration.sinkSilenceLimit = nil
        var patient = CoordinatorMachine(configuration: configuration)
        var said: [String] = []
        for second in 0...3_600 {
            let actions = patient.tick(now: Self.t0.advanced(by: .seconds(second)))
            #expect(!actions.contains { if case .stop = $0 { true } else { false } })
            said += logs(actions)
        }
        #expect(said.count == 360 && said.allSatisfy { $0.contains("no limit is set") }, "\(said.count)")
    }

    @Test("a coordinator stopped or asleep past the sink silence limit does not stop at its first tick: the sink's hello may be waiting unread")
    func suspendedCoordinatorKeepsItsSink() {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        configuration.sinkSilenceLimit = .seconds(30)
        var machine = CoordinatorMachine(configuration: configuration)
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        _ = machine.tick(now: Self.t0.advanced(by: .seconds(1)))
        // SIGSTOP for 200 s, then continued.
        let woken = machine.tick(now: Self.t0.advanced(by: .seconds(201)))
        #expect(!woken.contains { if case .stop = $0 { true } else { false } })
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0.advanced(by: .seconds(201)))
        // Silent from then on: it stops 30 s after the last hello, not at once.
        var stops: [Int] = []
        for second in 202...240 {
            let actions = machine.tick(now: Self.t0.advanced(by: .seconds(second)))
            if actions.contains(where: { if case .stop = $0 { true } else { false } }) { stops.append(second) }
        }
        #expect(stops == [231])
    }

    @Test("a restarted sink says hello again and is asked for the page the machine still needs")
    func restartedSinkIsAskedAgain() {
        var machine = CoordinatorMachine(configuration: .init(batch: "b", identity: Self.identity))
        _ = machine.read((0..<3).map { Self.job($0) }, ended: false, now: Self.t0)
        _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
        // The sink dies before answering; its successor has a new routing id.
        let successor: [UInt8] = [10]
        let hello = machine.receive(.sinkHello, from: successor, now: Self.t0.advanced(by: .seconds(1)))
        #expect(hello.contains(.send(to: successor, .storedQuery(batch: "b", from: 0, limit: WireProtocol.storedPageSize))))
        // The old sink's late page is not believed.
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: Self.t0)
        #expect(machine.progress.dropped.unexpected == 1)
    }

    @Test("how each stored job ended, found stored or acknowledged, makes the exit status")
    func tallyMakesTheExitStatus() {
        let before = StoredJob(job: 0, fingerprint: Self.job(0).job.fingerprint, status: .cutoff, wrong: false)
        var machine = Self.machine(jobs: 2, stored: [before])
        #expect(machine.progress.tally.byStatus[.cutoff] == 1)
        #expect(machine.progress.tally.exitCode == 2)
        _ = machine.receive(.ready(Self.identity, credit: 1), from: Self.worker, now: Self.t0)
        let wrong = StoredJob(job: 1, fingerprint: Self.job(1).job.fingerprint, status: .solved, wrong: true)
        _ = machine.receive(.stored(batch: "b", jobs: [wrong]), from: Self.sink, now: Self.t0)
        #expect(machine.progress.tally.wrong == 1)
        #expect(machine.progress.tally.exitCode == 3)
    }

    @Test("behind one job the sink never acknowledges, the list of waiting jobs stays bounded")
    func storeDeadlinesStayBounded() {
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
        configuration.readAhead = 2_048
        configuration.maximumTracked = 4_096
        var machine = CoordinatorMachine(configuration: configuration)
        var now = Self.t0
        _ = machine.read((0..<2_048).map { Self.job($0) }, ended: false, now: now)
        _ = machine.receive(.sinkHello, from: Self.sink, now: now)
        _ = machine.receive(.storedPage(batch: "b", from: 0, jobs: [], complete: true), from: Self.sink, now: now)
        var read = 2_048
        var largest = 0
        let workers: [[UInt8]] = (1...8).map { [UInt8($0)] }
        while now < Self.t0.advanced(by: .seconds(30)) {
            let wanted = machine.wantedJobs
            _ = machine.read((read..<(read + wanted)).map { Self.job($0) }, ended: false, now: now)
            read += wanted
            var sent: [Job] = []
            for worker in workers { sent += Self.dispatched(machine.receive(.ready(Self.identity, credit: 256), from: worker, now: now)) }
            now = now.advanced(by: .milliseconds(1_100))
            for worker in workers { _ = machine.receive(.heartbeat(Self.identity, machine.held(by: worker, [])), from: worker, now: now) }
            let acknowledged = sent.filter { $0.id != 0 }.map { StoredJob(job: $0.id, fingerprint: $0.fingerprint) }
            _ = machine.receive(.stored(batch: "b", jobs: acknowledged), from: Self.sink, now: now)
            _ = machine.tick(now: now)
            largest = max(largest, machine.storeDeadlines.count)
        }
        // Job 0's entry stays at the head for the whole store timeout, 2,048 jobs finishing
        // behind it each round: without the clean-up about 18,000 entries would pile up, with it
        // no more than twice the 4,096 jobs the machine may hold, and a round's.
        #expect(read > 30_000)
        #expect(largest <= 2 * 4_096 + 2_048, "\(largest)")
        #expect(Self.isAwaitingStore(machine, 0) || machine.progress.reissued > 0)
    }

    @Test("an input shorter than the stored batch stops it; with resumeChanged the sink is told to forget the rest")
    func shorterInputIsRefusedOrTrimmed() {
        let stored = (0..<3).map { StoredJob(job: $0, fingerprint: Self.job($0).job.fingerprint) }
        for resumeChanged in [false, true] {
            var configuration = CoordinatorMachine.Configuration(batch: "b", identity: Self.identity)
            configuration.resumeChanged = resumeChanged
            var machine = CoordinatorMachine(configuration: configuration)
            _ = machine.read((0..<2).map { Self.job($0) }, ended: true, now: Self.t0)
            _ = machine.receive(.sinkHello, from: Self.sink, now: Self.t0)
            let actions = machine.receive(.storedPage(batch: "b", from: 0, jobs: stored, complete: true), from: Self.sink, now: Self.t0)
            if resumeChanged {
                #expect(actions.contains(.send(to: Self.sink, .forget(batch: "b", from: 2))))
                #expect(actions.contains(.stop(.complete)))
            } else {
                let reason = actions.compactMap { action -> String? in
                    if case .stop(.inputChanged(let reason)) = action { return reason }
                    return nil
                }.first
                #expect(reason?.contains("got shorter") == true, "\(actions)")
            }
        }
    }
}
