// The sink's decisions, with no socket, database or clock in them: frames and the store's
// answers in, actions out (store these results, read this page, send this frame). `Sink.run`
// owns the sockets and the database and only feeds events and performs actions, so every rule
// below is unit tested without either (SinkMachineTests).
//
//   results ──> waiting ──(20 ms after the first, or 4,096 of them)──> store ──> stored: acks
//   coordinator: storedQuery ──> read a page ──> storedPage;  forget ──> forget
//   a worker's machine, once per batch and host ──> recordMachine
//   coordinator: batchRecord ──> recordBatch
//   every second: sinkHello (how a coordinator learns where the sink is, and that it lives)
//
// Results wait before they are stored: a transaction costs a lock, a WAL append and an fsync
// whatever its size, and storing on every arrival made the sink the largest cost beside the
// solvers, on a core the workers need. Acknowledgements follow the write, so a job the
// coordinator hears of is stored; each names the job and the fingerprint of the job it answered.

import GridlockWire

public struct SinkMachine {
    public enum Action: Sendable, Hashable {
        /// A frame for the coordinator.
        case send(WireMessage)
        /// Store these results in one transaction, then report with `stored(_:as:)`.
        case store([JobResult])
        /// Read up to `limit` stored jobs of `batch` from job `from` on, then report with `read`.
        case readStored(batch: String, from: Int, limit: Int)
        /// Delete the batch's rows from job `from` on (the input got shorter: --resume-changed).
        case forget(batch: String, from: Int)
        /// Keep this machine's description for the batch (one row per batch and host).
        case recordMachine(batch: String, MachineRecord)
        /// Keep the coordinator's record of its batch (the first; a later one gives the total).
        case recordBatch(BatchRecord)
        /// A line for the operator (a refused frame, at a bounded rate).
        case log(String)
    }

    /// The most (batch, host) machine records one run of the sink keeps: more hosts than any
    /// cluster has, and a bound on what a peer can make it write.
    public static let maximumMachines = 65_536

    /// Results wait this long after the first of them arrived, unless `storeGroup` are waiting.
    public static let storeWindow: Duration = .milliseconds(20)
    public static let storeGroup = 4_096

    /// The most workers one group's acknowledgements name as refuted: 16 x 264 bytes at most.
    static let namedPerGroup = 16

    /// What is kept of a solution the replay refused: enough to see what was wrong with it.
    static let keptRefutedSolutionBytes = 4_096

    public private(set) var counters = SinkCounters()
    private var waiting: [JobResult] = []
    private var waitingSince: ContinuousClock.Instant?
    private var lastHello: ContinuousClock.Instant?
    private var rejections = RejectionLog()
    /// Lines for answers the replay refused, at the same bounded rate as refused frames.
    private var replayLines = LineBudget()
    /// The (batch, host) pairs whose machine is recorded in this run: each worker of a host
    /// describes it, and one row is enough.
    private var machinesRecorded: Set<[String]> = []

    /// The cluster's key: results are stored only with their job's lease, and the coordinator's
    /// queries believed only with its tag (ClusterKey.swift). Without one, anything is.
    let key: ClusterKey?
    /// CURVE admitted every peer of the results socket by its public key, and CURVE workers
    /// hold no cluster key: their machine records need no tag (their results still need leases).
    let workersAdmittedByTransport: Bool

    public init(key: ClusterKey? = nil, workersAdmittedByTransport: Bool = false) {
        self.key = key
        self.workersAdmittedByTransport = workersAdmittedByTransport
    }

    /// Whether results wait for their window: then the loop need not listen for more (only the
    /// window's end or the coordinator matter) and takes every waiting frame when it ends.
    public var holdsResults: Bool { !waiting.isEmpty }

    /// Whether the loop should take another frame of results before storing.
    public var wantsResults: Bool { waiting.count < Self.storeGroup }

    /// Whether the waiting results' window has ended: take what waits on the socket, then tick.
    public func storeIsDue(now: ContinuousClock.Instant) -> Bool {
        waitingSince.map { $0.duration(to: now) >= Self.storeWindow } ?? false
    }

    /// How long the loop may wait for a frame before the next tick has something to do.
    public func timeout(now: ContinuousClock.Instant) -> Duration {
        var timeout = WireProtocol.pollInterval
        if let waitingSince { timeout = min(timeout, Self.storeWindow - waitingSince.duration(to: now)) }
        if let lastHello { timeout = min(timeout, WireProtocol.sinkHelloInterval - lastHello.duration(to: now)) }
        return max(.zero, timeout)
    }

