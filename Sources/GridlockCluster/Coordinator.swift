// `gridlock coordinator`: hands out jobs and follows each one until the sink has stored it.
//
//   pending --(worker asks: ready)--> assigned --(worker asks again)--> awaiting store --> stored
//      ^                                 |                                   |
//      +--- worker silent, job overran ---+---- no acknowledgement in time ---+
//           (after maxAttempts: a `failed` result goes to the sink instead)
//
// A job is done only when the sink says so, so a result lost anywhere on the way (a worker
// SIGKILLed with results queued, a sink restarted before it wrote) is noticed and re-issued, and
// a result that arrives twice is dropped by the sink. A restarted coordinator rebuilds the same
// jobs from the same inputs, reads its journal of stored jobs, and asks the sink for the rest.

import Foundation
import GridlockWire
import ZeroMQ

public struct BatchPlan: Sendable {
    public var batch: String
    public var jobs: [Job]
    /// Records that could not be read: stored as `invalid` results without going to a worker.
    public var invalid: [JobResult]

    public init(batch: String, jobs: [Job], invalid: [JobResult]) {
        self.batch = batch
        self.jobs = jobs
        self.invalid = invalid
    }

    public var total: Int { jobs.count + invalid.count }

    /// The solvers the jobs use, each once, in order of first use.
    public var solverNames: [String] {
        var seen: Set<String> = []
        return (jobs.map(\.solver) + invalid.map(\.solver)).filter { seen.insert($0).inserted }
    }
}

public struct CoordinatorProgress: Sendable, Hashable {
    public var total = 0
    public var stored = 0
    public var failed = 0
    public var reissued = 0
    public var inFlight = 0
    public var liveWorkers = 0
    public var dropped = DropCounts()

    public init() {}

    public var isComplete: Bool { stored >= total }
}

public enum Coordinator {
    public struct Configuration: Sendable {
        public var bind: String
        /// The sink's results endpoint, asked for once the jobs endpoint is bound: failed and
        /// invalid jobs are reported there.
        public var sink: @Sendable () -> String
        public var maxAttempts = 3
        public var silenceLimit = WireProtocol.workerSilenceLimit
        /// Extra time past a job's own time limit before it counts as overrun.
        public var overrunGrace: Duration = .seconds(2)
        /// How long a finished job may wait for the sink's acknowledgement before it is re-issued.
        public var storeTimeout: Duration = .seconds(10)
        /// Where stored job numbers are appended, so a restart does not ask for them again.
        public var journal: String?
        /// How long to wait for the sink to say what it already stores before handing out jobs.
        public var syncWait: Duration = .seconds(5)

        public init(bind: String, sink: @escaping @Sendable () -> String) {
            self.bind = bind
            self.sink = sink
        }
    }

    /// Runs the batch until every job is stored (or `stop`). `bound` receives the jobs endpoint
    /// once bound; `progress` is called about twice a second. Call on a thread of its own.
    public static func run(
        _ plan: BatchPlan, _ configuration: Configuration, context: ZMQContext, stop: StopFlag,
        bound: (String) -> Void = { _ in }, progress: (CoordinatorProgress) -> Void = { _ in }
    ) throws -> CoordinatorProgress {
        let router = try ZMQSocket(context, .router)
        try router.set(.maximumMessageBytes(WireProtocol.maximumFrameBytes))
        try router.set(.lingerMilliseconds(1_000))
        try router.bind(configuration.bind)
        bound(router.lastEndpoint)
        let sink = try ZMQSocket(context, .push)
        try sink.set(.lingerMilliseconds(2_000))
        try sink.connect(configuration.sink())
        defer {
            router.close()
            sink.close()
        }
        var state = CoordinatorState(plan: plan, configuration: configuration)
        try state.loadJournal()
        let clock = ContinuousClock()
        try state.reportInvalid(now: clock.now, sink: sink)
        var lastProgress = clock.now
        var lastTimers = clock.now
        var completedAt: ContinuousClock.Instant?
        while !stop.isStopped {
            let readable = try ZMQPoller.readable([router], timeout: WireProtocol.pollInterval)
            if readable[0] {
                var handled = 0
                while handled < 10_000, let frames = try router.receive() {
                    handled += 1
                    try state.handle(frames, now: clock.now, router: router)
                }
            }
            if lastTimers.duration(to: clock.now) >= .milliseconds(100) {
                try state.checkTimers(now: clock.now, router: router, sink: sink)
                lastTimers = clock.now
            }
            try state.dispatchToIdleWorkers(now: clock.now, router: router)
            if lastProgress.duration(to: clock.now) >= .milliseconds(500) {
                progress(state.progress)
                lastProgress = clock.now
            }
            if state.progress.isComplete {
                // Linger a moment to tell workers still asking that the batch is drained.
                if completedAt == nil {
                    completedAt = clock.now
                    try state.drainIdleWorkers(router: router)
                }
                if completedAt!.duration(to: clock.now) >= .milliseconds(300) { break }
            }
        }
        progress(state.progress)
        return state.progress
    }
}
