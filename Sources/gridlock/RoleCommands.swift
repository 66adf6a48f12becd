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

    @Option(help: "The coordinator's jobs endpoint.")
    var coordinator: String

    @Option(help: "The sink's results endpoint.")
    var sink: String

    @Option(help: "Worker processes to run (each solves one job at a time).")
    var processes = 1

    @Flag(help: "Exit when the coordinator says the batch is done (otherwise wait for the next).")
    var exitWhenDrained = false

    func validate() throws {
        guard processes >= 1 else { throw ValidationError("--processes must be at least 1") }
    }

    func run() throws {
        guard processes == 1 else {
            var arguments = ["worker", "--coordinator", coordinator, "--sink", sink]
            if exitWhenDrained { arguments.append("--exit-when-drained") }
            let children = try (0..<processes).map { _ in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: LocalCluster.selfExecutable)
                process.arguments = arguments
                try process.run()
                return process
            }
            for child in children { child.waitUntilExit() }
            return
        }
        let identity = WorkerIdentity(host: ProcessInfo.processInfo.hostName, pid: Int(getpid()))
        let context = try ZMQContext()
        let stop = StopFlag()
        TerminationSignals.forward(to: stop)
        let configuration = Worker.Configuration(
            coordinator: coordinator, sink: sink, identity: identity, exitWhenDrained: exitWhenDrained)
        _ = try Worker.run(configuration, context: context, stop: stop)
        context.terminate()
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

    @Option(help: "The results endpoint to bind.")
    var bind = "tcp://*:5556"

    @Option(help: "The coordinator's jobs endpoint.")
    var coordinator: String

    @Option(help: "The SQLite results file.")
    var db = "gridlock-results.sqlite"

    func run() throws {
        let store = try ResultStore(path: db)
        let context = try ZMQContext()
        let stop = StopFlag()
        TerminationSignals.forward(to: stop)
        let endpoint = coordinator
        let counters = Shared(SinkCounters())
        try Sink.run(
            Sink.Configuration(bind: bind, coordinator: { endpoint }, database: store),
            context: context, stop: stop, counters: counters,
            bound: { StandardError.write("sink: bound \($0), storing in \(store.path)\n") })
        let final = counters.current
        StandardError.write("sink: \(final.stored) stored, \(final.duplicates) duplicates, \(final.dropped.malformed) malformed frames dropped\n")
        context.terminate()
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

    @Option(help: "The jobs endpoint to bind.")
    var bind = "tcp://*:5555"

    @Option(help: "The sink's results endpoint (failed and invalid jobs are reported there).")
    var sink: String

    @Option(help: "The batch's name; workers and the sink file results under it.")
    var batch: String

    @Option(help: "Append stored job numbers here, to resume after a restart.")
    var journal: String?

    @Option(help: "Attempts before a job is recorded as failed.")
    var attempts = 3

    @Option(help: "Seconds without a heartbeat after which a worker is presumed dead and its jobs re-issued.")
    var silenceLimit = Double(seconds: WireProtocol.workerSilenceLimit)

    @Option(help: "Seconds a finished job may wait for the sink's acknowledgement before it is re-issued.")
    var storeTimeout = 10.0

    func validate() throws {
        try jobOptions.validate()
        guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1") }
        guard silenceLimit > 0, storeTimeout > 0 else { throw ValidationError("--silence-limit and --store-timeout must be positive") }
    }

    func run() throws {
        let inputs = try PuzzleInput.read(files).map { BatchPlanner.Input(name: $0.name, text: $0.text) }
        let plan = BatchPlanner.plan(
            batch: batch, inputs: inputs, solvers: jobOptions.solverNames, maxStates: jobOptions.maxStates,
            timeoutSeconds: jobOptions.timeout)
        let context = try ZMQContext()
        let stop = StopFlag()
        TerminationSignals.forward(to: stop)
        let sinkEndpoint = sink
        var configuration = Coordinator.Configuration(bind: bind, sink: { sinkEndpoint })
        configuration.maxAttempts = attempts
        configuration.journal = journal
        configuration.silenceLimit = .seconds(silenceLimit)
        configuration.storeTimeout = .seconds(storeTimeout)
        let progress = ProgressLine(total: plan.total)
        let final = try Coordinator.run(
            plan, configuration, context: context, stop: stop,
            bound: { StandardError.write("coordinator: bound \($0), \(plan.total) jobs\n") },
            progress: { progress.show($0, sink: SinkCounters()) })
        progress.finish()
        StandardError.write("coordinator: \(final.stored) of \(final.total) stored, \(final.failed) failed, \(final.reissued) re-issued, \(final.dropped.malformed) malformed and \(final.dropped.unexpected) unexpected frames dropped\n")
        context.terminate()
        if !final.isComplete { throw ExitCode(2) }
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
