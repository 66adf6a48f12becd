// `gridlock worker`: asks the coordinator for a job, solves it, sends the result to the sink,
// asks again; one job at a time.
//
//   coordinator <--ready, heartbeat-- [DEALER]   socket thread   [PUSH] --result--> sink
//                 --job, drained-->       |                        ^
//                                   [PAIR inproc] <--job/result--> solver thread
//
// Solving runs on a thread of its own so the socket thread keeps heartbeating through a long
// job; the inproc PAIR wakes the socket thread the moment a result is ready (no polling
// delay). ZeroMQ reconnects by itself when the coordinator or the sink restarts; an idle worker
// keeps saying so with heartbeats, so a restarted coordinator learns it exists.

import Foundation
import GridlockWire
import ZeroMQ

public enum Worker {
    public struct Configuration: Sendable {
        public var coordinator: String
        public var sink: String
        public var identity: WorkerIdentity
        /// Exit when the coordinator says the batch is drained (a batch's own workers do);
        /// otherwise keep asking, for the next batch.
        public var exitWhenDrained: Bool
        /// How many jobs to hold at once (one solving, the rest queued), so that the next job is
        /// already here when one finishes. More hides more latency but leaves more to re-issue
        /// if this worker dies.
        public var window = 4
        public var heartbeatInterval = WireProtocol.heartbeatInterval

        public init(coordinator: String, sink: String, identity: WorkerIdentity, exitWhenDrained: Bool) {
            self.coordinator = coordinator
            self.sink = sink
            self.identity = identity
            self.exitWhenDrained = exitWhenDrained
        }
    }

    /// Runs until drained (if asked to exit then) or `stop`; returns the number of jobs solved.
    public static func run(_ configuration: Configuration, context: ZMQContext, stop: StopFlag) throws -> Int {
        let coordinator = try ZMQSocket(context, .dealer)
        try coordinator.set(.routingID(Array(configuration.identity.description.utf8)))
        try coordinator.set(.lingerMilliseconds(0))
        try coordinator.set(.maximumMessageBytes(WireProtocol.maximumFrameBytes))
        try coordinator.set(.reconnectIntervalMilliseconds(100))
        try coordinator.connect(configuration.coordinator)
        let sink = try ZMQSocket(context, .push)
        // Results must survive close (LINGER 0 drops them), but a dead sink must not hang exit.
        try sink.set(.lingerMilliseconds(5_000))
        try sink.set(.reconnectIntervalMilliseconds(100))
        try sink.connect(configuration.sink)
        let solverEndpoint = "inproc://solver-\(configuration.identity.pid)"
        let solver = try ZMQSocket(context, .pair)
        try solver.bind(solverEndpoint)
        let solverStop = StopFlag()
        let solverThread = Thread {
            runSolver(endpoint: solverEndpoint, context: context, identity: configuration.identity, stop: solverStop)
        }
        solverThread.start()
        defer {
            solverStop.stop()
            coordinator.close()
            sink.close()
            solver.close()
        }

        var queued: [(id: Int, frame: [UInt8])] = []
        var solving: Int?
        var solved = 0
        var pendingResults: [[UInt8]] = []
        var drained = false
        let clock = ContinuousClock()
        var lastBeat = clock.now
        func held() -> [Int] { (solving.map { [$0] } ?? []) + queued.map(\.id) }
        func askForMore() throws {
            let credit = configuration.window - held().count
            if credit > 0 { try coordinator.send([WireMessage.ready(configuration.identity, credit: credit).encoded()], dontWait: true) }
        }
        try askForMore()
        while !stop.isStopped {
            let readable = try ZMQPoller.readable([coordinator, solver], timeout: configuration.heartbeatInterval)
            if readable[0] {
                while let frames = try coordinator.receive() {
                    switch frames.count == 1 ? try? WireMessage.decode(frames[0]) : nil {
                    case .job(let job)?:
                        if !held().contains(job.id) { queued.append((job.id, frames[0])) }
                        drained = false
                    case .drained?:
                        drained = true
                    default:
                        break  // A stray or malformed frame: dropped.
                    }
                }
            }
            if readable[1], let frames = try solver.receive() {
                pendingResults.append(frames[0])
                solving = nil
                solved += 1
            }
            while let result = pendingResults.first, try sink.send([result], dontWait: true) {
                pendingResults.removeFirst()
            }
            if solving == nil, !queued.isEmpty {
                let next = queued.removeFirst()
                solving = next.id
                try solver.send([next.frame])
            }
            if readable[1] { try askForMore() }
            if drained, configuration.exitWhenDrained, held().isEmpty, pendingResults.isEmpty { return solved }
            if lastBeat.duration(to: clock.now) >= configuration.heartbeatInterval {
                try coordinator.send([WireMessage.heartbeat(configuration.identity, jobs: held()).encoded()], dontWait: true)
                // An idle worker asks again: a restarted coordinator has forgotten the last ask.
                if held().isEmpty, !drained { try askForMore() }
                lastBeat = clock.now
            }
        }
        return solved
    }

    /// The solver thread: takes a job frame, answers with a result frame. A frame that is not
    /// a job is answered with a `failed` result rather than ignored, so the worker never stalls.
    private static func runSolver(endpoint: String, context: ZMQContext, identity: WorkerIdentity, stop: StopFlag) {
        guard let socket = try? ZMQSocket(context, .pair), (try? socket.connect(endpoint)) != nil else { return }
        defer { socket.close() }
        while !stop.isStopped {
            guard let readable = try? ZMQPoller.readable([socket], timeout: WireProtocol.pollInterval), readable[0],
                  let frames = try? socket.receive(), let frame = frames.first
            else { continue }
            let result: JobResult
            if case .job(let job)? = try? WireMessage.decode(frame) {
                result = JobRunner.run(job, worker: identity)
            } else {
                result = JobResult(batch: "", job: -1, attempt: 0, worker: identity, status: "failed")
            }
            _ = try? socket.send([WireMessage.result(result).encoded()])
        }
    }
}
