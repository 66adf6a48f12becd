// The three roles on their own, one per machine if need be: `gridlock worker`, `gridlock sink`,
// `gridlock coordinator`. Stable roles bind, workers connect, so adding workers needs no change.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore
import GridlockWire
import ZeroMQ

struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Solve jobs from a coordinator and send the results to a sink.",
        discussion: """
            Example (one machine per role):
              gridlock worker --coordinator tcp://coordinator:5555 --sink tcp://sink:5556 --processes 8
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(help: "The coordinator's jobs endpoint (config: coordinator.endpoint).")
    var coordinator: String?

    @Option(help: "The sink's results endpoint (config: sink.endpoint).")
    var sink: String?

    @Option(help: "Worker processes to run, each solving one job at a time (config: worker.processes; default 1).")
    var processes: Int?

    @Option(help: "The most jobs each process holds at once (config: worker.window; default 256). Below it the number adapts to about 25 ms of work, at least 2.")
    var window: Int?

    @Flag(help: "Exit when the coordinator says the batch is done (otherwise wait for the next).")
    var exitWhenDrained = false

    func run() throws {
        let file = try config.load()
        let coordinator = try ConfigFile.require(self.coordinator, file, "coordinator.endpoint", flag: "--coordinator")
        let sink = try ConfigFile.require(self.sink, file, "sink.endpoint", flag: "--sink")
        let processes = self.processes ?? file.int("worker.processes") ?? 1
        let window = self.window ?? file.int("worker.window") ?? WireProtocol.maximumCredit
        guard processes >= 1, window >= 1 else { throw ValidationError("--processes and --window must be at least 1") }
        guard processes == 1 else {
            var flags = ["--coordinator", coordinator, "--sink", sink, "--processes", "1", "--window", "\(window)"]
            if let path = config.config { flags += ["--config", path] }
            if exitWhenDrained { flags.append("--exit-when-drained") }
            let children = try (0..<processes).map { _ in try LocalCluster.spawnWorker(flags) }
            for child in children { child.waitUntilExit() }
            return
        }
        let identity = WorkerIdentity(host: ProcessInfo.processInfo.hostName, pid: Int(getpid()))
        var configuration = Worker.Configuration(
            coordinator: coordinator, sink: sink, identity: identity, exitWhenDrained: exitWhenDrained)
        configuration.maximumWindow = window
        if let milliseconds = file.int("worker.heartbeat_ms") { configuration.heartbeatInterval = .milliseconds(milliseconds) }
        _ = try RoleLifetime.run { context, stop in try Worker.run(configuration, context: context, stop: stop) }
    }
}

struct SinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sink",
        abstract: "Store results in SQLite, one row per job, and acknowledge them to the coordinator.",
        discussion: """
            Example:
              gridlock sink --bind tcp://*:5556 --coordinator tcp://coordinator:5555 --db results.sqlite
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(help: "The results endpoint to bind (config: sink.bind; default tcp://*:5556).")
    var bind: String?

    @Option(help: "The coordinator's jobs endpoint (config: coordinator.endpoint).")
    var coordinator: String?

    @Option(help: "The SQLite results file (config: sink.database; default gridlock-results.sqlite).")
    var db: String?

    func run() throws {
        let file = try config.load()
        let endpoint = try ConfigFile.require(coordinator, file, "coordinator.endpoint", flag: "--coordinator")
        let bind = self.bind ?? file.string("sink.bind") ?? "tcp://*:5556"
        let store = try ResultStore(path: db ?? file.string("sink.database") ?? "gridlock-results.sqlite")
        let counters = Shared(SinkCounters())
        try RoleLifetime.run { context, stop in
            try Sink.run(
                Sink.Configuration(bind: bind, coordinator: { endpoint }, database: store),
                context: context, stop: stop, counters: counters,
                bound: { StandardError.write("sink: bound \($0), storing in \(store.path)\n") })
        }
        let final = counters.current
        StandardError.write("sink: \(final.stored) stored, \(final.duplicates) duplicates, \(final.dropped.malformed) malformed frames dropped\n")
    }
}

