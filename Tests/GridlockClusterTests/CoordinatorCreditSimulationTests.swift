// 64 workers with fast jobs against the coordinator's size limits, without sockets: each
// simulated worker behaves as Worker does (asks for its window less what it holds when half of
// it is left, says what it holds before each ask and every heartbeat interval, solves in the
// order sent, an idle one asking again at each heartbeat), and every frame to it takes a random
// while on its way (up to twice the heartbeat interval), so that grants, leftover
// credit spent as jobs are read, and heartbeats cross. Before issue 44 the coordinator counted
// no job on its way once a heartbeat came, and refused its own workers' heartbeats.

import Testing
@testable import GridlockCluster
import GridlockWire

@Suite("Coordinator credit under 64 workers")
struct CoordinatorCreditSimulationTests {
    struct SimulatedWorker {
        let address: [UInt8]
        let identity: WorkerIdentity
        var queue: [Int] = []
        /// Frames on their way: when each arrives (in order), and its jobs.
        var inbox: [(step: Int, jobs: [Int])] = []
        var asked = false
        var lastBeat = 0
    }

    /// xorshift64: the same run every time.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    @Test("no heartbeat of an honest worker is refused, and none lists past the bound, at 64 workers with fast jobs")
    func sixtyFourFastWorkers() {
        let total = 40_000, window = WireProtocol.maximumCredit, t0 = ContinuousClock.now
        var configuration = CoordinatorMachine.Configuration(batch: "b", identity: WorkerIdentity(host: "c", pid: 0))
        configuration.readAhead = 600
        var machine = CoordinatorMachine(configuration: configuration)
        var random = Seeded(state: 0x9E37_79B9_7F4A_7C15)
        var workers = (0..<64).map { SimulatedWorker(address: [UInt8($0 + 1)], identity: WorkerIdentity(host: "w\($0)", pid: $0)) }
        var step = 0, read = 0, finished = 0, mostListed = 0
        var fingerprints: [Int: JobFingerprint] = [:], solved: [StoredJob] = []
        let now = { (step: Int) in t0.advanced(by: .milliseconds(2 * step)) }
        func route(_ actions: [CoordinatorMachine.Action]) {
            // The sink has nothing stored.
            for case .send([200], .storedQuery(_, let from, _)) in actions {
                route(machine.receive(.storedPage(batch: "b", from: from, jobs: [], complete: true), from: [200], now: now(step)))
            }
            for case .send(let address, .jobs(let jobs)) in actions {
                guard let index = workers.firstIndex(where: { $0.address == address }) else { continue }
                let after = max(step, workers[index].inbox.last?.step ?? step)
                workers[index].inbox.append((after + Int.random(in: 0...50, using: &random), jobs.map(\.id)))
                for job in jobs { fingerprints[job.id] = job.fingerprint }
            }
        }
        route(machine.receive(.sinkHello, from: [200], now: t0))
        while machine.progress.stored < total, step < 20_000 {
            step += 1
            let wanted = min(machine.wantedJobs, total - read)
            if wanted > 0 {
                let jobs = (read..<(read + wanted)).map { id in
                    ReadJob(job: Job(batch: "b", id: id, attempt: 0, kind: .rushhour, puzzle: "p\(id)", solver: "bfs",
                                     maxStates: 100, timeoutSeconds: nil, source: "f:\(id + 1)", firstLine: id + 1))
                }
                read += wanted
                route(machine.read(jobs, ended: read == total, now: now(step)))
            }
            for index in workers.indices {
                while let frame = workers[index].inbox.first, frame.step <= step {
                    workers[index].inbox.removeFirst()
                    let held = Set(workers[index].queue)
                    workers[index].queue += frame.jobs.filter { !held.contains($0) }
                    workers[index].asked = false
                }
                let done = min(workers[index].queue.count, Int.random(in: 0...12, using: &random))
                solved += workers[index].queue.prefix(done).map { StoredJob(job: $0, fingerprint: fingerprints[$0]!) }
                workers[index].queue.removeFirst(done)
                finished += done
                let worker = workers[index]
                let beats = step - worker.lastBeat >= 25
                // As Worker: when half its window is left and no ask is pending; and an idle one
                // at every heartbeat, pending or not (a restarted coordinator forgot its ask).
                let asks = (!worker.asked && worker.queue.count <= window / 2) || (beats && worker.queue.isEmpty)
                if asks || beats {
                    mostListed = max(mostListed, worker.queue.count)
                    route(machine.receive(.heartbeat(worker.identity, jobs: worker.queue), from: worker.address, now: now(step)))
                    workers[index].lastBeat = step
                }
                if asks {
                    workers[index].asked = true
                    route(machine.receive(.ready(worker.identity, credit: window - worker.queue.count), from: worker.address, now: now(step)))
                }
            }
            // The sink stores what the workers solved, and says so.
            if !solved.isEmpty {
                route(machine.receive(.stored(batch: "b", jobs: solved), from: [200], now: now(step)))
                solved.removeAll()
            }
        }
        #expect(machine.progress.stored == total)
        #expect(finished >= total, "the simulation ran its jobs: \(finished) of \(total) in \(step) steps")
        #expect(machine.progress.dropped.malformed == 0, "refused \(machine.progress.dropped.malformed) heartbeats; the most listed \(mostListed)")
        #expect(mostListed <= CoordinatorMachine.maximumHeldListed)
        print("64 simulated workers: the most jobs one held \(mostListed), credit \(window), \(step) steps")
    }
}
