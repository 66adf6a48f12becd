// The three roles on their own, one per machine if need be: `gridlock worker`, `gridlock sink`,
// `gridlock coordinator`. Stable roles bind, workers connect, so adding workers needs no change.

import ArgumentParser
import Foundation
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
                  --sink tcp://sink:5556 --workers 8

            --memory-budget is shared: each of the --workers gets an equal part of it for its \
            searches. With a cluster key (--key-file), only workers that hold it are handed jobs.
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
            if let path = config.config { flags += ["--config", path] }
            if let path = key.keyFile { flags += ["--key-file", path] }
            if let directory = key.keys { flags += ["--keys", directory] }
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
            while !stop.isStopped, !pool.allExited {
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
                  --db results.sqlite
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(help: "The results endpoint to bind (config: sink.bind; default tcp://127.0.0.1:5556, loopback only: name an address, or tcp://*:5556, to take results from other machines).")
    var bind: String?

    @Option(help: "The coordinator's jobs endpoint (config: coordinator.endpoint).")
    var coordinator: String?

    @Option(help: "The SQLite results file (config: sink.database; default gridlock-results.sqlite).")
    var db: String?

    @OptionGroup var key: KeyOptions

    @OptionGroup var metrics: MetricsOption

    @OptionGroup var logs: LogFormatOption

    func run() throws {
        let log = logs.logger(role: "sink")
        try logs.run(log) { try runSink(log) }
    }

    private func runSink(_ log: Logger) throws {
        let file = try config.load()
        let endpoint = try ConfigFile.require(coordinator, file, "coordinator.endpoint", flag: "--coordinator")
        let bind = self.bind ?? file.string("sink.bind") ?? "tcp://127.0.0.1:5556"
        let (security, warnings) = try self.key.load(file, role: .sink, endpoints: [bind])
        for warning in warnings { log.warning("\(warning)") }
        let store = try ResultStore(path: db ?? file.string("sink.database") ?? "gridlock-results.sqlite")
        let counters = Shared(SinkCounters())
        let observation = try metrics.start(file, key: "sink.metrics", role: .sink, log: { log.warning("\($0)") })
        defer { observation?.stop() }
        if let observation { log.info("metrics on http://\(observation.server.address)/metrics") }
        let refusals = RefusedConnections()
        try RoleLifetime.run(admitting: security.curve, refusals: refusals, log: { log.warning("\($0)") }) { context, stop in
            var sink = Sink.Configuration(bind: bind, coordinator: { endpoint }, database: store)
            sink.key = security.key
            sink.curve = security.curve
            sink.log = { log.warning("\($0)") }
            if let observation {
                sink.observeStore = { observation.metrics.observeStore($0, results: $1) }
                sink.report = { counts in
                    observation.metrics.update(counts)
                    observation.metrics.updateRefused(refusals.count)
                }
            }
            return try Sink.run(
                sink,
                context: context, stop: stop, counters: counters,
                bound: {
                    observation?.health.markBound()
                    log.info("bound \($0), storing in \(store.path)")
                })
        }
        let final = counters.current
        log.info("""
            \(final.stored) stored, \(final.duplicates) duplicates, \(final.dropped.malformed) malformed and \
            \(final.dropped.forged) forged frames or results dropped, \(refusals.count) connections refused
            """)
    }
}