    // MARK: Events

    /// One message from the results socket: a frame of results, or a worker's machine.
    public mutating func receiveResults(_ frames: [[UInt8]], now: ContinuousClock.Instant) -> [Action] {
        let message = frames.count == 1 || frames.count == 2 ? try? WireMessage.decode(frames[0]) : nil
        switch message {
        case .results(let received)? where frames.count == 1:
            return receive(received, now: now)
        case .machine(let batch, let record)?:
            if let key, !workersAdmittedByTransport, !(frames.count == 2 && key.verifies(frames[0], tagFrame: frames[1])) {
                return refuse(.forged, "a machine record for \(batch) from \(record.host) without the key's tag", now: now)
            }
            guard !machinesRecorded.contains([batch, record.host]) else { return [] }
            guard machinesRecorded.count < Self.maximumMachines else {
                return refuse(.unexpected, "a machine record past the \(Self.maximumMachines) this sink keeps", now: now)
            }
            machinesRecorded.insert([batch, record.host])
            return [.recordMachine(batch: batch, record)]
        default:
            return refuse(.malformed, "not one frame of results, nor a machine record", now: now)
        }
    }

    private mutating func receive(_ received: [JobResult], now: ContinuousClock.Instant) -> [Action] {
        var results = received
        var actions: [Action] = []
        if let key {
            // A result without its job's lease was not sent by the worker holding the job, or
            // answers another job than the one it names: dropped, never stored. Each lease is
            // worked out once: it is a hash over the job's text, for every result stored. The
            // frame is copied only when one is dropped: a copy retains every result's strings.
            let forged = received.indices.filter { received[$0].lease != key.lease(answering: received[$0]) }
            if !forged.isEmpty {
                for index in forged {
                    let result = received[index]
                    let hint = result.lease == 0 ? " (none at all: is the coordinator run without this --key-file?)" : ""
                    actions += refuse(.forged, "a result for job \(result.job) of \(result.batch) from \(result.worker) without its lease\(hint)", now: now)
                }
                let dropped = Set(forged)
                results = received.indices.filter { !dropped.contains($0) }.map { received[$0] }
            }
        }
        guard !results.isEmpty else { return actions }
        actions += replay(&results, now: now)
        if waiting.isEmpty {
            waitingSince = now
            // The frame's array itself: appending would copy every result, a retain per string.
            waiting = results
        } else {
            waiting += results
        }
        return actions + (waiting.count >= Self.storeGroup ? [storeWaiting()] : [])
    }

    /// Bounds each result's texts and replays its answer (SinkReplay); one that does not replay
    /// is stored as wrong, its error naming the worker that sent it and why; a long solution is
    /// kept only in part.
    private mutating func replay(_ results: inout [JobResult], now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        // By index: iterating would copy each result, and most replay, changing nothing.
        for index in results.indices {
            // Asked before changing: changing an element copies the frame's array first.
            if SinkReplay.exceedsBounds(results[index]) {
                SinkReplay.bound(&results[index])
                counters.cut += 1
            }
            let replay = SinkReplay.replay(results[index])
            var refutation = replay.refutation
            if let expected = replay.expectedMoves, expected != results[index].expectedMoves {
                // Honest workers echo the puzzle's MOVES; the rule judges by the sink's reading.
                let said = results[index].expectedMoves.map(String.init) ?? "none"
                refutation = refutation ?? "it gives the input's MOVES as \(said), and the puzzle says \(expected.map(String.init) ?? "none")"
                results[index].expectedMoves = expected
            }
            // Stored no longer than the puzzle's MOVES could take (64 rows of 15 MiB once made a
            // 1 GB database; the fixed 64 KiB bound still let a forged answer be 100 times its
            // puzzle's).
            if refutation == nil,
               SinkReplay.boundToPuzzle(&results[index], expected: replay.expectedMoves ?? nil, longestMove: replay.longestMoveBytes) {
                counters.cut += 1
            }
            guard let reason = refutation else { continue }
            counters.refutedByReplay += 1
            let worker = results[index].worker
            // A worker that called its own answer wrong told the truth; one that did not is
            // named to the coordinator, which quarantines it.
            results[index].refutedAtSink = results[index].verdict != .wrong
            results[index].verdict = .wrong
            results[index].error = "the sink's replay refused the answer of worker \(worker): \(reason)"
            if results[index].solution.utf8.count > Self.keptRefutedSolutionBytes {
                results[index].solution = results[index].solution.excerpt(Self.keptRefutedSolutionBytes)
            }
            if let earlier = replayLines.admit(now: now) {
                let result = results[index]
                actions.append(.log("stored as wrong: job \(result.job) of \(result.batch) from worker \(worker), \(reason)".printable + earlier))
            }
        }
        return actions
    }

