// The roles on their own, one per machine if need be: `gridlock worker` and `gridlock sink` here,
// `gridlock coordinator` in CoordinatorCommand.swift. Stable roles bind, workers connect, so adding
// workers needs no change.

import ArgumentParser
import Foundation
import GridlockClusterBase
import Synchronization
import GridlockCluster
import GridlockCore
import GridlockWire
import Logging
import ZeroMQ

struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Solve jobs from a coordinator and send the results to a sink.",
        usage: "gridlock worker [<options>]",
        discussion: """
            Example (one machine per role):
              gridlock worker --coordinator tcp://coordinator:5555 \\
                  --sink tcp://sink:5556 --keys cluster-keys --workers 8

            --memory-budget is shared: each of the --workers gets an equal part of it for its \
            searches. Keys are required (--keys from `gridlock keys generate`, or --key-file \
            from `gridlock key`): only workers that hold them are handed jobs. --insecure runs \
            without, for a throw-away test on one machine.
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(help: "The coordinator's jobs endpoint (config: coordinator.endpoint).")
    var coordinator: String?

    @Option(help: "The sink's results endpoint (config: sink.endpoint).")
    var sink: String?

    @Option(help: "Worker processes to run, each solving one job at a time (config: worker.processes; default 1).")
    var workers: Int?

    /// The option's old name, still taken.
    @Option(help: .hidden)
    var processes: Int?

    @Option(help: "The most jobs each process holds at once (config: worker.window; default 256). Below it the number adapts to about 25 ms of work, at least 2.")
    var window: Int?

    @Flag(help: "Exit when the coordinator says the batch is done (otherwise wait for the next, within --coordinator-silence-limit).")
    var exitWhenDrained = false

    @OptionGroup var key: KeyOptions

    /// The budget of all --workers together: each process's jobs get an equal share.
    @OptionGroup var memoryBudget: MemoryBudgetOption

    @OptionGroup var external: ExternalSolverOptions

    @Option(help: "Exit after hearing nothing from the coordinator for this many seconds; it says it is there every second (config: worker.coordinator_silence_s; default 120; 0: never).")
    var coordinatorSilenceLimit: Double?

    @Option(help: "Exit after this many seconds without a connection to the sink, which takes this worker's results; it warns every 5 s before (config: worker.sink_silence_s; default 120; 0: never).")
    var sinkSilenceLimit: Double?

    @OptionGroup var logs: LogFormatOption

    @OptionGroup var placement: PinOptions

    /// The CPU a pinned pool's supervisor gives each of its processes.
    @Option(help: .hidden)
    var cpu: Int?

    @Option(help: "Serve this worker's /metrics, /healthz and /readyz on HOST:PORT (one process only: not with --workers over 1).")
    var metrics: String?

    @Option(help: "Before asking for jobs, have idastar-pdb's pattern databases of this goal ready (repeatable; blank-last or blank-first): mapped from the cache, or built into it by the first process, the others waiting. Without it the first such job loads them, apart from its time.")
    var tables: [TileGoal] = []

    func run() throws {
        let log = logs.logger(role: "worker")
        try logs.run(log) { try runWorker(log) }
    }

    private func runWorker(_ log: Logger) throws {
        WorkerSupervisor.dieWithSupervisor(whenGone: TerminationSignals.requestStop)
        let file = try config.load()
        let coordinator = try ConfigFile.require(self.coordinator, file, "coordinator.endpoint", flag: "--coordinator")
        let sink = try ConfigFile.require(self.sink, file, "sink.endpoint", flag: "--sink")
        guard workers == nil || self.processes == nil else { throw ValidationError("give --workers (or its old name --processes), not both") }
        let processes = workers ?? self.processes ?? file.int("worker.processes") ?? 1
        let window = self.window ?? file.int("worker.window") ?? WireProtocol.maximumCredit
        guard processes >= 1, window >= 1 else { throw ValidationError("--workers and --window must be at least 1") }
        let metricsAddress = metrics ?? file.string("worker.metrics")
        if metricsAddress != nil, processes > 1 {
            throw ValidationError("--metrics (or worker.metrics) serves one process: run one worker a pod (or a port each), not --workers \(processes)")
        }
        try memoryBudget.validate(sharedBy: processes)
        if let limit = coordinatorSilenceLimit ?? file.double("worker.coordinator_silence_s"), !(limit >= 0 && limit <= 86_400) {
            throw ValidationError("--coordinator-silence-limit must be a number of seconds from 0 (never) to 86400")
        }
        if let limit = sinkSilenceLimit ?? file.double("worker.sink_silence_s"), !(limit >= 0 && limit <= 86_400) {
            throw ValidationError("--sink-silence-limit must be a number of seconds from 0 (never) to 86400")
        }
        // Read before a pool starts, so a bad key file is one clear error, not every process's
        // death; a pool's processes do not repeat its warning.
        let (security, warnings) = try key.load(file, role: .worker, endpoints: [coordinator, sink])
        if !WorkerSupervisor.isSupervised { for warning in warnings { log.warning("\(warning)") } }
        guard processes == 1 else {
            var flags = [
                "worker", "--coordinator", coordinator, "--sink", sink, "--workers", "1", "--window", "\(window)", "--memory-budget",
                memoryBudget.share(of: processes),
            ]
            if let coordinatorSilenceLimit { flags += ["--coordinator-silence-limit", "\(coordinatorSilenceLimit)"] }
            if let sinkSilenceLimit { flags += ["--sink-silence-limit", "\(sinkSilenceLimit)"] }
            if let path = config.config { flags += ["--config", path] }
            if let path = key.keyFile { flags += ["--key-file", path] }
            if let directory = key.keys { flags += ["--keys", directory] }
            if key.insecure { flags.append("--insecure") }
            if exitWhenDrained { flags.append("--exit-when-drained") }
            flags += external.flags
            for goal in tables { flags += ["--tables", goal.rawValue] }
            flags += ["--log-format", logs.logFormat.rawValue]
            // A pool: a process that dies is replaced; one that exits cleanly (drained) is not.
            let pool = WorkerSupervisor(
                executable: WorkerSupervisor.currentExecutable, arguments: flags, replaceCleanExits: false, cpus: placement.plan(workers: processes))
            try pool.start(processes)
            let stop = StopFlag()
            TerminationSignals.forward(to: stop)
            while !stop.isStopped, !pool.isFinished {
                if let reason = pool.check() {
                    pool.stop(signal: SIGTERM)
                    throw CommandFailure(reason)
                }
                usleep(100_000)
            }
            pool.stop(signal: stop.isStopped ? SIGTERM : nil)
            return
        }
        if FaultInjection.crashesAtStart { abort() }
        if let cpu, !CPUPlacement.allowed().contains(cpu) {
            throw ValidationError("--cpu \(cpu) is not a CPU this process may use (\(CPUPlacement.allowed().map(String.init).joined(separator: ",")))")
        }
        if let cpu = cpu ?? placement.plan(workers: 1).first {
            try CPUPlacement.pin(to: cpu)
            log.info("worker pinned to CPU \(cpu)")
        }
        for goal in tables {
            let clock = ContinuousClock()
            let start = clock.now
            _ = TilePatternDatabases.shared.database(for: goal)
            log.info("setup: the \(goal.rawValue) pattern databases ready in \(Double(seconds: start.duration(to: clock.now)).formatted(decimals: 2)) s, before any job")
        }
        let identity = WorkerIdentity.thisProcess
        var configuration = Worker.Configuration(
            coordinator: coordinator, sink: sink, identity: identity, exitWhenDrained: exitWhenDrained)
        configuration.key = security.key
        configuration.curve = security.curve
        configuration.memoryBudgetBytes = memoryBudget.bytes
        configuration.external = try external.solvers(file: file)
        // This process's only children are its outside solvers' (ExternalProcess).
        ExternalProcess.reapsEveryChild.store(true, ordering: .relaxed)
        configuration.maximumWindow = window
        configuration.log = { log.warning("\($0)") }
        if let milliseconds = file.int("worker.heartbeat_ms") { configuration.heartbeatInterval = .milliseconds(milliseconds) }
        if let limit = coordinatorSilenceLimit ?? file.double("worker.coordinator_silence_s") {
            configuration.coordinatorSilenceLimit = limit == 0 ? nil : .milliseconds(Int64(limit * 1_000))
        }
        if let limit = sinkSilenceLimit ?? file.double("worker.sink_silence_s") {
            configuration.sinkSilenceLimit = limit == 0 ? nil : .milliseconds(Int64(limit * 1_000))
        }
        let observation = try MetricsOption(metrics: metricsAddress).start(file, key: "worker.metrics", role: .worker, log: { log.warning("\($0)") })
        defer { observation?.stop() }
        if let observation {
            log.info("metrics on http://\(observation.server.address)/metrics")
            observation.health.markBound()
            configuration.turned = { observation.metrics.updateWorker(solved: $0) }
        }
        let outcome = try RoleLifetime.run { context, stop in try Worker.run(configuration, context: context, stop: stop) }
        if outcome.coordinatorSilent {
            // A clean exit: a pool does not replace it, and nothing is lost (the coordinator
            // re-issues whatever this worker held, if it ever comes back).
            log.warning("""
                worker \(identity): nothing heard from the coordinator at \(coordinator) for \
                \(configuration.coordinatorSilenceLimit.map { "\(Double(seconds: $0))" } ?? "?") s; it is gone \
                or unreachable (\(configuration.security.mismatchQuestion)?), so this worker exits (--coordinator-silence-limit)
                """)
        }
        if outcome.sinkSilent {
            // Clean, as above: nothing it held is lost (the coordinator re-issues what the sink never stored).
            log.warning("""
                worker \(identity): no connection to the sink at \(sink) for \
                \(configuration.sinkSilenceLimit.map { "\(Double(seconds: $0))" } ?? "?") s; it is gone or unreachable \
                (\(configuration.security.mismatchQuestion(about: "sink"))?), so this worker exits (--sink-silence-limit)
                """)
        }
    }
}

struct SinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sink",
        abstract: "Store results in SQLite, one row per job, and acknowledge them to the coordinator.",
        usage: "gridlock sink [<options>]",
        discussion: """
            Example:
              gridlock sink --bind tcp://*:5556 --coordinator tcp://coordinator:5555 \\
                  --keys cluster-keys --db results.sqlite
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(help: "The results endpoint to bind (config: sink.bind; default tcp://127.0.0.1:5556, loopback only: name an address, or tcp://*:5556, to take results from other machines).")
    var bind: String?

    @Option(help: "The coordinator's jobs endpoint (config: coordinator.endpoint).")
    var coordinator: String?

    @Option(help: "The results database: a SQLite file, or a postgresql:// URL in a build with PostgreSQL (config: sink.database; default gridlock-results.sqlite).")
    var db: String?

    @OptionGroup var key: KeyOptions

    @OptionGroup var metrics: MetricsOption

    @OptionGroup var peers: PeerOptions

    @OptionGroup var logs: LogFormatOption

    func run() throws {
        let log = logs.logger(role: "sink")
        try logs.run(log) { try runSink(log) }
    }

    private func runSink(_ log: Logger) throws {
        let file = try config.load()
        let endpoint = try ConfigFile.require(coordinator, file, "coordinator.endpoint", flag: "--coordinator")
        try KeyOptions.checkPorts([endpoint])
        let bind = self.bind ?? file.string("sink.bind") ?? "tcp://127.0.0.1:5556"
        let (security, warnings) = try self.key.load(file, role: .sink, endpoints: [bind])
        for warning in warnings { log.warning("\(warning)") }
        let store = try ResultsDatabase.open(db ?? file.string("sink.database") ?? "gridlock-results.sqlite", readOnly: false)
        let counters = Shared(SinkCounters())
        let observation = try metrics.start(file, key: "sink.metrics", role: .sink, log: { log.warning("\($0)") })
        defer { observation?.stop() }
        if let observation { log.info("metrics on http://\(observation.server.address)/metrics") }
        let refusals = RefusedConnections()
        let gate = try peers.gate(file, key: "sink.max_peers", role: "sink")
        try RoleLifetime.run(admitting: security.curve, refusals: refusals, log: { log.warning("\($0)") }) { context, stop in
            var sink = Sink.Configuration(bind: bind, coordinator: { endpoint }, database: store)
            sink.peers = gate
            sink.key = security.key
            sink.curve = security.curve
            sink.log = { log.warning("\($0)") }
            if let observation {
                sink.observeStore = { observation.metrics.observeStore($0, results: $1) }
                sink.report = { counts in
                    observation.metrics.update(counts)
                    observation.metrics.updateRefused(refusals.count + (gate?.closedCount ?? 0))
                }
            }
            return try Sink.run(
                sink,
                context: context, stop: stop, counters: counters,
                bound: {
                    observation?.health.markBound()
                    log.info("bound \($0), storing in \(store.location)")
                })
        }
        let final = counters.current
        log.info("""
            \(final.stored) stored, \(final.duplicates) duplicates, \(final.refutedByReplay) answers stored as wrong \
            because their replay failed, \(final.cut) results cut to their bounds, \(final.dropped.malformed) \
            malformed and \(final.dropped.forged) forged frames or results dropped, \(refusals.count) connections refused at the handshake, \(gate?.closedCount ?? 0) closed past --max-peers
            """)
    }
}

