// What a worker's socket thread and solver thread share: the jobs it holds, the results not yet
// sent, and how many jobs it should hold.
//
//   socket thread --add(jobs)--> [queued ...] --next()--> solver thread (running)
//   socket thread <--takeResults()-- [outbox ...] <--finished(result)--+
//                 <-------- wake (a pipe) when the outbox should go or the queue runs low
//
// The solver thread rings only when the socket thread has something to do: results to send
// (the queue ran dry, 64 are waiting, or the oldest has waited 20 ms) or jobs to ask for (the
// queue fell to half the window). Short jobs so cost a wake-up per group, not per job. It rings
// once until the socket thread takes the results: the pipe holds the ring until then, and on a
// busy machine the socket thread may wait for a core while the solver finishes many more jobs,
// each of which would otherwise write to the pipe again (a tenth of a trivial job's time).
//
// The window follows the jobs: enough to keep the solver busy for about 25 ms, from 2 (long
// jobs: little to re-issue if this worker dies, and no batch's tail waits behind a worker
// hoarding slow jobs) to 256 (trivial jobs, where the round trip to the coordinator would
// otherwise dominate).

import Foundation
import GridlockWire

final class WorkerQueue: @unchecked Sendable {
    static let minimumWindow = 2
    static let queuedSeconds = 0.025
    static let resultDelay: Duration = .milliseconds(20)

    private let condition = NSCondition()
    private var queued: [QueuedJob] = []
    private var head = 0
    private var running: Int?
    /// The running job's batch: a job is the same job only in the same batch.
    private var runningBatch: String?
    /// Where the running job came, and the newest chunk received: what the heartbeat says.
    private var runningAt: ChunkPosition?
    private var lastReceived: ChunkID?
    private var outbox: [JobResult] = []
    private var oldestResult: ContinuousClock.Instant?
    private var askedForMore = false
    /// Rung since the socket thread last took the results.
    private var rung = false
    /// A moving average of the time a job takes, parsing and measuring included.
    private var meanSeconds: Double?
    private var stopped = false
    let wake: WakeSignal
    /// The user's cap on the window.
    let maximumWindow: Int

    init(wake: WakeSignal, maximumWindow: Int = WireProtocol.maximumCredit) {
        self.wake = wake
        self.maximumWindow = max(1, min(maximumWindow, WireProtocol.maximumCredit))
    }

    // MARK: The socket thread

    /// A job held, and where it came.
    struct QueuedJob {
        var job: Job
        var position: ChunkPosition
    }

    /// A job's identity across batches: a worker that stays for the next batch may still hold
    /// the last one's job of the same number.
    struct JobKey: Hashable {
        var batch: String
        var id: Int
    }

    /// Queues chunks' jobs, skipping any already held (a coordinator may re-send after a
    /// restart): the position moves past a skipped job, so the coordinator counts it finished
    /// and the other copy's result answers it.
    func add(_ chunks: [JobChunk]) {
        condition.withLock {
            var held = Set(queued[head...].map { JobKey(batch: $0.job.batch, id: $0.job.id) })
            if let running, let runningBatch { held.insert(JobKey(batch: runningBatch, id: running)) }
            for chunk in chunks {
                for (index, job) in chunk.jobs.enumerated() where !held.contains(JobKey(batch: job.batch, id: job.id)) {
                    queued.append(QueuedJob(job: job, position: ChunkPosition(chunk: chunk.id, index: index)))
                }
                lastReceived = chunk.id
            }
            askedForMore = false
            condition.signal()
        }
    }

    /// Where this worker is in its chunks, in a few words: what the heartbeat says.
    func held() -> HeldWork {
        condition.withLock {
            HeldWork(current: runningAt ?? (head < queued.count ? queued[head].position : nil), lastReceived: lastReceived, jobs: heldCountLocked())
        }
    }

    /// The jobs held, the running one first.
    func heldIDs() -> [Int] {
        condition.withLock { heldIDsLocked() }
    }

