// 64 workers with fast jobs against the coordinator's size limits, without sockets: each
// simulated worker behaves as Worker does (asks for its window less what it holds when half of
// it is left, says what it holds before each ask and every heartbeat interval, solves in the
// order sent, an idle one asking again at each heartbeat), and every frame to it takes a random
// while on its way (up to twice the heartbeat interval), so that grants, leftover
// credit spent as jobs are read, and heartbeats cross. Before issue 44 the coordinator counted
// no job on its way once a heartbeat came, and refused its own workers' heartbeats; version 13's
// heartbeats listed every job held, so their size grew with the credit. Every heartbeat here
// goes through the wire, encoded and decoded, as a real worker's does.

import Testing
@testable import GridlockCluster
import GridlockWire

@Suite("Coordinator credit under 64 workers")
struct CoordinatorCreditSimulationTests {
    struct SimulatedWorker {
        let address: [UInt8]
        let identity: WorkerIdentity
        var queue: [(id: Int, position: ChunkPosition)] = []
        var lastReceived: ChunkID?
        /// Frames on their way: when each arrives (in order), and its chunks.
        var inbox: [(step: Int, chunks: [JobChunk])] = []
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
        var step = 0, read = 0, finished = 0, mostListed = 0, largestHeartbeat = 0, largestChunk = 0
        var fingerprints: [Int: JobFingerprint] = [:], solved: [StoredJob] = []
        let now = { (step: Int) in t0.advanced(by: .milliseconds(2 * step)) }
        func route(_ actions: [CoordinatorMachine.Action]) {
            // The sink has nothing stored.
            for case .send([200], .storedQuery(_, let from, _)) in actions {
                route(machine.receive(.storedPage(batch: "b", from: from, jobs: [], complete: true), from: [200], now: now(step)))
            }
            for case .send(let address, .jobs(let chunks)) in actions {
                guard let index = workers.firstIndex(where: { $0.address == address }) else { continue }
                let after = max(step, workers[index].inbox.last?.step ?? step)
                workers[index].inbox.append((after + Int.random(in: 0...50, using: &random), chunks))
                for job in chunks.flatMap(\.jobs) { fingerprints[job.id] = job.fingerprint }
                largestChunk = max(largestChunk, chunks.map(\.jobs.count).max() ?? 0)
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
                    let held = Set(workers[index].queue.map(\.id))
                    for chunk in frame.chunks {
                        for (at, job) in chunk.jobs.enumerated() where !held.contains(job.id) {
                            workers[index].queue.append((job.id, ChunkPosition(chunk: chunk.id, index: at)))
                        }
                        workers[index].lastReceived = chunk.id
                    }
                    workers[index].asked = false
                }
                let done = min(workers[index].queue.count, Int.random(in: 0...12, using: &random))
                solved += workers[index].queue.prefix(done).map { StoredJob(job: $0.id, fingerprint: fingerprints[$0.id]!) }
                workers[index].queue.removeFirst(done)
                finished += done
                let worker = workers[index]
                let beats = step - worker.lastBeat >= 25
                // As Worker: when half its window is left and no ask is pending; and an idle one
                // at every heartbeat, pending or not (a restarted coordinator forgot its ask).
                let asks = (!worker.asked && worker.queue.count <= window / 2) || (beats && worker.queue.isEmpty)
                if asks || beats {
                    mostListed = max(mostListed, worker.queue.count)
                    let held = HeldWork(current: worker.queue.first?.position, lastReceived: worker.lastReceived, jobs: worker.queue.count)
                    let frame = WireMessage.heartbeat(worker.identity, held).encoded()
                    largestHeartbeat = max(largestHeartbeat, frame.count)
                    route(machine.receive([worker.address, frame], now: now(step)))
                    workers[index].lastBeat = step
                }
                if asks {
                    workers[index].asked = true
                    // Jobs of 0.1 ms: chunks of about 50.
                    let ready = WireMessage.ready(worker.identity, credit: window - worker.queue.count, jobSeconds: 0.000_1)
                    route(machine.receive([worker.address, ready.encoded()], now: now(step)))
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
        // The coordinator counts what is on its way exactly: no worker ever holds past its credit.
        #expect(mostListed <= window, "a worker held \(mostListed) jobs, over its credit of \(window)")
        #expect(largestHeartbeat <= WireProtocol.maximumHeartbeatBytes)
        #expect((2...WireProtocol.maximumChunkJobs).contains(largestChunk), "chunks of up to \(largestChunk) jobs")
        // Nothing took longer than the hand-over grace on its way: no chunk was taken as lost.
        #expect(machine.progress.reissued == 0)
        print("64 simulated workers: the most jobs one held \(mostListed), credit \(window), largest heartbeat \(largestHeartbeat) bytes, largest chunk \(largestChunk) jobs, \(step) steps")
    }
}