/// `--config FILE`, shared by the roles: the file's values, which the roles' own flags beat.
struct ConfigOptions: ParsableArguments {
    @Option(help: "A config file (see config/gridlock.conf); flags override it.")
    var config: String?

    func load() throws -> ClusterConfig {
        guard let config else { return ClusterConfig() }
        do {
            return try ClusterConfig.load(path: config)
        } catch let problem as ClusterConfig.Problem {
            throw ValidationError(problem.description)
        }
    }
}

/// The rule that a flag beats the config file, for values with no default.
enum ConfigFile {
    static func require(_ flag: String?, _ file: ClusterConfig, _ key: String, flag name: String) throws -> String {
        guard let value = flag ?? file.string(key) else {
            throw ValidationError("give \(name), or `\(key)` in a --config file")
        }
        return value
    }
}

/// A role's life: a ZeroMQ context, SIGINT and SIGTERM turned into a stop request, the role's
/// loop, and the context closed after it (which waits for the role's sockets to close).
///
/// A role that binds with CURVE (`admitting` its allowlist) runs the context's ZAP handler
/// first: without it, libzmq would admit any client key at all. (The cap on peers is not asked
/// there: PeerGate.swift says why.)
enum RoleLifetime {
    static func run<T>(
        admitting keys: RoleKeys? = nil, refusals: RefusedConnections = RefusedConnections(),
        log: @escaping @Sendable (String) -> Void = { _ in }, _ body: (ZMQContext, StopFlag) throws -> T
    ) throws -> T {
        // Before any socket: a role with many peers holds a descriptor for each.
        FileDescriptorLimit.raiseToHard()
        let context = try ZMQContext()
        let stop = StopFlag()
        TerminationSignals.forward(to: stop)
        defer { context.terminate() }
        var handler: ZAPHandler?
        if let keys {
            handler = try ZAPHandler(
                context: context, decide: keys.allowlist.decide,
                denied: { request, reason in refusals.note(request, reason).map(log) })
        }
        defer { handler?.stop() }
        return try body(context, stop)
    }
}

