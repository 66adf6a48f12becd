// The worker's queue: which jobs it holds, how many it asks for as job times change, and when
// the solver thread wakes the socket thread (only when there is something to do).

import Foundation
import GridlockWire
import Testing

@testable import GridlockCluster

@Suite("Worker queue")
struct WorkerQueueTests {
    static func jobs(_ ids: Range<Int>) -> [Job] {
        ids.map { Job(batch: "b", id: $0, attempt: 1, kind: .rushhour, puzzle: "", solver: "bfs", maxStates: 1, timeoutSeconds: nil) }
    }

    /// The jobs as one chunk numbered `id`.
    static func chunks(_ ids: Range<Int>, id: UInt64 = 1) -> [JobChunk] {
        [JobChunk(id: ChunkID(id), jobs: jobs(ids))]
    }

    static func result(_ job: Job) -> JobResult {
        JobResult(batch: job.batch, job: job.id, attempt: job.attempt, worker: WorkerIdentity(host: "h", pid: 1), status: .solved)
    }

    /// Whether the wake signal has rung since it was last consumed (consuming it).
    static func rang(_ signal: WakeSignal) -> Bool {
        var item = pollfd(fd: signal.descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&item, 1, 0) == 1
        signal.consume()
        return ready
    }

    @Test("the window holds about 25 ms of work, from 2 jobs to 256, and never more than the user's cap")
    func windowFollowsJobTimes() throws {
        let queue = WorkerQueue(wake: try WakeSignal())
        #expect(queue.credit() == 4)  // Before any job has said how long jobs take.
        for (seconds, window) in [(0.001, 25), (0.00001, 256), (2.0, 2)] {
            // The average moves a tenth of the way each job: fifty jobs settle it.
            for _ in 0..<50 {
                queue.add(Self.chunks(0..<1))
                let job = try #require(queue.next())
                queue.finished(Self.result(job), seconds: seconds)
            }
            _ = queue.takeResults()
            #expect(queue.credit() == window, "jobs of \(seconds) s")
        }
        let capped = WorkerQueue(wake: try WakeSignal(), maximumWindow: 1)
        #expect(capped.credit() == 1)
    }

    @Test("held jobs list the running one first; credit waits until half the window is used")
    func heldAndCredit() throws {
        let queue = WorkerQueue(wake: try WakeSignal())
        let one = ChunkID(1), two = ChunkID(2)
        #expect(queue.held() == .nothing)
        queue.add(Self.chunks(10..<14, id: 1))
        #expect(queue.credit() == nil)
        #expect(queue.credit(whenIdleOnly: true) == nil)
        #expect(queue.held() == HeldWork(current: ChunkPosition(chunk: one, index: 0), lastReceived: one, jobs: 4))
        let first = try #require(queue.next())
        #expect(first.id == 10)
        #expect(queue.heldIDs() == [10, 11, 12, 13])
        queue.add(Self.chunks(12..<15, id: 2))  // 12 and 13 are held already: only 14 is new.
        #expect(queue.heldIDs() == [10, 11, 12, 13, 14])
        #expect(queue.held() == HeldWork(current: ChunkPosition(chunk: one, index: 0), lastReceived: two, jobs: 5))
        queue.finished(Self.result(first), seconds: 0.00625)  // Keeps the window at 4.
        // Between jobs, it is at the next one.
        #expect(queue.held() == HeldWork(current: ChunkPosition(chunk: one, index: 1), lastReceived: two, jobs: 4))
        _ = try #require(queue.next())
        _ = try #require(queue.next())
        #expect(queue.heldIDs() == [12, 13, 14])
        #expect(queue.held() == HeldWork(current: ChunkPosition(chunk: one, index: 2), lastReceived: two, jobs: 3))
        #expect(queue.credit() == nil)
        queue.finished(Self.result(first), seconds: 0.00625)
        #expect(queue.heldIDs() == [13, 14])
        #expect(queue.credit() == 2)
        #expect(!queue.isIdle)
        // Past 13, the next is 14, at index 2 of the second chunk: the skipped copies count as finished.
        _ = try #require(queue.next())
        queue.finished(Self.result(first), seconds: 0.00625)
        #expect(queue.held() == HeldWork(current: ChunkPosition(chunk: two, index: 2), lastReceived: two, jobs: 1))
        _ = try #require(queue.next())
        queue.finished(Self.result(first), seconds: 0.00625)
        #expect(queue.held() == HeldWork(current: nil, lastReceived: two, jobs: 0))
        #expect(queue.jobSeconds != nil)
    }