struct CoordinatorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinator",
        abstract: "Hand out the jobs of puzzle files to workers and follow each until it is stored.",
        discussion: """
            The input is read as workers ask for jobs, so a batch of any size starts at once and \
            runs in bounded memory. Restarted with the same files and --batch, it resumes: the \
            sink lists what it stored, with each job's fingerprint, and only the rest is solved. \
            An input that changed since is refused, naming the first line that differs, unless \
            --resume-changed is given.

            Example:
              gridlock coordinator data/rushhour/rush_18k.txt --batch big \\
                --bind tcp://*:5555 --sink tcp://sink:5556

            Exit status, once every job is stored (from the sink's acknowledgements): 0 every job \
            solved or proved unsolvable; 1 some record could not be read (invalid input), or the \
            input changed since the batch ran; 2 some job was cut off by a limit or failed; 3 \
            some answer disagrees with the one the input gave (wrong); 64 bad usage; 130 or 143 \
            stopped by SIGINT or SIGTERM before the end (run it again to resume).
            """
    )

    @Argument(help: "Puzzle files.", completion: .file())
    var files: [String]

    @OptionGroup var jobOptions: JobOptions

    @OptionGroup var config: ConfigOptions

    @Option(help: "The jobs endpoint to bind (config: coordinator.bind; default tcp://127.0.0.1:5555, loopback only: name an address, or tcp://*:5555, to take workers from other machines).")
    var bind: String?

    @Option(help: "The sink's results endpoint, where failed and invalid jobs are reported (config: sink.endpoint).")
    var sink: String?

    @Option(help: "The batch's name; workers and the sink file results under it.")
    var batch: String

    @OptionGroup var key: KeyOptions

    @OptionGroup var metrics: MetricsOption

    @OptionGroup var logs: LogFormatOption

    @Option(help: .hidden)
    var journal: String?

    @Flag(help: "Resume even though the input changed since the batch ran: keep the stored rows that still match their job and solve the rest.")
    var resumeChanged = false

    @Option(help: "Attempts before a job is recorded as failed (config: coordinator.attempts; default 3).")
    var attempts: Int?

    @Option(help: "Seconds without a heartbeat before a worker is presumed dead (config: coordinator.silence_limit_s; default 3).")
    var silenceLimit: Double?

    @Option(help: "Seconds a finished job may wait for the sink's acknowledgement (config: coordinator.store_timeout_s; default 10).")
    var storeTimeout: Double?

    @Option(help: "Seconds without a word from the sink (it says hello every second) before the batch stops with exit 1; 0: never. A warning comes every 10 s before (config: coordinator.sink_silence_s; default 120).")
    var sinkSilenceLimit: Double?

    func validate() throws {
        try BatchName.check(batch)
        try jobOptions.validate()
        if let attempts, !(1...1_000).contains(attempts) { throw ValidationError("--attempts must be from 1 to 1000") }
        for (name, value) in [("--silence-limit", silenceLimit), ("--store-timeout", storeTimeout)] {
            if let value, !(value > 0 && value <= 86_400) { throw ValidationError("\(name) must be a number of seconds from 0 (excluded) to 86400") }
        }
        if let sinkSilenceLimit, !(sinkSilenceLimit == 0 || (sinkSilenceLimit >= 1 && sinkSilenceLimit <= 86_400)) {
            throw ValidationError("--sink-silence-limit must be 0 (never) or a number of seconds from 1 to 86400")
        }
    }

    func run() throws {
        let log = logs.logger(role: "coordinator")
        try logs.run(log) { try runCoordinator(log) }
    }

    private func runCoordinator(_ log: Logger) throws {
        let file = try config.load()
        let sinkEndpoint = try ConfigFile.require(sink, file, "sink.endpoint", flag: "--sink")
        if journal != nil {
            log.notice("--journal is no longer needed and is ignored: the sink's database says what is stored, by fingerprint")
        }
        try jobOptions.checkSolvers(file: file)
        let specification = jobOptions.specification(batch: batch, file: file)
        let reader = try JobReader(try PuzzleInput.jobInputs(files), specification: specification)
        var machine = CoordinatorMachine.Configuration(batch: batch, identity: .thisProcess)
        let bind = self.bind ?? file.string("coordinator.bind") ?? "tcp://127.0.0.1:5555"
        let (security, warnings) = try key.load(file, role: .coordinator, endpoints: [bind])
        for warning in warnings { log.warning("\(warning)") }
        machine.key = security.key
        machine.workersAdmittedByTransport = security.curve != nil
        machine.maxAttempts = attempts ?? file.int("coordinator.attempts") ?? 3
        machine.silenceLimit = .seconds(silenceLimit ?? file.double("coordinator.silence_limit_s") ?? 3)
        machine.storeTimeout = .seconds(storeTimeout ?? file.double("coordinator.store_timeout_s") ?? 10)
        let sinkSilence = sinkSilenceLimit ?? file.double("coordinator.sink_silence_s") ?? 120
        guard sinkSilence == 0 || (sinkSilence >= 1 && sinkSilence <= 86_400) else {
            throw ValidationError("coordinator.sink_silence_s must be 0 (never) or a number of seconds from 1 to 86400")
        }
        machine.sinkSilenceLimit = sinkSilence == 0 ? nil : .milliseconds(Int64(sinkSilence * 1_000))
        machine.jobsEndpoint = bind
        machine.resumeChanged = resumeChanged
        machine.paired = jobOptions.paired
        machine.servingSolverDigests = specification.servingSolverDigests
        machine.record = jobOptions.environment(batch: batch, specification: specification, recipe: jobOptions.recipe(files: files, file: file)).record
        machine.currentLoad = { MachineRecord.currentLoad() }
        var configuration = Coordinator.Configuration(bind: bind, sink: { sinkEndpoint }, machine: machine)
        configuration.log = { log.warning("\($0)") }
        configuration.curve = security.curve
        let progress = ProgressLine.logged(log, format: logs.logFormat)
        let observation = try metrics.start(file, key: "coordinator.metrics", role: .coordinator, log: { log.warning("\($0)") })
        defer { observation?.stop() }
        if let observation { log.info("metrics on http://\(observation.server.address)/metrics") }
        let refusals = RefusedConnections()
        let outcome = try RoleLifetime.run(admitting: security.curve, refusals: refusals, log: configuration.log) { context, stop in
            try Coordinator.run(
                reader, configuration, context: context, stop: stop,
                bound: {
                    observation?.health.markBound()
                    log.info("bound \($0)")
                },
                progress: { state in
                    progress.show(state, sink: SinkCounters())
                    observation?.metrics.update(state)
                    observation?.metrics.updateRefused(refusals.count)
                })
        }
        progress.finish()
        let final = outcome.progress
        log.info("""
            \(final.done) of \(final.read) stored (\(final.storedBefore) before this run, \(final.changed) changed), \
            \(final.failed) failed, \(final.reissued) re-issued, \(final.dropped.malformed) malformed, \
            \(final.dropped.unexpected) unexpected and \(final.dropped.forged) forged frames dropped, \
            \(refusals.count) connections refused
            """)
        switch outcome.stop {
        case .complete?:
            // The sink's acknowledgements and pages say how each stored job ended.
            let tally = final.tally
            let line = "results: \(tally.summary)" + (tally.wrong > 0 ? ": \(tally.wrong) answers disagree with the input's" : "")
            if tally.wrong > 0 { log.error("\(line)") } else { log.info("\(line)") }
            if final.tally.exitCode != 0 { throw ExitCode(final.tally.exitCode) }
        case .inputChanged(let reason)?:
            throw CommandFailure(reason)
        case .sinkSilent?:
            throw CommandFailure("""
                \(outcome.stop!) (sinks connect to \(bind); this coordinator reports to \(sinkEndpoint)); start the sink, \
                then this coordinator again with --batch \(batch) to resume
                """)
        case .sinkStopped?:
            throw CommandFailure("""
                \(outcome.stop!); once it is mended, start the sink and this coordinator again with \
                --batch \(batch) to resume: only jobs not stored are solved
                """)
        case nil:
            // Stopped before the end: told to (a signal, an eviction), which is not how the batch
            // ended, so an orchestrator can tell it from cut-off jobs (2) and restart it.
            let signal = TerminationSignals.received.load(ordering: .relaxed)
            log.notice("stopped before the end by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); run it again with --batch \(batch) to resume")
            throw ExitCode(128 + (signal == 0 ? SIGTERM : signal))
        }
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
/// first: without it, libzmq would admit any client key at all.
enum RoleLifetime {
    static func run<T>(
        admitting keys: RoleKeys? = nil, refusals: RefusedConnections = RefusedConnections(), log: @escaping @Sendable (String) -> Void = { _ in },
        _ body: (ZMQContext, StopFlag) throws -> T
    ) throws -> T {
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