/// SIGINT and SIGTERM ask the socket loops to finish cleanly (close sockets, flush results). A
/// second one ends the process at once: the handler gives the signal back its default action,
/// so an impatient Ctrl-C twice is never ignored.
enum TerminationSignals {
    nonisolated(unsafe) private static var flag: StopFlag?
    /// The signal that asked to stop, 0 before one has.
    static let received = Atomic<Int32>(0)

    static func forward(to stop: StopFlag) {
        flag = stop
        // Made now, not on first use inside a handler (lazy initialisation is not signal-safe).
        received.store(0, ordering: .relaxed)
        var signals = sigset_t()
        sigemptyset(&signals)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { number in
                TerminationSignals.received.store(number, ordering: .relaxed)
                TerminationSignals.flag?.stop()
                signal(number, SIG_DFL)
            }
            sigaddset(&signals, signalNumber)
        }
        // A parent may have started us with these blocked (a test runner does): unblock them.
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Stops as a SIGTERM would, without sending one: a second signal, after the parent-death
    /// signal, would end the process at once, losing the results it has not sent. Before the
    /// flag exists, nothing is under way: the signal then does.
    static func requestStop() {
        guard let flag else {
            kill(getpid(), SIGTERM)
            return
        }
        _ = received.compareExchange(expected: 0, desired: SIGTERM, ordering: .relaxed)
        flag.stop()
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
