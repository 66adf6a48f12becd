// `gridlock worker`: asks the coordinator for jobs, solves them one at a time, sends the
// results to the sink in groups, asks again.
//
//   coordinator <--ready, heartbeat-- [DEALER]  socket thread  [PUSH] --results--> sink
//                 --jobs, drained-->      |   ^
//                                  WorkerQueue  wake (pipe)  
//                                         |   |
//                                    solver thread
//
// Solving runs on a thread of its own so the socket thread keeps heartbeating through a long
// job. The solver thread holds no socket: it rings the socket thread when there are results to
// send or jobs to ask for (WorkerQueue.swift says when). ZeroMQ reconnects by itself when the
// coordinator or the sink restarts; an idle worker keeps saying so with heartbeats, so a
// restarted coordinator learns it exists.

import Foundation
import GridlockClusterBase
import GridlockCore
import Synchronization
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
        /// The most jobs to hold at once (one solving, the rest queued). Below it the window
        /// adapts to about 25 ms of work (WorkerQueue.swift); a dead worker's jobs are re-issued.
        public var maximumWindow = WireProtocol.maximumCredit
        public var heartbeatInterval = WireProtocol.heartbeatInterval
        /// Exit after hearing nothing from the coordinator for this long (it says `alive` every
        /// second): its host died, or it ended while this worker was stopped. nil: never.
        public var coordinatorSilenceLimit: Duration? = .seconds(120)
        /// Exit after this long without a connection to the sink (SinkConnection.swift): its
        /// results could not go anywhere. nil: never.
        public var sinkSilenceLimit: Duration? = .seconds(120)
        /// The cluster's key: a keyed coordinator hands jobs only to a worker whose asks carry
        /// its tag (ClusterKey.swift).
        public var key: ClusterKey?
        /// CURVE: this worker's key pair, and the coordinator's and the sink's public keys, the
        /// only servers it talks to. A CURVE worker holds no cluster key (KeyDirectory.swift).
        public var curve: RoleKeys?
        /// What each job's search may hold (SolveOptions.memoryBudgetBytes).
        public var memoryBudgetBytes = SolveOptions.defaultMemoryBudgetBytes
        /// Outside solvers this worker runs (`--external`), beside the built-in ones.
        public var external: [ExternalSolver] = []
        /// How often to say that the coordinator has not been heard from (a dead or misspelt
        /// address is otherwise silent until the silence limit); nil: never.
        public var silenceNoticeInterval: Duration? = .seconds(5)
        /// Where those notices go (standard error, for `gridlock worker`).
        public var log: @Sendable (String) -> Void = { _ in }
        /// Told, from the socket loop at each turn (at least once a heartbeat interval), how
        /// many jobs this worker has solved: its metrics, and its liveness (RoleHealth).
        public var turned: (@Sendable (_ solved: Int) -> Void)?

        public init(coordinator: String, sink: String, identity: WorkerIdentity, exitWhenDrained: Bool) {
            self.coordinator = coordinator
            self.sink = sink
            self.identity = identity
            self.exitWhenDrained = exitWhenDrained
        }
    }

    /// How a worker's run ended.
    public struct Outcome: Sendable, Hashable {
        public var solved: Int
        /// It heard nothing from the coordinator for its silence limit.
        public var coordinatorSilent: Bool
        /// It had no connection to the sink for its silence limit.
        public var sinkSilent = false
    }

    /// Runs until drained (if asked to exit then), `stop`, or the coordinator's silence.
    public static func run(_ configuration: Configuration, context: ZMQContext, stop: StopFlag) throws -> Outcome {
        // First, while the process is at its smallest: the meter's cheap reading is exact only
        // above the memory it sees now (PeakMemoryMeter).
        let meter = PeakMemoryMeter()
        let coordinator = try ZMQSocket(context, .dealer)
        try coordinator.set(.routingID(Array(configuration.identity.description.utf8)))
        try coordinator.set(.lingerMilliseconds(0))
        try coordinator.set(.maximumMessageBytes(WireProtocol.maximumFrameBytes))
        try coordinator.set(.reconnectIntervalMilliseconds(100))
        if let curve = configuration.curve { try coordinator.secure(curve.client(of: .coordinator)) }
        try coordinator.connect(configuration.coordinator)
        let sink = try ZMQSocket(context, .push)
        // Results must survive close (LINGER 0 drops them), but a dead sink must not hang exit.
        try sink.set(.lingerMilliseconds(5_000))
        try sink.set(.reconnectIntervalMilliseconds(100))
        // ZMTP pings: a sink whose host vanished without closing the connection is otherwise
        // never seen to be gone (the sink never speaks to workers), and the monitor never hears.
        try sink.set(.heartbeatIntervalMilliseconds(2_000))
        try sink.set(.heartbeatTimeoutMilliseconds(10_000))
        if let curve = configuration.curve { try sink.secure(curve.client(of: .sink)) }
        // Watched from before it connects, so no handshake is missed.
        let sinkMonitor = try ZMQMonitor(watching: sink, context: context, name: "sink-\(getpid())-\(monitors.add(1, ordering: .relaxed).newValue)")
        try sink.connect(configuration.sink)
        let queue = WorkerQueue(wake: try WakeSignal(), maximumWindow: configuration.maximumWindow)
        let solverEnded = DispatchSemaphore(value: 0)
        let solverThread = Thread {
            runSolver(queue, identity: configuration.identity, meter: meter, memoryBudgetBytes: configuration.memoryBudgetBytes, external: configuration.external)
            solverEnded.signal()
        }
        solverThread.start()
        defer {
            queue.stop()
            // The solver thread stops its serving solvers and removes their control groups as
            // it ends: with servers running, the process waits for it, a while. (A job still
            // running then is cut short by the exit; its solver's watchdog kills the solver.)
            if !ExternalServer.running.withLock(\.isEmpty) { _ = solverEnded.wait(timeout: .now() + 2) }
            coordinator.close()
            sinkMonitor.close()
            sink.close()
        }

        var solved = 0
        // Each entry a message's frames: results, or this machine's record (tagged with a key).
        var unsent: [[[UInt8]]] = []
        let machine = MachineRecord.current(host: configuration.identity.host)
        // The batches whose results this process has sent: the sink hears of the machine
        // before the first of each (bounded: a worker meets few batches, and forgets past 64).
        var described: Set<String> = []
        var lastDescribed: String?
        var drained = false
        var waitingForJobs = false
        let clock = ContinuousClock()
        var lastBeat = clock.now
        var lastHeard = clock.now
        var lastNotice = clock.now
        var sinkConnection = SinkConnection(now: clock.now)
        func tell(_ message: WireMessage) throws {
            try coordinator.send(message.frames(key: configuration.key), dontWait: true)
        }
        func ask(_ credit: Int?) throws {
            guard let credit, credit > 0 else { return }
            // Say what is still held first: the coordinator counts a worker's credit against the
            // jobs it may still hold, and without this it would count the ones just finished.
            try tell(.heartbeat(configuration.identity, queue.held()))
            try tell(.ready(configuration.identity, credit: credit, jobSeconds: queue.jobSeconds))
            waitingForJobs = true
        }
        try ask(queue.credit())
        while !stop.isStopped {
            configuration.turned?(solved)
            let readable = try ZMQPoller.readable(
                [coordinator, sinkMonitor.socket], descriptors: [queue.wake.descriptor], timeout: configuration.heartbeatInterval)
            if readable[0] {
                while let frames = try coordinator.receive() {
                    let message = frames.count == 1 ? try? WireMessage.decode(frames[0]) : nil
                    if message != nil { lastHeard = clock.now }
                    switch message {
                    case .jobs(let chunks)?:
                        queue.add(chunks)
                        waitingForJobs = false
                        drained = false
                    case .drained?:
                        drained = true
                    default:
                        break  // A stray or malformed frame: dropped.
                    }
                }
            }
            if readable[1] { for event in try sinkMonitor.events() { sinkConnection.apply(event, now: clock.now) } }
            if readable[2] { queue.wake.consume() }
            let results = queue.takeResults()
            if !results.isEmpty {
                solved += results.count
                // Compared with the last batch seen first: a string compare per result where a
                // set's hash of each was 4% of a trivial job.
                for result in results where result.batch != lastDescribed {
                    lastDescribed = result.batch
                    guard !described.contains(result.batch) else { continue }
                    if described.count >= 64 { described.removeAll() }
                    described.insert(result.batch)
                    unsent.append(WireMessage.machine(batch: result.batch, machine).frames(key: configuration.key))
                }
                unsent.append([WireMessage.results(results).encoded()])
            }
            while let frames = unsent.first, try sink.send(frames, dontWait: true) {
                unsent.removeFirst()
            }
            if !waitingForJobs, !drained { try ask(queue.credit()) }
            if drained, configuration.exitWhenDrained, queue.isIdle, unsent.isEmpty { return Outcome(solved: solved, coordinatorSilent: false) }
            // Checked after the socket was read: a worker stopped (SIGSTOP) and continued finds
            // the coordinator's words waiting, if it is still there.
            if let limit = configuration.coordinatorSilenceLimit, !readable[0], lastHeard.duration(to: clock.now) > limit {
                return Outcome(solved: solved, coordinatorSilent: true)
            }
            if let limit = configuration.sinkSilenceLimit, sinkConnection.missing(now: clock.now) > limit {
                return Outcome(solved: solved, coordinatorSilent: false, sinkSilent: true)
            }
            if let interval = configuration.silenceNoticeInterval, sinkConnection.noticeDue(now: clock.now, interval: interval) {
                configuration.log(SilenceNotice.sinkText(
                    identity: configuration.identity, sink: configuration.sink, missingFor: sinkConnection.missing(now: clock.now),
                    refused: sinkConnection.refused, security: configuration.security))
            }
            if let interval = configuration.silenceNoticeInterval, !readable[0] {
                let silent = lastHeard.duration(to: clock.now)
                if silent >= interval, lastNotice.duration(to: clock.now) >= interval {
                    configuration.log(SilenceNotice.text(
                        identity: configuration.identity, coordinator: configuration.coordinator, silentFor: silent,
                        security: configuration.security))
                    lastNotice = clock.now
                }
            }
            if lastBeat.duration(to: clock.now) >= configuration.heartbeatInterval {
                try tell(.heartbeat(configuration.identity, queue.held()))
                // An idle worker asks again: a restarted coordinator has forgotten the last ask,
                // and a worker that stays after a batch is drained asks the next one.
                if !drained || !configuration.exitWhenDrained, let credit = queue.credit(whenIdleOnly: true) { try ask(credit) }
                lastBeat = clock.now
            }
        }
        return Outcome(solved: solved, coordinatorSilent: false)
    }

    /// The solver thread: solves queued jobs in order until the queue stops.
    private static func runSolver(_ queue: WorkerQueue, identity: WorkerIdentity, meter: PeakMemoryMeter, memoryBudgetBytes: Int, external: [ExternalSolver]) {
        let clock = ContinuousClock()
        let cpuClock = JobCPUClock()
        while let (job, waited) = queue.take() {
            let start = clock.now
            let result = JobRunner.run(
                job, worker: identity, meter: meter, cpuClock: cpuClock, waited: waited, memoryBudgetBytes: memoryBudgetBytes,
                external: external)
            queue.finished(result, seconds: Double(seconds: start.duration(to: clock.now)))
        }
        // Its serving solvers end with it, their control groups removed.
        ExternalServers.stopAll()
    }
}

