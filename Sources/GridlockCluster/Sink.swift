// `gridlock sink`: binds the results endpoint, stores every result once, and tells the
// coordinator what is stored. The decisions are SinkMachine's; this is the loop around it.
//
//   workers --results--> [PULL results] --> SQLite (INSERT OR IGNORE per (batch, job))
//                                   \--> [DEALER] --stored--> coordinator
//
// A duplicate (a re-issued job finished twice) is acknowledged too, and counted. The sink
// answers the coordinator's `storedQuery` with a page of stored jobs and their fingerprints,
// so a restarted or resumed coordinator learns what is done without the sink holding a list.

import Foundation
import GridlockClusterBase
import GridlockWire
import ZeroMQ

public struct SinkCounters: Sendable, Hashable {
    public var stored = 0
    public var duplicates = 0
    /// Answers stored as wrong because the sink's replay refused them (SinkReplay).
    public var refutedByReplay = 0
    /// Results whose texts past their bounds were cut before storing (SinkReplay.bound).
    public var cut = 0
    public var dropped = DropCounts()

    public init() {}
}

public enum Sink {
    public struct Configuration: Sendable {
        public var bind: String
        /// The coordinator's jobs endpoint, asked for once the results endpoint is bound.
        public var coordinator: @Sendable () -> String
        public var database: ResultStore
        /// Told of every group written, after its transaction: `gridlock batch` folds its tables
        /// from them (StreamedReport).
        public var written: (@Sendable ([JobResult], ResultStore.Stored) -> Void)?
        /// The key shared with the coordinator (ClusterKey.swift).
        public var key: ClusterKey?
        /// Where lines for the operator go (refused frames, a few a minute).
        public var log: @Sendable (String) -> Void = { _ in }
        /// Told of each group stored: how long its transaction took, and how many results.
        public var observeStore: (@Sendable (Duration, Int) -> Void)?
        /// Told the counts about twice a second, from the loop itself: a loop that stops
        /// turning (a hung disk) stops telling (RoleHealth).
        public var report: (@Sendable (SinkCounters) -> Void)?
        /// CURVE: the results socket admits only the allowlist's workers and coordinator (the
        /// context's ZAP handler decides), and the coordinator is reached only at its own key.
        public var curve: RoleKeys?
        /// The cap on the results socket's TCP peers (`--max-peers`), kept by the loop
        /// (GateWatch); nil: none (a local batch's sink, reached only by its own workers).
        public var peers: PeerGate?

        public init(bind: String, coordinator: @escaping @Sendable () -> String, database: ResultStore) {
            self.bind = bind
            self.coordinator = coordinator
            self.database = database
        }
    }

    static let queuedFramesPerWorker: Int32 = 64

