// `gridlock sink`: binds the results endpoint, stores every result once, and tells the
// coordinator what is stored.
//
//   workers --results--> [PULL results] --> SQLite (INSERT OR IGNORE per (batch, job))
//                                   \--> [DEALER] --stored--> coordinator
//
// Acknowledgements follow the write, so a job the coordinator hears is stored really is; each
// names the job and the fingerprint of the job it answered. A duplicate (a re-issued job
// finished twice) is acknowledged too, and counted. The sink greets the coordinator every
// second, and answers its `storedQuery` with a page of stored jobs and their fingerprints, so
// a restarted or resumed coordinator learns what is done without the sink holding a list.

import Foundation
import GridlockWire
import ZeroMQ

public struct SinkCounters: Sendable, Hashable {
    public var stored = 0
    public var duplicates = 0
    public var dropped = DropCounts()

    public init() {}
}

public enum Sink {
    public struct Configuration: Sendable {
        public var bind: String
        /// The coordinator's jobs endpoint, asked for once the results endpoint is bound.
        public var coordinator: @Sendable () -> String
        public var database: ResultStore

        public init(bind: String, coordinator: @escaping @Sendable () -> String, database: ResultStore) {
            self.bind = bind
            self.coordinator = coordinator
            self.database = database
        }
    }

    /// Runs until `stop`; `bound` receives the results endpoint once it is bound. Call on a
    /// thread of its own: the sockets live and die on it.
    public static func run(
        _ configuration: Configuration, context: ZMQContext, stop: StopFlag,
        counters: Shared<SinkCounters>, bound: (String) -> Void
    ) throws {
        let results = try ZMQSocket(context, .pull)
        try results.set(.maximumMessageBytes(WireProtocol.maximumFrameBytes))
        try results.set(.lingerMilliseconds(0))
        try results.bind(configuration.bind)
        bound(results.lastEndpoint)
        let coordinator = try ZMQSocket(context, .dealer)
        try coordinator.set(.lingerMilliseconds(2_000))
        try coordinator.set(.maximumMessageBytes(WireProtocol.maximumFrameBytes))
        try coordinator.connect(configuration.coordinator())
        defer {
            results.close()
            coordinator.close()
        }
        let clock = ContinuousClock()
        var lastHello = clock.now.advanced(by: .seconds(-3600))
        var waiting = WaitingResults()
        while !stop.isStopped {
            if lastHello.duration(to: clock.now) >= WireProtocol.sinkHelloInterval {
                try coordinator.send([WireMessage.sinkHello.encoded()], dontWait: true)
                lastHello = clock.now
            }
            // Idle, wait for results; once some wait, sleep out the window (only the coordinator
            // can wake the sink) and then store everything that arrived meanwhile.
            let coordinatorReadable: Bool
            if waiting.results.isEmpty {
                let readable = try ZMQPoller.readable([results, coordinator], timeout: WireProtocol.pollInterval)
                if readable[0] { try receiveWaiting(results, into: &waiting, counters, now: clock.now) }
                coordinatorReadable = readable[1]
            } else {
                let left = storeWindow - waiting.since.duration(to: clock.now)
                coordinatorReadable = try ZMQPoller.readable([coordinator], timeout: max(.zero, min(WireProtocol.pollInterval, left)))[0]
                if waiting.since.duration(to: clock.now) >= storeWindow {
                    try storeEverything(results, &waiting, configuration.database, coordinator, counters, now: clock.now)
                }
            }
            if coordinatorReadable, let frames = try coordinator.receive() {
                try answer(frames, configuration.database, coordinator, counters)
            }
        }
        // Nothing received is lost: what waits is stored (and acknowledged, if anyone listens).
        try store(&waiting, configuration.database, coordinator, counters)
    }

    /// Results are stored this long after the first of them arrived, in transactions of at most
    /// `storeGroup`: each transaction costs a lock, a WAL append and an fsync whatever its
    /// size, and each wake-up a poll and a receive. With results arriving every few
    /// milliseconds from each worker, storing on every arrival made the sink the largest cost
    /// beside the solvers, on a core the workers need.
    static let storeWindow: Duration = .milliseconds(20)
    static let storeGroup = 4_096

    struct WaitingResults {
        var results: [JobResult] = []
        var since = ContinuousClock.now
    }

    /// Takes every result frame waiting on the socket.
    private static func receiveWaiting(
        _ socket: ZMQSocket, into waiting: inout WaitingResults, _ counters: Shared<SinkCounters>,
        now: ContinuousClock.Instant
    ) throws {
        while waiting.results.count < storeGroup, let frames = try socket.receive() {
            guard frames.count == 1, case .results(let results)? = try? WireMessage.decode(frames[0]) else {
                counters.update { $0.dropped.malformed += 1 }
                continue
            }
            if waiting.results.isEmpty { waiting.since = now }
            waiting.results += results
        }
    }

    /// Receives and stores until the socket is empty, a transaction per `storeGroup`.
    private static func storeEverything(
        _ socket: ZMQSocket, _ waiting: inout WaitingResults, _ database: ResultStore, _ coordinator: ZMQSocket,
        _ counters: Shared<SinkCounters>, now: ContinuousClock.Instant
    ) throws {
        var full: Bool
        repeat {
            try receiveWaiting(socket, into: &waiting, counters, now: now)
            full = waiting.results.count >= storeGroup
            try store(&waiting, database, coordinator, counters)
        } while full
    }

    /// Stores the waiting results in one transaction, then acknowledges them.
    private static func store(
        _ waiting: inout WaitingResults, _ database: ResultStore, _ coordinator: ZMQSocket, _ counters: Shared<SinkCounters>
    ) throws {
        let batch = waiting.results
        guard !batch.isEmpty else { return }
        waiting.results.removeAll(keepingCapacity: true)
        let inserted = try database.store(batch)
        counters.update {
            $0.stored += inserted
            $0.duplicates += batch.count - inserted
        }
        var jobsByBatch: [String: [StoredJob]] = [:]
        for result in batch {
            jobsByBatch[result.batch, default: []].append(StoredJob(job: result.job, fingerprint: result.fingerprint))
        }
        for (name, jobs) in jobsByBatch {
            try coordinator.send([WireMessage.stored(batch: name, jobs: jobs).encoded()], dontWait: true)
        }
    }

    private static func answer(
        _ frames: [[UInt8]], _ database: ResultStore, _ coordinator: ZMQSocket, _ counters: Shared<SinkCounters>
    ) throws {
        switch frames.count == 1 ? try? WireMessage.decode(frames[0]) : nil {
        case .storedQuery(let batch, let from, let limit)?:
            let size = max(1, min(limit, WireProtocol.storedPageSize))
            let page = try database.storedJobs(batch: batch, from: max(0, from), limit: size)
            let message = WireMessage.storedPage(batch: batch, from: from, jobs: page, complete: page.count < size)
            try coordinator.send([message.encoded()], dontWait: true)
        case .forget(let batch, let from)?:
            _ = try database.forget(batch: batch, from: max(0, from))
        default:
            counters.update { $0.dropped.unexpected += 1 }
        }
    }
}