/// What a worker says while it hears nothing from its coordinator.
enum SilenceNotice {
    static func text(identity: WorkerIdentity, coordinator: String, silentFor: Duration, security: WireSecurity) -> String {
        let seconds = Int(Double(seconds: silentFor).rounded())
        return "worker \(identity): nothing heard from the coordinator at \(coordinator) for \(seconds) s; still trying "
            + "(is it running, is the address right, \(security.mismatchQuestion)?)"
    }

    static func sinkText(identity: WorkerIdentity, sink: String, missingFor: Duration, refused: Bool, security: WireSecurity) -> String {
        let seconds = Int(Double(seconds: missingFor).rounded())
        guard !refused else {
            // libzmq does not try again after a refused CURVE handshake.
            return "worker \(identity): the sink at \(sink) refused this worker's handshake \(seconds) s ago, so results wait here; "
                + "are its --keys from the same `keys generate` as this worker's? (this worker exits at --sink-silence-limit)"
        }
        return "worker \(identity): no connection to the sink at \(sink) for \(seconds) s, so results wait here; still trying "
            + "(is it running, is the address right, \(security.mismatchQuestion(about: "sink"))?)"
    }
}

/// Names each monitor's inproc endpoint apart: tests run several workers in one process.
private let monitors = Atomic<Int>(0)

extension WireSecurity {
    /// The question a worker that hears nothing asks about its keys.
    public var mismatchQuestion: String { mismatchQuestion(about: "coordinator") }

    /// The same question about `peer`, the coordinator or the sink.
    public func mismatchQuestion(about peer: String) -> String {
        switch self {
        case .insecure: "does the \(peer) need --keys or a --key-file"
        case .sharedKey: "does the \(peer) hold this --key-file"
        case .curve: "are the \(peer)'s --keys from the same `keys generate` as this worker's"
        }
    }
}

extension Worker.Configuration {
    public var security: WireSecurity { curve != nil ? .curve : key != nil ? .sharedKey : .insecure }
}