    /// Its mean job time so far, which sizes the chunks it is sent (nil: no job finished yet).
    var jobSeconds: Double? {
        condition.withLock { meanSeconds }
    }

    /// How many more jobs to ask for, or nil when the queue is still more than half full.
    func credit(whenIdleOnly: Bool = false) -> Int? {
        condition.withLock {
            let held = heldCountLocked()
            let window = windowLocked()
            if whenIdleOnly ? held > 0 : held > window / 2 { return nil }
            return window - held
        }
    }

    /// The results waiting to be sent, taken out of the queue.
    func takeResults() -> [JobResult] {
        condition.withLock {
            defer {
                outbox.removeAll(keepingCapacity: true)
                oldestResult = nil
                rung = false
            }
            return outbox
        }
    }

    /// Jobs kept in memory, taken ones included until they are dropped.
    var storedJobs: Int {
        condition.withLock { queued.count }
    }

    /// Nothing queued, nothing running, no result waiting.
    var isIdle: Bool {
        condition.withLock { running == nil && head == queued.count && outbox.isEmpty }
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    // MARK: The solver thread

    /// The next job, waiting for one; nil once stopped.
    func next() -> Job? { take()?.job }

    /// The next job, and whether the thread had to wait for it (slept, so its CPU clock must
    /// be read: JobCPUClock); nil once stopped.
    func take() -> (job: Job, waited: Bool)? {
        condition.withLock {
            var waited = false
            while head == queued.count, !stopped {
                waited = true
                condition.wait()
            }
            guard !stopped else { return nil }
            let (job, position) = (queued[head].job, queued[head].position)
            head += 1
            // The socket thread refills the queue before it runs dry, so taken jobs are dropped
            // once they are half of it, not only when it empties (which may never happen).
            if head >= 64, head * 2 >= queued.count {
                queued.removeFirst(head)
                head = 0
            }
            running = job.id
            runningBatch = job.batch
            runningAt = position
            return (job, waited)
        }
    }

    /// Hands a result over, and rings when the socket thread should act.
    func finished(_ result: JobResult, seconds: Double) {
        let now = ContinuousClock.now
        let shouldWake = condition.withLock {
            running = nil
            runningBatch = nil
            runningAt = nil
            outbox.append(result)
            if oldestResult == nil { oldestResult = now }
            meanSeconds = meanSeconds.map { $0 * 0.9 + seconds * 0.1 } ?? seconds
            let remaining = queued.count - head
            let lowOnJobs = !askedForMore && remaining <= windowLocked() / 2
            if lowOnJobs { askedForMore = true }
            let due = remaining == 0 || lowOnJobs || outbox.count >= WireProtocol.resultsPerFrame
                || oldestResult!.duration(to: now) >= Self.resultDelay
            guard due, !rung else { return false }
            rung = true
            return true
        }
        if shouldWake { wake.ring() }
    }

    // MARK: Under the lock

    private func heldIDsLocked() -> [Int] {
        (running.map { [$0] } ?? []) + queued[head...].map(\.job.id)
    }

    private func heldCountLocked() -> Int {
        (running == nil ? 0 : 1) + queued.count - head
    }

    private func windowLocked() -> Int {
        guard let meanSeconds, meanSeconds > 0 else { return min(4, maximumWindow) }  // Until the first job says how long jobs take.
        return Self.window(meanSeconds: meanSeconds, maximum: maximumWindow)
    }

    /// The jobs to hold when a job takes `meanSeconds`: about 25 ms of work, from 2 to
    /// `maximum` (which a job of no measurable time gets). Simulated workers hold the same.
    static func window(meanSeconds: Double, maximum: Int) -> Int {
        guard meanSeconds > 0 else { return maximum }
        let window = queuedSeconds / meanSeconds
        return window >= Double(maximum) ? maximum : min(maximum, max(minimumWindow, Int(window)))
    }
}