    /// Runs until `stop`; `bound` receives the results endpoint once it is bound. Call on a
    /// thread of its own: the sockets live and die on it.
    public static func run(
        _ configuration: Configuration, context: ZMQContext, stop: StopFlag,
        counters: Shared<SinkCounters>, bound: (String) -> Void
    ) throws {
        let results = try ZMQSocket(context, .pull)
        try results.set(.maximumMessageBytes(WireProtocol.maximumFrameBytes))
        // Frames of results wait in the worker, not here, when the sink falls behind: each
        // connection queues at most this many (of up to 64 results each) in the sink's process,
        // whose memory is bounded whatever the batch. ZeroMQ's default, 1,000 a connection, let
        // a batch of trivial jobs grow by tens of megabytes.
        try results.set(.receiveHighWaterMark(Self.queuedFramesPerWorker))
        try results.set(.lingerMilliseconds(0))
        if let curve = configuration.curve { try results.secure(curve.server) }
        let watch = try configuration.peers.map { try GateWatch(results, context: context, gate: $0, name: "sink") }
        try results.bind(configuration.bind)
        watch?.bound(to: results.lastEndpoint)
        bound(results.lastEndpoint)
        let coordinator = try ZMQSocket(context, .dealer)
        try coordinator.set(.lingerMilliseconds(2_000))
        try coordinator.set(.maximumMessageBytes(WireProtocol.maximumCoordinatorFrameBytes))
        if let curve = configuration.curve { try coordinator.secure(curve.client(of: .coordinator)) }
        try coordinator.connect(configuration.coordinator())
        defer {
            watch?.close()
            results.close()
            coordinator.close()
        }
        let clock = ContinuousClock()
        var lastReport = clock.now
        let reportInterval: Duration = .milliseconds(500)
        var machine = SinkMachine(key: configuration.key, workersAdmittedByTransport: configuration.curve != nil)
        let database = configuration.database

        func perform(_ actions: [SinkMachine.Action]) throws {
            for action in actions {
                switch action {
                case .send(let message):
                    try coordinator.send(message.frames(key: configuration.key), dontWait: true)
                case .store(let batch):
                    let started = clock.now
                    let stored = try database.store(batch)
                    configuration.observeStore?(started.duration(to: clock.now), batch.count)
                    configuration.written?(batch, stored)
                    try perform(machine.stored(batch, as: stored))
                case .readStored(let batch, let from, let limit):
                    try perform(machine.read(batch: batch, from: from, limit: limit, page: try database.storedJobs(batch: batch, from: from, limit: limit)))
                case .forget(let batch, let from):
                    _ = try database.forget(batch: batch, from: from)
                case .recordMachine(let batch, let record):
                    try database.record(record, batch: batch)
                case .recordBatch(let record):
                    try database.record(record)
                    if record.jobs > 0 { try database.recordTotal(batch: record.batch, jobs: record.jobs) }
                    if let load = record.recipe?.loadAtEnd { try database.recordLoadAtEnd(batch: record.batch, load) }
                    if let quarantined = record.recipe?.quarantined { try database.recordQuarantined(batch: record.batch, quarantined) }
                case .log(let line):
                    configuration.log(line)
                }
            }
        }
        /// Takes the result frames waiting on the socket, up to the first full group stored: then
        /// back to the poll, so that a steady stream of results never starves the coordinator's
        /// queries, the greeting or a stop.
        func takeResults() throws {
            while machine.wantsResults, let frames = try results.receive() {
                let actions = machine.receiveResults(frames, now: clock.now)
                try perform(actions)
                if !actions.isEmpty { return }
            }
        }

        /// One turn of the loop: store what is due, then wait for frames.
        func step() throws {
            if machine.storeIsDue(now: clock.now) { try takeResults() }
            try perform(machine.tick(now: clock.now))
            // Idle, wait for results; once some wait, sleep out their window (only the coordinator
            // can wake the sink) and then take everything that arrived meanwhile.
            let listening = !machine.holdsResults
            let polled = [coordinator] + (watch.map { [$0.socket] } ?? []) + (listening ? [results] : [])
            let readable = try ZMQPoller.readable(polled, timeout: machine.timeout(now: clock.now))
            if watch != nil, readable[1], let line = try watch?.drain(now: clock.now) { configuration.log(line) }
            watch?.tend(now: clock.now)
            if listening, readable.last! { try takeResults() }
            if readable[0], let frames = try coordinator.receive() {
                try perform(machine.receiveFromCoordinator(frames, now: clock.now))
            }
            counters.update { $0 = machine.counters }
            if let report = configuration.report, lastReport.duration(to: clock.now) >= reportInterval {
                report(machine.counters)
                lastReport = clock.now
            }
        }

        do {
            while !stop.isStopped { try step() }
            // Nothing received is lost: what waits is stored (and acknowledged, if anyone listens).
            try perform(machine.finish())
        } catch {
            // Tell the coordinator before going: it would otherwise re-issue, for ever, jobs whose
            // results can no longer be stored. The socket lingers to deliver it.
            // Cut to what the coordinator reads (a database path alone may be 4 KiB).
            let reason = String(decoding: "\(error)".utf8.prefix(WireProtocol.maximumReasonBytes - 4), as: UTF8.self)
            _ = try? coordinator.send(WireMessage.sinkStopped(reason: reason).frames(key: configuration.key), dontWait: true)
            throw error
        }
        counters.update { $0 = machine.counters }
    }
}