    /// Counts a refused frame or result, and says so at a bounded rate. The results socket does
    /// not say which peer sent a frame; the coordinator's connection is the coordinator.
    private mutating func refuse(_ rejection: Rejection, _ what: String, now: ContinuousClock.Instant) -> [Action] {
        counters.dropped.count(rejection)
        return rejections.note(rejection, what: what, peer: nil, now: now).map { [.log($0)] } ?? []
    }

    /// One message from the coordinator.
    public mutating func receiveFromCoordinator(_ frames: [[UInt8]], now: ContinuousClock.Instant) -> [Action] {
        let message = frames.count == 1 || frames.count == 2 ? try? WireMessage.decode(frames[0]) : nil
        if let message, message.isTheCoordinators, let key, !(frames.count == 2 && key.verifies(frames[0], tagFrame: frames[1])) {
            return refuse(.forged, "\(message.kindName) without the key's tag, on the coordinator's connection", now: now)
        }
        switch message {
        case .storedQuery(let batch, let from, let limit)?:
            return [.readStored(batch: batch, from: max(0, from), limit: max(1, min(limit, WireProtocol.storedPageSize)))]
        case .forget(let batch, let from)?:
            return [.forget(batch: batch, from: max(0, from))]
        case .batchRecord(let record)?:
            return [.recordBatch(record)]
        case nil:
            return refuse(.malformed, "not a message, on the coordinator's connection", now: now)
        case let other?:
            return refuse(.unexpected, "\(other.kindName), which a coordinator does not send a sink", now: now)
        }
    }

    /// Time passing: the greeting, and the end of the waiting results' window.
    public mutating func tick(now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        if lastHello.map({ $0.duration(to: now) >= WireProtocol.sinkHelloInterval }) ?? true {
            actions.append(.send(.sinkHello))
            lastHello = now
        }
        if storeIsDue(now: now) { actions.append(storeWaiting()) }
        return actions
    }

    /// The sink is stopping: nothing received is lost.
    public mutating func finish() -> [Action] {
        waiting.isEmpty ? [] : [storeWaiting()]
    }

    // MARK: What the store did

    /// `results` were written as `stored` says: acknowledge each with its row as it now stands
    /// (a duplicate with the row stored before it, so the coordinator counts what the table
    /// holds), one frame per batch, in the order the batches first appear.
    public mutating func stored(_ results: [JobResult], as stored: ResultStore.Stored) -> [Action] {
        precondition(stored.rows.count == results.count, "one row for each result stored")
        counters.stored += stored.inserted
        counters.duplicates += results.count - stored.inserted
        var batches: [String] = []
        var jobs: [String: [StoredJob]] = [:]
        var named: Set<WorkerIdentity> = []
        // By index: iterating the results would copy each one, a retain per string.
        for index in results.indices {
            let batch = results[index].batch
            if jobs[batch] == nil { batches.append(batch) }
            var row = stored.rows[index]
            // Named whether or not its row was the one kept (a lie about a job stored already
            // is a lie all the same), once a group and at most a few: 4,096 rows each naming a
            // 255-byte host would pass the coordinator's frame limit, and lose every ack.
            if results[index].refutedAtSink, named.count < Self.namedPerGroup, named.insert(results[index].worker).inserted {
                row.refutedWorker = results[index].worker
            }
            jobs[batch, default: []].append(row)
        }
        return batches.map { .send(.stored(batch: $0, jobs: jobs[$0]!)) }
    }

    /// A page read for a `readStored` action: fewer than asked means the batch has no more.
    public func read(batch: String, from: Int, limit: Int, page: [StoredJob]) -> [Action] {
        [.send(.storedPage(batch: batch, from: from, jobs: page, complete: page.count < limit))]
    }

    private mutating func storeWaiting() -> Action {
        defer {
            // Not removeAll(keepingCapacity:): the buffer is the store action's now, so keeping
            // capacity would allocate another, which the next frame's array replaces anyway.
            waiting = []
            waitingSince = nil
        }
        return .store(waiting)
    }
}
