// The load generator's simulated worker: it asks, holds, answers and reports as a real worker
// does, with each job taking its drawn time, one after another.

import Foundation
import GridlockWire
import Testing

@testable import GridlockCluster

@Suite("Simulated worker")
struct SimulatedWorkerTests {
    static let identity = WorkerIdentity(host: "sim", pid: 1)
    static let machine = MachineRecord.current(host: "sim")

    static func answer(_ job: Job, _ worker: WorkerIdentity, _ seconds: Double) -> JobResult {
        var result = JobResult(answering: job, worker: worker, status: .solved)
        result.seconds = seconds
        return result
    }

    static func results(_ outputs: [SimulatedWorker.Output]) -> [JobResult] {
        outputs.flatMap { output -> [JobResult] in
            if case .toSink(.results(let results)) = output { return results }
            return []
        }
    }

    static func credits(_ outputs: [SimulatedWorker.Output]) -> [Int] {
        outputs.compactMap { output in
            if case .toCoordinator(.ready(_, let credit, _)) = output { return credit }
            return nil
        }
    }

    @Test("it asks for the window a real worker would hold: 256 trivial jobs, 2 of a second")
    func asksForItsWindow() {
        let now = ContinuousClock.now
        for (mean, credit) in [(0.0, 256), (0.001, 25), (1.0, 2)] {
            var worker = SimulatedWorker(identity: Self.identity, machine: Self.machine, meanSeconds: mean, now: now)
            #expect(Self.credits(worker.start()) == [credit], "jobs of \(mean) s")
        }
    }

    @Test("jobs are answered one after another, each at its drawn time, never before; results go when the queue runs dry")
    func answersInSimulatedTime() {
        let start = ContinuousClock.now
        var times = SimulatedJobTimes.fixed(0.1)
        var worker = SimulatedWorker(identity: Self.identity, machine: Self.machine, meanSeconds: 0.1, now: start)
        _ = worker.start()
        worker.receive(.jobs(WorkerQueueTests.chunks(0..<2)), now: start, times: &times)
        #expect(worker.heldJobs == [0, 1])
        #expect(Self.results(worker.advance(now: start.advanced(by: .milliseconds(99)), times: &times, answer: Self.answer)).isEmpty)
        // The first is done at 0.1 s; the second is still running, so nothing is sent yet.
        #expect(Self.results(worker.advance(now: start.advanced(by: .milliseconds(150)), times: &times, answer: Self.answer)).isEmpty)
        #expect(worker.answered == 1 && worker.heldJobs == [1])
        let sent = Self.results(worker.advance(now: start.advanced(by: .milliseconds(200)), times: &times, answer: Self.answer))
        #expect(sent.map(\.job) == [0, 1])
        #expect(sent.allSatisfy { $0.seconds == 0.1 })
        #expect(worker.heldJobs.isEmpty && !worker.isDone)
        worker.receive(.drained, now: start, times: &times)
        #expect(worker.isDone)
    }

    @Test("a job it already holds is not queued twice; every heartbeat says where it is in its chunks")
    func heartbeatsListHeldJobs() {
        let start = ContinuousClock.now
        var times = SimulatedJobTimes.fixed(1)
        var worker = SimulatedWorker(identity: Self.identity, machine: Self.machine, meanSeconds: 1, now: start)
        _ = worker.start()
        worker.receive(.jobs(WorkerQueueTests.chunks(0..<2)), now: start, times: &times)
        worker.receive(.jobs(WorkerQueueTests.chunks(1..<2, id: 2)), now: start, times: &times)
        #expect(worker.heldJobs == [0, 1])
        let outputs = worker.advance(now: start.advanced(by: .milliseconds(260)), times: &times, answer: Self.answer)
        let held = HeldWork(current: ChunkPosition(chunk: ChunkID(1), index: 0), lastReceived: ChunkID(2), jobs: 2)
        #expect(outputs.contains(.toCoordinator(.heartbeat(Self.identity, held))))
        #expect(worker.nextEvent <= start.advanced(by: .seconds(1)))
    }

    @Test("full groups of 64 results go at once, the sink hearing of the machine first, once a batch")
    func resultsInGroups() {
        let start = ContinuousClock.now
        var times = SimulatedJobTimes.fixed(0)
        var worker = SimulatedWorker(identity: Self.identity, machine: Self.machine, meanSeconds: 0, now: start)
        _ = worker.start()
        worker.receive(.jobs(WorkerQueueTests.chunks(0..<200)), now: start, times: &times)
        let outputs = worker.advance(now: start, times: &times, answer: Self.answer)
        let groups = outputs.compactMap { output -> Int? in
            if case .toSink(.results(let results)) = output { return results.count }
            return nil
        }
        #expect(groups == [64, 64, 64, 8])
        let machines = outputs.filter { if case .toSink(.machine) = $0 { true } else { false } }
        #expect(machines.count == 1)
        if case .toSink(.machine(let batch, _)) = outputs.first { #expect(batch == "b") } else { Issue.record("the machine is not described first") }
        // Dry, so it asks for a full window again.
        #expect(Self.credits(outputs) == [256])
    }

    @Test("times drawn from samples come from the samples, in an order the seed fixes")
    func drawnTimes() {
        var first = SimulatedJobTimes(samples: [0.1, 0.2, 0.3], seed: 7)
        var second = SimulatedJobTimes(samples: [0.1, 0.2, 0.3], seed: 7)
        let draws = (0..<50).map { _ in first.next() }
        #expect(draws == (0..<50).map { _ in second.next() })
        #expect(Set(draws) == [0.1, 0.2, 0.3])
        #expect(abs(first.meanSeconds - 0.2) < 1e-12)
    }
}