struct CoordinatorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinator",
        abstract: "Hand out the jobs of puzzle files to workers and follow each until it is stored.",
        discussion: """
            Restarted with the same files, --batch and --journal, it resumes: jobs the journal or
            the sink lists as stored are not solved again.

            Example:
              gridlock coordinator data/rushhour/rush_18k.txt --batch big --journal big.journal \\
                --bind tcp://*:5555 --sink tcp://sink:5556
            """
    )

    @Argument(help: "Puzzle files.")
    var files: [String]

    @OptionGroup var jobOptions: JobOptions

    @OptionGroup var config: ConfigOptions

    @Option(help: "The jobs endpoint to bind (config: coordinator.bind; default tcp://*:5555).")
    var bind: String?

    @Option(help: "The sink's results endpoint, where failed and invalid jobs are reported (config: sink.endpoint).")
    var sink: String?

    @Option(help: "The batch's name; workers and the sink file results under it.")
    var batch: String

    @Option(help: "Append stored job numbers here, to resume after a restart.")
    var journal: String?

    @Option(help: "Attempts before a job is recorded as failed (config: coordinator.attempts; default 3).")
    var attempts: Int?

    @Option(help: "Seconds without a heartbeat before a worker is presumed dead (config: coordinator.silence_limit_s; default 3).")
    var silenceLimit: Double?

    @Option(help: "Seconds a finished job may wait for the sink's acknowledgement (config: coordinator.store_timeout_s; default 10).")
    var storeTimeout: Double?

    func validate() throws {
        try jobOptions.validate()
    }

    func run() throws {
        let file = try config.load()
        let sinkEndpoint = try ConfigFile.require(sink, file, "sink.endpoint", flag: "--sink")
        let inputs = try PuzzleInput.read(files).map { BatchPlanner.Input(name: $0.name, text: $0.text) }
        let plan = BatchPlanner.plan(
            batch: batch, inputs: inputs, kind: jobOptions.reading.puzzleKind, tileOptions: jobOptions.reading.tileOptions,
            solvers: jobOptions.solverNames,
            maxStates: jobOptions.maxStates ?? file.int("job.max_states") ?? SolveOptions.defaultMaxStates,
            timeoutSeconds: jobOptions.timeout ?? file.double("job.timeout_s"))
        var configuration = Coordinator.Configuration(bind: bind ?? file.string("coordinator.bind") ?? "tcp://*:5555", sink: { sinkEndpoint })
        configuration.maxAttempts = attempts ?? file.int("coordinator.attempts") ?? 3
        configuration.journal = journal
        configuration.silenceLimit = .seconds(silenceLimit ?? file.double("coordinator.silence_limit_s") ?? 3)
        configuration.storeTimeout = .seconds(storeTimeout ?? file.double("coordinator.store_timeout_s") ?? 10)
        guard configuration.maxAttempts >= 1 else { throw ValidationError("--attempts must be at least 1") }
        let progress = ProgressLine(total: plan.total)
        let final = try RoleLifetime.run { context, stop in
            try Coordinator.run(
                plan, configuration, context: context, stop: stop,
                bound: { StandardError.write("coordinator: bound \($0), \(plan.total) jobs\n") },
                progress: { progress.show($0, sink: SinkCounters()) })
        }
        progress.finish()
        StandardError.write("coordinator: \(final.stored) of \(final.total) stored, \(final.failed) failed, \(final.reissued) re-issued, \(final.dropped.malformed) malformed and \(final.dropped.unexpected) unexpected frames dropped\n")
        if !final.isComplete { throw ExitCode(2) }
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
enum RoleLifetime {
    static func run<T>(_ body: (ZMQContext, StopFlag) throws -> T) throws -> T {
        let context = try ZMQContext()
        let stop = StopFlag()
        TerminationSignals.forward(to: stop)
        defer { context.terminate() }
        return try body(context, stop)
    }
}

/// SIGINT and SIGTERM ask the socket loops to finish cleanly (close sockets, flush results).
enum TerminationSignals {
    nonisolated(unsafe) private static var flag: StopFlag?

    static func forward(to stop: StopFlag) {
        flag = stop
        var signals = sigset_t()
        sigemptyset(&signals)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in TerminationSignals.flag?.stop() }
            sigaddset(&signals, signalNumber)
        }
        // A parent may have started us with these blocked (a test runner does): unblock them.
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
