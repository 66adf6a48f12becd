// `gridlock sink`: binds the results endpoint, stores every result once, and tells the
// coordinator what is stored.
//
//   workers --results--> [PULL results] --> SQLite (INSERT OR IGNORE per (batch, job))
//                                   \--> [DEALER] --stored--> coordinator
//
// Acknowledgements follow the write, so a job the coordinator hears is stored really is. A
// duplicate (a re-issued job finished twice) is acknowledged too, and counted. The sink
// greets the coordinator every second, and answers a restarted coordinator's `syncRequest`
// with every stored job of the batch.

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
        while !stop.isStopped {
            if lastHello.duration(to: clock.now) >= WireProtocol.sinkHelloInterval {
                try coordinator.send([WireMessage.sinkHello.encoded()], dontWait: true)
                lastHello = clock.now
            }
            let readable = try ZMQPoller.readable([results, coordinator], timeout: WireProtocol.pollInterval)
            if readable[0] {
                try storeWaiting(results, configuration.database, coordinator, counters)
            }
            if readable[1], let frames = try coordinator.receive() {
                try answer(frames, configuration.database, coordinator, counters)
            }
        }
    }

    /// Stores every result waiting (up to a few thousand, one transaction) and acknowledges them.
    private static func storeWaiting(
        _ socket: ZMQSocket, _ database: ResultStore, _ coordinator: ZMQSocket, _ counters: Shared<SinkCounters>
    ) throws {
        var batch: [JobResult] = []
        while batch.count < 4_096, let frames = try socket.receive() {
            guard frames.count == 1, case .results(let results)? = try? WireMessage.decode(frames[0]) else {
                counters.update { $0.dropped.malformed += 1 }
                continue
            }
            batch += results
        }
        guard !batch.isEmpty else { return }
        let inserted = try database.store(batch)
        counters.update {
            $0.stored += inserted
            $0.duplicates += batch.count - inserted
        }
        for (name, jobs) in Dictionary(grouping: batch, by: \.batch) {
            try coordinator.send([WireMessage.stored(batch: name, jobs: jobs.map(\.job)).encoded()], dontWait: true)
        }
    }

    private static func answer(
        _ frames: [[UInt8]], _ database: ResultStore, _ coordinator: ZMQSocket, _ counters: Shared<SinkCounters>
    ) throws {
        guard frames.count == 1, case .syncRequest(let batch)? = try? WireMessage.decode(frames[0]) else {
            counters.update { $0.dropped.unexpected += 1 }
            return
        }
        let stored = try database.storedJobs(batch: batch)
        for chunk in stored.chunks(of: 10_000) {
            try coordinator.send([WireMessage.stored(batch: batch, jobs: chunk).encoded()], dontWait: true)
        }
        // An empty list ends the answer: the coordinator now knows everything that is stored.
        try coordinator.send([WireMessage.stored(batch: batch, jobs: []).encoded()], dontWait: true)
    }
}
