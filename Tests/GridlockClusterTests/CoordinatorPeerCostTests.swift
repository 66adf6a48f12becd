// What one message costs the coordinator in workers visited: constant, whatever the number of
// workers (issue 44, point 2). Before, every job read walked the whole list of idle workers, and
// handing a worker its last credit copied that list.

import Testing
@testable import GridlockCluster
import GridlockWire

@Suite("Coordinator work per message")
struct CoordinatorPeerCostTests {
    static let t0 = ContinuousClock.now
    static let sink: [UInt8] = [0, 0]

    static func address(_ index: Int) -> [UInt8] { [UInt8(index >> 8 + 1), UInt8(index & 0xFF)] }

    static func job(_ id: Int) -> ReadJob {
        ReadJob(job: Job(batch: "b", id: id, attempt: 0, kind: .rushhour, puzzle: "p\(id)", solver: "bfs",
                         maxStates: 100, timeoutSeconds: nil, source: "f:\(id + 1)", firstLine: id + 1))
    }

    /// Reads `jobs`, answering the sink's page queries (nothing is stored); the jobs sent out.
    static func read(_ jobs: [ReadJob], into machine: inout CoordinatorMachine, now: ContinuousClock.Instant) -> [[UInt8]: Int] {
        var actions = machine.read(jobs, ended: false, now: now)
        var sent: [[UInt8]: Int] = [:]
        while !actions.isEmpty {
            var next: [CoordinatorMachine.Action] = []
            for action in actions {
                switch action {
                case .send(let to, .storedQuery(_, let from, _)):
                    next += machine.receive(.storedPage(batch: "b", from: from, jobs: [], complete: false), from: to, now: now)
                case .send(let to, .jobs(let chunks)):
                    sent[to, default: 0] += chunks.reduce(0) { $0 + $1.jobs.count }
                default: break
                }
            }
            actions = next
        }
        return sent
    }

    static func machine() -> CoordinatorMachine {
        var machine = CoordinatorMachine(configuration: .init(batch: "b", identity: WorkerIdentity(host: "c", pid: 0)))
        _ = machine.receive(.sinkHello, from: sink, now: t0)
        return machine
    }

    @Test("1,000 idle workers and jobs read one at a time: each costs a visit or two of the idle list, and every job is handed out")
    func jobsReadOneAtATime() {
        var machine = Self.machine()
        let workers = 1_000, reads = 5_000
        for index in 0..<workers {
            _ = machine.receive(.ready(WorkerIdentity(host: "w\(index)", pid: index), credit: 64), from: Self.address(index), now: Self.t0)
        }
        let before = machine.idleVisits
        var handedOut = 0
        for id in 0..<reads {
            handedOut += Self.read([Self.job(id)], into: &machine, now: Self.t0).values.reduce(0, +)
        }
        #expect(handedOut == reads, "idle \(machine.idle.count), workers \(machine.workers.count), idle ones \(machine.workers.values.filter(\.isIdle).count), with credit \(machine.workers.values.filter { $0.credit > 0 }.count), queued \(machine.queued.count), tracked \(machine.tracked.count)")
        let perRead = Double(machine.idleVisits - before) / Double(reads)
        #expect(perRead <= 2, "\(perRead) idle entries visited a job read, with \(workers) workers")
    }

    @Test("peers that ask and vanish while nothing is queued leave the idle list no longer than about twice the workers")
    func churnKeepsTheListBounded() {
        var machine = Self.machine()
        for round in 0..<10 {
            let now = Self.t0.advanced(by: .seconds(10 * round))
            for index in 0..<1_000 {
                _ = machine.receive(.ready(WorkerIdentity(host: "r\(round)w\(index)", pid: index), credit: 8), from: Self.address(round * 1_000 + index), now: now)
            }
            // Silent past the limit: every one of them is forgotten.
            _ = machine.tick(now: now.advanced(by: .seconds(9)))
            #expect(machine.workers.isEmpty)
        }
        #expect(machine.idle.count <= 2 * machine.workers.count + 65, "\(machine.idle.count) entries for \(machine.workers.count) workers")
        // A job read now goes to a worker that asked after them all, at the cost of the entries left.
        let last = WorkerIdentity(host: "last", pid: 1)
        _ = machine.receive(.ready(last, credit: 8), from: [255, 255], now: Self.t0.advanced(by: .seconds(200)))
        let sent = Self.read([Self.job(0)], into: &machine, now: Self.t0.advanced(by: .seconds(200)))
        #expect(sent == [[255, 255]: 1])
    }

    @Test("workers are served in the order they asked: one served at once when it asked, and asking again, waits behind those that asked before")
    func servedInTheOrderAsked() {
        var machine = Self.machine()
        let a = WorkerIdentity(host: "a", pid: 1), b = WorkerIdentity(host: "b", pid: 2)
        _ = Self.read([Self.job(0)], into: &machine, now: Self.t0)
        // A asks while a job waits: served at once, its place in line left behind it.
        _ = machine.receive(.ready(a, credit: 1), from: Self.address(1), now: Self.t0)
        _ = machine.receive(.ready(b, credit: 1), from: Self.address(2), now: Self.t0)
        _ = machine.receive(.ready(a, credit: 1), from: Self.address(1), now: Self.t0)
        // B asked before A's second ask: the next job is B's.
        #expect(Self.read([Self.job(1)], into: &machine, now: Self.t0) == [Self.address(2): 1])
        #expect(Self.read([Self.job(2)], into: &machine, now: Self.t0) == [Self.address(1): 1])
    }
}
