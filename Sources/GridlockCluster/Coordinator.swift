// `gridlock coordinator`: the loop around CoordinatorMachine. It owns the jobs socket (ROUTER,
// workers and the sink's acknowledgements), a socket to the sink's results endpoint (failed
// and unreadable jobs), and the input; it feeds the machine frames, input and ticks, and sends
// what the machine says. Every decision is the machine's (CoordinatorMachine.swift).

import Foundation
import GridlockClusterBase
import GridlockWire
import ZeroMQ

public enum Coordinator {
    public struct Configuration: Sendable {
        public var bind: String
        /// The sink's results endpoint, asked for once the jobs endpoint is bound: failed and
        /// unreadable jobs are reported there.
        public var sink: @Sendable () -> String
        public var machine: CoordinatorMachine.Configuration
        /// Where lines for the operator go (refused frames, a few a minute).
        public var log: @Sendable (String) -> Void = { _ in }
        /// CURVE: the jobs socket admits only the allowlist's workers and sink (the context's
        /// ZAP handler decides), and the sink is reached only at its own key.
        public var curve: RoleKeys?
        /// The cap on the jobs socket's TCP peers (`--max-peers`), kept by the loop (GateWatch);
        /// nil: none (a local batch's coordinator, reached only by its own workers).
        public var peers: PeerGate?

        public init(bind: String, sink: @escaping @Sendable () -> String, machine: CoordinatorMachine.Configuration) {
            self.bind = bind
            self.sink = sink
            self.machine = machine
        }
    }

    public struct Outcome: Sendable {
        public var progress: CoordinatorProgress
        /// Why it stopped; nil when asked to stop (`stop`) before the batch was over.
        public var stop: CoordinatorStop?
    }

    /// How many jobs one pass of the loop reads at most, so reading never delays the sockets.
    static let readGroup = 1_024
    static let timerInterval: Duration = .milliseconds(100)
    static let progressInterval: Duration = .milliseconds(500)
    /// How long a finished coordinator stays to tell workers still asking that it is drained.
    static let drainLinger: Duration = .milliseconds(300)

    /// Runs the batch until it is over or `stop`. `bound` receives the jobs endpoint once bound;
    /// `progress` is called about twice a second. `workersGone` says whether no worker is left
    /// to ask (a local batch's have all exited): the linger after the batch then ends early.
    /// Call on a thread of its own.
    public static func run(
        _ reader: JobReader, _ configuration: Configuration, context: ZMQContext, stop: StopFlag,
        bound: (String) -> Void = { _ in }, workersGone: () -> Bool = { false }, progress: (CoordinatorProgress) -> Void = { _ in }
    ) throws -> Outcome {
        let router = try ZMQSocket(context, .router)
        try router.set(.maximumMessageBytes(WireProtocol.maximumCoordinatorFrameBytes))
        try router.set(.lingerMilliseconds(1_000))
        if let curve = configuration.curve { try router.secure(curve.server) }
        let watch = try configuration.peers.map { try GateWatch(router, context: context, gate: $0, name: "coordinator") }
        try router.bind(configuration.bind)
        watch?.bound(to: router.lastEndpoint)
        bound(router.lastEndpoint)
        let sink = try ZMQSocket(context, .push)
        try sink.set(.lingerMilliseconds(2_000))
        if let curve = configuration.curve { try sink.secure(curve.client(of: .sink)) }
        try sink.connect(configuration.sink())
        defer {
            watch?.close()
            router.close()
            sink.close()
        }
        var machineConfiguration = configuration.machine
        // Below 2^62: a run never counts past the end.
        machineConfiguration.chunkEpoch = UInt64.random(in: 1...(1 << 62))
        var machine = CoordinatorMachine(configuration: machineConfiguration)
        var stopped: CoordinatorStop?
        func perform(_ actions: [CoordinatorMachine.Action]) throws {
            for action in actions {
                switch action {
                case .send(let peer, let message): try router.send([peer] + message.frames(key: configuration.machine.key), dontWait: true)
                case .sendResults(let message): try sink.send([message.encoded()], dontWait: true)
                case .stop(let reason): stopped = reason
                case .log(let line): configuration.log(line)
                }
            }
        }
        let clock = ContinuousClock()
        var lastProgress = clock.now
        var lastTimers = clock.now
        var stoppedAt: ContinuousClock.Instant?
        while !stop.isStopped {
            let wanted = min(machine.wantedJobs, readGroup)
            var input: [Int32] = []
            if wanted > 0 {
                let jobs = try reader.next(wanted)
                try perform(machine.read(jobs, ended: reader.ended, now: clock.now))
                if let descriptor = reader.waitingOn { input = [descriptor] }
            }
            // While input is wanted and at hand, only glance at the socket; otherwise wait for
            // the socket, or for the input that has nothing to give yet (a pipe).
            let wait = machine.wantedJobs > 0 && input.isEmpty ? Duration.zero : WireProtocol.pollInterval
            let readable = try ZMQPoller.readable([router] + (watch.map { [$0.socket] } ?? []), descriptors: input, timeout: wait)
            if watch != nil, readable[1], let line = try watch?.drain(now: clock.now) { configuration.log(line) }
            watch?.tend(now: clock.now)
            if readable[0] {
                var handled = 0
                while handled < 10_000, let frames = try router.receive() {
                    handled += 1
                    try perform(machine.receive(frames, now: clock.now))
                }
            }
            if lastTimers.duration(to: clock.now) >= timerInterval {
                try perform(machine.tick(now: clock.now))
                lastTimers = clock.now
            }
            if lastProgress.duration(to: clock.now) >= progressInterval {
                progress(machine.progress)
                lastProgress = clock.now
            }
            if let reason = stopped {
                guard reason == .complete else { break }
                if stoppedAt == nil { stoppedAt = clock.now }
                if lingerIsOver(lingered: stoppedAt!.duration(to: clock.now), workersGone: workersGone) { break }
            }
        }
        progress(machine.progress)
        return Outcome(progress: machine.progress, stop: stopped)
    }

    /// Whether a finished coordinator may go: it has stayed `drainLinger` for workers still
    /// asking, or none is left to ask. (It stayed the whole 300 ms after every local batch, 5% of
    /// a million trivial jobs' time, though its workers had all been told and had exited.)
    static func lingerIsOver(lingered: Duration, workersGone: () -> Bool) -> Bool {
        lingered >= drainLinger || workersGone()
    }
}
