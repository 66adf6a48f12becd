// `gridlock batch`: the embedded default. A coordinator and a sink on threads of this process,
// `--workers N` worker processes, all on loopback; prints the tables when every job is stored.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore
import GridlockWire
import ZeroMQ

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Solve files of puzzles with local worker processes and print timing and memory tables.",
        discussion: """
            Starts a coordinator and a sink in this process and --workers worker processes
            (`gridlock worker`), connected over loopback TCP with ZeroMQ. Every result is stored
            once in SQLite (--db); the tables are printed at the end and can be printed again
            with `gridlock report DB`. Progress goes to standard error.

            Examples:
              gridlock batch data/samples/unblockme.txt
              gridlock batch data/rushhour/rush_18k.txt --solver bfs,bidirectional --db compare.sqlite
              gridlock batch data/rushhour/rush1000.txt --solver analyze   # gridlock analyze, as jobs
            """
    )

    @Argument(help: "Puzzle files (every format `gridlock solve` reads), or '-' for standard input.")
    var files: [String]

    @OptionGroup var jobOptions: JobOptions

    @Option(help: "Worker processes to start (default: one per core).")
    var workers = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "The SQLite results file (default: gridlock-results.sqlite in the working directory).")
    var db = "gridlock-results.sqlite"

    @Option(help: "The batch's name (default: batch- and the time). Reusing a name resumes that batch.")
    var batch: String?

    @Option(help: "Table format: text, markdown, csv or json.")
    var format: ReportFormat = .text

    func validate() throws {
        try jobOptions.validate()
        guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
    }

    func run() throws {
        let inputs = try PuzzleInput.read(files).map { BatchPlanner.Input(name: $0.name, text: $0.text) }
        let name = batch ?? "batch-" + ISO8601DateFormatter().string(from: Date())
        let plan = BatchPlanner.plan(
            batch: name, inputs: inputs, kind: jobOptions.reading.puzzleKind, tileOptions: jobOptions.reading.tileOptions,
            solvers: jobOptions.solverNames,
            maxStates: jobOptions.maxStates ?? SolveOptions.defaultMaxStates,
            timeoutSeconds: jobOptions.timeout)
        guard plan.total > 0 else { throw ValidationError("no puzzles in the input") }
        PatternDatabaseCache.prepare(for: plan.jobs)
        let store = try ResultStore(path: db)
        try store.record(BatchEnvironment.current(batch: name, solvers: plan.solverNames, jobs: plan.total))
        let outcome = try LocalCluster.run(plan: plan, store: store, workers: workers)
        print(try ReportPrinter.render(store, batch: name, format: format))
        StandardError.write("""
            batch \(name): \(outcome.progress.stored.grouped) of \(plan.total.grouped) jobs stored in \
            \(outcome.seconds.milliseconds) (\(Int(Double(plan.total) / max(outcome.seconds, 1e-9)).grouped) jobs/s), \
            \(outcome.progress.failed) failed, \(outcome.progress.reissued) re-issued, \
            \(outcome.sink.duplicates) duplicates dropped; results in \(db)

            """)
    }
}

/// What every job of a batch is solved with: shared by `batch` and `coordinator`.
struct JobOptions: ParsableArguments {
    @Option(help: "Comma-separated solvers; one job per puzzle and solver of its kind (default: each kind's fastest); 'analyze' runs the state-space analysis as jobs. \(SolverList.catalogue).")
    var solver: String?

    @OptionGroup var reading: PuzzleReadOptions

    @Option(help: "Stop a search (status cutoff) once it holds this many states (default \(SolveOptions.defaultMaxStates)).")
    var maxStates: Int?

    @Option(help: "Stop a search (status cutoff) after this many seconds; the coordinator re-issues a job whose worker overruns it.")
    var timeout: Double?

    /// The solvers asked for; empty for each kind's default.
    var solverNames: [String] { solver.map(SolverList.names) ?? [] }

    func validate() throws {
        if let solver { try SolverList.check(solver, kind: reading.puzzleKind) }
        if let maxStates, maxStates <= 0 { throw ValidationError("--max-states must be positive") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }
}
