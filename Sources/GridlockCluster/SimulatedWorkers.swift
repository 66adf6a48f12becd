// `gridlock simulate-workers`: many workers (SimulatedWorker.swift) from one process, each with
// its own sockets to the coordinator and the sink, as real workers have. One thread polls every
// worker's coordinator socket and advances each worker's clock; nothing blocks on any one.
//
// Answers are real: each distinct job (by fingerprint) is solved once, by the worker's own code
// (JobRunner), and its answer reused, so the sink stores and checks what a worker would send.
// Only the time a job takes is simulated. Use a batch of few distinct puzzles (the same trivial
// board a million times), or the generator spends its time solving, as a worker would.

import Foundation
import GridlockClusterBase
import GridlockWire
import ZeroMQ

public enum SimulatedWorkers {
    public struct Configuration: Sendable {
        public var coordinator: String
        public var sink: String
        public var count: Int
        /// The simulated workers' host name; worker i is "host:i".
        public var host: String
        public var times: SimulatedJobTimes
        public var key: ClusterKey?
        public var curve: RoleKeys?
        /// Give up after hearing nothing from the coordinator for this long.
        public var coordinatorSilenceLimit: Duration = .seconds(30)

        public init(coordinator: String, sink: String, count: Int, host: String, times: SimulatedJobTimes) {
            self.coordinator = coordinator
            self.sink = sink
            self.count = count
            self.host = host
            self.times = times
        }

        public var security: WireSecurity { curve != nil ? .curve : key != nil ? .sharedKey : .insecure }
    }

    public struct Outcome: Sendable, Hashable {
        public var answered: Int
        public var seconds: Double
        /// Distinct jobs solved for real (the rest reused an answer).
        public var solved: Int
        public var coordinatorSilent: Bool
    }

    public static func run(_ configuration: Configuration, context: ZMQContext, stop: StopFlag) throws -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let machine = MachineRecord.current(host: configuration.host)
        var workers = (0..<configuration.count).map {
            SimulatedWorker(
                identity: WorkerIdentity(host: configuration.host, pid: $0 + 1), machine: machine,
                meanSeconds: configuration.times.meanSeconds, now: start)
        }
        var coordinators: [ZMQSocket] = []
        var sinks: [ZMQSocket] = []
        defer {
            for socket in coordinators { socket.close() }
            for socket in sinks { socket.close() }
        }
        for worker in workers {
            let coordinator = try ZMQSocket(context, .dealer)
            try coordinator.set(.routingID(Array(worker.identity.description.utf8)))
            try coordinator.set(.lingerMilliseconds(0))
            try coordinator.set(.maximumMessageBytes(WireProtocol.maximumFrameBytes))
            if let curve = configuration.curve { try coordinator.secure(curve.client(of: .coordinator)) }
            try coordinator.connect(configuration.coordinator)
            coordinators.append(coordinator)
            let sink = try ZMQSocket(context, .push)
            try sink.set(.lingerMilliseconds(5_000))
            if let curve = configuration.curve { try sink.secure(curve.client(of: .sink)) }
            try sink.connect(configuration.sink)
            sinks.append(sink)
        }
        let answers = AnswerBook()
        var times = configuration.times
        var unsent = [[[[UInt8]]]](repeating: [], count: workers.count)
        var lastHeard = clock.now
        func send(_ outputs: [SimulatedWorker.Output], from index: Int) throws {
            for output in outputs {
                switch output {
                case .toCoordinator(let message):
                    _ = try coordinators[index].send(message.frames(key: configuration.key), dontWait: true)
                case .toSink(let message):
                    unsent[index].append(message.frames(key: configuration.key))
                }
            }
            while let frames = unsent[index].first, try sinks[index].send(frames, dontWait: true) {
                unsent[index].removeFirst()
            }
        }
        for index in workers.indices { try send(workers[index].start(), from: index) }
        while !stop.isStopped {
            let now = clock.now
            let next = workers.lazy.map(\.nextEvent).min() ?? now
            let wait = min(max(.zero, now.duration(to: next)), WireProtocol.pollInterval)
            let readable = try ZMQPoller.readable(coordinators, timeout: wait)
            let after = clock.now
            for index in workers.indices where readable[index] {
                while let frames = try coordinators[index].receive() {
                    guard frames.count == 1, let message = try? WireMessage.decode(frames[0]) else { continue }
                    lastHeard = after
                    workers[index].receive(message, now: after, times: &times)
                }
            }
            for index in workers.indices {
                let outputs = workers[index].advance(now: after, times: &times, answer: answers.answer)
                if !outputs.isEmpty || !unsent[index].isEmpty { try send(outputs, from: index) }
            }
            if workers.allSatisfy(\.isDone), unsent.allSatisfy(\.isEmpty) { break }
            if lastHeard.duration(to: after) > configuration.coordinatorSilenceLimit {
                return outcome(workers, answers, start: start, clock: clock, silent: true)
            }
        }
        return outcome(workers, answers, start: start, clock: clock, silent: false)
    }

    private static func outcome(
        _ workers: [SimulatedWorker], _ answers: AnswerBook, start: ContinuousClock.Instant, clock: ContinuousClock, silent: Bool
    ) -> Outcome {
        Outcome(
            answered: workers.reduce(0) { $0 + $1.answered }, seconds: Double(seconds: start.duration(to: clock.now)),
            solved: answers.solved, coordinatorSilent: silent)
    }
}

/// Real answers for simulated workers: each distinct job solved once, its answer reused for the
/// same job again (same fingerprint), with the job's own number, lease and source.
final class AnswerBook {
    /// Enough for a batch's distinct boards; past it the book starts again, not grows.
    static let capacity = 65_536
    private var answers: [JobFingerprint: JobResult] = [:]
    private let meter = PeakMemoryMeter()
    private(set) var solved = 0

    func answer(_ job: Job, worker: WorkerIdentity, seconds: Double) -> JobResult {
        var result: JobResult
        if let known = answers[job.fingerprint] {
            result = known
        } else {
            result = JobRunner.run(job, worker: worker, meter: meter)
            solved += 1
            if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
            // An invalid or failed job's error names its own line: not reused.
            if result.status.isAnswer { answers[job.fingerprint] = result }
        }
        // The job's own fields, as `JobResult(answering:)` takes them; the answer's stay.
        let asked = JobResult(answering: job, worker: worker, status: result.status)
        result.batch = asked.batch
        result.job = asked.job
        result.attempt = asked.attempt
        result.worker = asked.worker
        result.kind = asked.kind
        result.puzzle = asked.puzzle
        result.solver = asked.solver
        result.source = asked.source
        result.options = asked.options
        result.fingerprint = asked.fingerprint
        result.lease = asked.lease
        result.repetition = asked.repetition
        result.seconds = seconds
        result.cpuSeconds = seconds
        return result
    }
}