    @Test("the solver thread rings when results should go or jobs run low, not after every job")
    func wakeRules() throws {
        let signal = try WakeSignal()
        let queue = WorkerQueue(wake: signal)
        queue.add(Self.chunks(0..<8))
        var job = try #require(queue.next())
        queue.finished(Self.result(job), seconds: 0.00625)  // 7 left of a window of 4: nothing to do yet.
        #expect(!Self.rang(signal))
        for _ in 0..<5 {
            job = try #require(queue.next())
            queue.finished(Self.result(job), seconds: 0.00625)
        }
        #expect(Self.rang(signal))  // Down to 2 jobs, half the window: time to ask for more...
        #expect(queue.takeResults().map(\.job) == [0, 1, 2, 3, 4, 5])
        job = try #require(queue.next())
        queue.finished(Self.result(job), seconds: 0.00625)
        #expect(!Self.rang(signal))  // ...said once, not again until jobs arrive.
        job = try #require(queue.next())
        queue.finished(Self.result(job), seconds: 0.00625)
        #expect(Self.rang(signal))  // The queue ran dry: the results must go now.
        #expect(queue.takeResults().map(\.job) == [6, 7])
        #expect(queue.isIdle)
    }

    @Test("results wait at most 20 ms, and at most 64 of them")
    func resultsDoNotWaitLong() throws {
        let signal = try WakeSignal()
        let queue = WorkerQueue(wake: signal, maximumWindow: 256)
        queue.add(Self.chunks(0..<200))
        var job = try #require(queue.next())
        queue.finished(Self.result(job), seconds: 0.0001)
        #expect(!Self.rang(signal))
        Thread.sleep(forTimeInterval: 0.021)
        job = try #require(queue.next())
        queue.finished(Self.result(job), seconds: 0.0001)
        #expect(Self.rang(signal))
        #expect(queue.takeResults().count == 2)
        for _ in 0..<63 {
            job = try #require(queue.next())
            queue.finished(Self.result(job), seconds: 0.0001)
        }
        #expect(!Self.rang(signal))
        job = try #require(queue.next())
        queue.finished(Self.result(job), seconds: 0.0001)
        #expect(Self.rang(signal))
    }

    @Test("the solver thread rings once until the socket thread takes the results, however many jobs end meanwhile")
    func ringsOncePerTake() throws {
        let signal = try WakeSignal()
        let queue = WorkerQueue(wake: signal, maximumWindow: 256)
        queue.add(Self.chunks(0..<600))  // Never low on jobs here: only the results ring.
        /// The bytes written to the pipe since it was last read: one per ring.
        func rings() -> Int {
            var bytes = [UInt8](repeating: 0, count: 4096)
            return max(0, read(signal.descriptor, &bytes, bytes.count))
        }
        func finish(_ count: Int) throws {
            for _ in 0..<count {
                let job = try #require(queue.next())
                queue.finished(Self.result(job), seconds: 0.0001)
            }
        }
        try finish(64)
        // The socket thread is slow to come (a busy machine): every job after the 64th is due
        // to go, and none of them rings again.
        try finish(100)
        #expect(rings() == 1)
        #expect(queue.takeResults().count == 164)
        try finish(63)
        #expect(rings() == 0)
        try finish(1)
        #expect(rings() == 1)  // Taken since: the next full group rings again.
    }

    @Test("a queue refilled before it runs dry does not keep the jobs it handed out")
    func takenJobsAreDropped() throws {
        let queue = WorkerQueue(wake: try WakeSignal())
        queue.add(Self.chunks(0..<4))
        for id in 4..<100_004 {
            let job = try #require(queue.next())
            #expect(job.id == id - 4)
            queue.finished(Self.result(job), seconds: 0.001)
            _ = queue.takeResults()
            queue.add(Self.chunks(id..<(id + 1)))
        }
        #expect(queue.heldIDs().count == 4)
        #expect(queue.storedJobs < 200)
    }

    @Test("a job of another batch with a number it holds is no duplicate: a worker that stays for the next batch queues it")
    func duplicatesAreByBatch() throws {
        let queue = WorkerQueue(wake: try WakeSignal())
        queue.add(Self.chunks(5..<7, id: 1))
        _ = try #require(queue.next())  // Job 5 of batch b runs.
        let other = (5..<7).map { Job(batch: "next", id: $0, attempt: 1, kind: .rushhour, puzzle: "", solver: "bfs", maxStates: 1, timeoutSeconds: nil) }
        queue.add([JobChunk(id: ChunkID(2), jobs: other)])
        queue.add(Self.chunks(5..<7, id: 3))  // Batch b's again: held, skipped.
        #expect(queue.heldIDs() == [5, 6, 5, 6])
        #expect(queue.held().jobs == 4)
    }

    @Test("a stopped queue hands out no more jobs")
    func stop() throws {
        let queue = WorkerQueue(wake: try WakeSignal())
        queue.add(Self.chunks(0..<3))
        queue.stop()
        #expect(queue.next() == nil)
    }

    @Test("rings add up to one wake-up, and consuming silences them")
    func wakeSignal() throws {
        let signal = try WakeSignal()
        #expect(!Self.rang(signal))
        for _ in 0..<10_000 { signal.ring() }  // More than a pipe holds: never blocks.
        #expect(Self.rang(signal))
        #expect(!Self.rang(signal))
    }
}
