// One worker of the load generator (`gridlock simulate-workers`, SimulatedWorkers.swift): it
// speaks the protocol as a real worker does (Worker.swift, WorkerQueue.swift), but its jobs take
// simulated time, so one process can stand in for hundreds of workers and measure what the
// coordinator and the sink can carry without hundreds of cores.
//
// A state machine: messages and the clock in, frames out. It asks, holds and reports as a real
// worker: the same window (about 25 ms of work, 2 to 256 jobs), asks when half of it is left,
// heartbeats saying where it is in its chunks every 250 ms, results in groups of up to 64, sent when the
// queue runs dry, the group is full or its oldest result has waited 20 ms. Its jobs are solved
// one after another: each finishes its drawn time after the one before it.

import GridlockWire

struct SimulatedWorker {
    /// What the worker sends, and to whom.
    enum Output: Equatable {
        case toCoordinator(WireMessage)
        case toSink(WireMessage)
    }

    let identity: WorkerIdentity
    let window: Int
    /// Its mean job time, which it tells the coordinator as a real worker does.
    let meanSeconds: Double
    private var held: [WorkerQueue.QueuedJob] = []
    private var lastReceived: ChunkID?
    private var head = 0
    /// When the job at the head of `held` is done, and the time drawn for it.
    private var headDone: ContinuousClock.Instant?
    private var headSeconds = 0.0
    private var outbox: [JobResult] = []
    private var oldestResult: ContinuousClock.Instant?
    private var waitingForJobs = false
    private(set) var drained = false
    private var lastBeat: ContinuousClock.Instant
    /// The batches this worker has described its machine to the sink for.
    private var described: Set<String> = []
    private(set) var answered = 0
    /// The machine it describes to the sink.
    let machine: MachineRecord

    init(identity: WorkerIdentity, machine: MachineRecord, meanSeconds: Double, now: ContinuousClock.Instant) {
        self.identity = identity
        self.machine = machine
        self.meanSeconds = meanSeconds
        window = WorkerQueue.window(meanSeconds: meanSeconds, maximum: WireProtocol.maximumCredit)
        lastBeat = now
    }

    /// The jobs held, the one being solved first.
    var heldJobs: [Int] { held[head...].map(\.job.id) }

    /// What a heartbeat says: where it is in its chunks.
    var heldWork: HeldWork {
        HeldWork(current: head < held.count ? held[head].position : nil, lastReceived: lastReceived, jobs: held.count - head)
    }

    /// Told drained, nothing held, nothing left to send.
    var isDone: Bool { drained && head == held.count && outbox.isEmpty }

    /// The first ask.
    mutating func start() -> [Output] { ask() }

    /// A frame from the coordinator.
    mutating func receive(_ message: WireMessage, now: ContinuousClock.Instant, times: inout SimulatedJobTimes) {
        switch message {
        case .jobs(let chunks):
            let ids = Set(heldJobs)
            let wasIdle = head == held.count
            for chunk in chunks {
                for (index, job) in chunk.jobs.enumerated() where !ids.contains(job.id) {
                    held.append(WorkerQueue.QueuedJob(job: job, position: ChunkPosition(chunk: chunk.id, index: index)))
                }
                lastReceived = chunk.id
            }
            waitingForJobs = false
            drained = false
            if wasIdle, head < held.count { startHead(at: now, times: &times) }
        case .drained:
            drained = true
        default:
            break
        }
    }

    /// What is due by `now`: the jobs whose time has passed are answered, and results, asks and
    /// heartbeats go out as a real worker's would.
    mutating func advance(now: ContinuousClock.Instant, times: inout SimulatedJobTimes, answer: (Job, WorkerIdentity, Double) -> JobResult) -> [Output] {
        var outputs: [Output] = []
        while head < held.count, let done = headDone, done <= now {
            outbox.append(answer(held[head].job, identity, headSeconds))
            if oldestResult == nil { oldestResult = now }
            answered += 1
            head += 1
            headDone = nil
            // The next job starts when this one ended: the worker solves back to back.
            if head < held.count { startHead(at: done, times: &times) }
        }
        if head >= 64, head * 2 >= held.count {
            held.removeFirst(head)
            head = 0
        }
        let queueDry = head == held.count
        while let oldest = oldestResult,
            queueDry || outbox.count >= WireProtocol.resultsPerFrame || oldest.duration(to: now) >= WorkerQueue.resultDelay
        {
            let group = Array(outbox.prefix(WireProtocol.resultsPerFrame))
            outbox.removeFirst(group.count)
            for batch in Set(group.map(\.batch)) where !described.contains(batch) {
                if described.count >= 64 { described.removeAll() }
                described.insert(batch)
                outputs.append(.toSink(.machine(batch: batch, machine)))
            }
            outputs.append(.toSink(.results(group)))
            oldestResult = outbox.isEmpty ? nil : oldest
        }
        if !waitingForJobs, !drained, held.count - head <= window / 2 { outputs += ask() }
        if lastBeat.duration(to: now) >= WireProtocol.heartbeatInterval {
            outputs.append(.toCoordinator(.heartbeat(identity, heldWork)))
            // An idle worker asks again, as a real one does: its last ask may have been lost.
            if head == held.count, !drained { outputs += ask() }
            lastBeat = now
        }
        return outputs
    }

    /// When this worker next has something to do, if it holds anything.
    var nextEvent: ContinuousClock.Instant {
        var next = lastBeat.advanced(by: WireProtocol.heartbeatInterval)
        if let headDone { next = min(next, headDone) }
        if let oldestResult { next = min(next, oldestResult.advanced(by: WorkerQueue.resultDelay)) }
        return next
    }

    private mutating func startHead(at start: ContinuousClock.Instant, times: inout SimulatedJobTimes) {
        headSeconds = times.next()
        headDone = start.advanced(by: .seconds(headSeconds))
    }

    private mutating func ask() -> [Output] {
        let credit = window - (held.count - head)
        guard credit > 0 else { return [] }
        waitingForJobs = true
        return [.toCoordinator(.heartbeat(identity, heldWork)), .toCoordinator(.ready(identity, credit: credit, jobSeconds: meanSeconds))]
    }
}
