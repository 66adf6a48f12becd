// `gridlock batch`: the embedded default. A coordinator and a sink on threads of this process,
// `--workers N` worker processes, all on loopback; prints the tables when every job is stored.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockClusterBase
import GridlockCore
import GridlockWire
import ZeroMQ

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Solve files of puzzles with local worker processes and print timing and memory tables.",
        // Paragraphs are single lines (the backslashes): --help wraps them to the terminal, and a
        // hard line break inside one made ragged lines.
        discussion: """
            Starts a coordinator and a sink in this process and --workers worker processes \
            (`gridlock worker`), connected with ZeroMQ over ipc sockets in a directory only this user \
            can enter. Every result is stored once in SQLite (--db); the tables are printed at the end \
            and can be printed again with `gridlock report DB`. Progress goes to standard error.

            Examples:
              gridlock batch data/samples/unblockme.txt
              gridlock batch data/rushhour/rush_18k.txt --solver bfs,bidirectional
              gridlock batch data/rushhour/rush1000.txt --solver analyze --db a.sqlite

            --memory-budget is shared: each worker process's searches get an equal part of it.

            The input is read as the workers need it, so a batch of any size starts at once and runs \
            in bounded memory. A worker process that dies is replaced; after 5 quick deaths in a row \
            the batch stops and says why. SIGINT or SIGTERM stops it cleanly (a second one at once); \
            the same command with --batch NAME resumes it, solving only the jobs not stored.

            Exit status: 0 every job solved or proved unsolvable; 1 some record could not be read \
            (invalid input), the input is not text, or the sink stopped (its disk full or read-only, \
            its database deleted); 2 some job was cut off by a limit or failed; 3 some answer \
            disagrees with the one the input gave (wrong); 64 bad usage; 130 or 143 stopped by SIGINT \
            or SIGTERM.
            """
    )

    @Argument(help: "Puzzle files (every format `gridlock solve` reads), or '-' for standard input.", completion: .file())
    var files: [String]

    @OptionGroup var jobOptions: JobOptions

    @Option(help: "Worker processes to start: one per core unless given.")
    var workers = ProcessInfo.processInfo.activeProcessorCount

    /// The budget of all the workers together: each worker's jobs get an equal share.
    @OptionGroup var memoryBudget: MemoryBudgetOption

    @OptionGroup var placement: PinOptions

    @Option(help: "The results database: a SQLite file (a bare name is in the working directory), or a postgresql:// URL in a build with PostgreSQL (the password in PGPASSWORD).")
    var db = "gridlock-results.sqlite"

    @Option(help: "The batch's name (default: batch- and the time). Reusing a name resumes that batch: only jobs not stored yet are solved, and an input that changed since is refused.")
    var batch: String?

    @Flag(help: "Resume even though the input changed since the batch ran: keep the stored rows that still match their job and solve the rest.")
    var resumeChanged = false

    @Option(help: "The tables' format: text or markdown, or csv, json or jsonl with plain numbers (see `gridlock report --help`).")
    var format: ReportFormat = .text

    @OptionGroup var metrics: MetricsOption

    func validate() throws {
        try ResultsDatabase.check(db)
        try jobOptions.validate()
        try jobOptions.checkSolvers()
        guard workers >= 1, workers <= 4_096 else { throw ValidationError("--workers must be from 1 to 4096") }
        try memoryBudget.validate(sharedBy: workers)
        if let batch { try BatchName.check(batch) }
    }

    /// A default name (the start time) that no batch of the database has: two batches started
    /// within one second would otherwise share it, and the second would resume the first.
    static func freshName(in db: String) -> String {
        let taken = Set(ResultsDatabase.exists(db) ? ((try? ResultsDatabase.open(db, readOnly: true).batchNames()) ?? []) : [])
        return BatchName.unused("batch-" + BatchRecord.timestamp(), taken: taken)
    }

    func run() throws {
        if jobOptions.timeout == nil, jobOptions.limits.limits().cpuSeconds == nil, let outside = (try? jobOptions.external.solvers())?.first(where: { jobOptions.solverNames.contains($0.name) }) {
            StandardError.write("batch: no --timeout: an outside solver (\(outside.name)) that never ends holds its worker for good\n")
        }
        let name = batch ?? Self.freshName(in: db)
        let specification = jobOptions.specification(batch: name)
        let reader = try JobReader(try PuzzleInput.jobInputs(files), specification: specification)
        var configuration = CoordinatorMachine.Configuration(batch: name, identity: .thisProcess)
        configuration.resumeChanged = resumeChanged
        configuration.paired = jobOptions.paired
        configuration.jobsPerRecord = jobOptions.jobsPerRecord
        configuration.servingSolverDigests = specification.servingSolverDigests
        // Its workers are its own children, holding a key made for this run: a job without a
        // time limit may take as long as it takes.
        configuration.leaseLimit = nil
        // Its last worker is never quarantined: none would come to take its place.
        configuration.keepsLastWorker = true
        let progress = ProgressLine()
        let outcome: LocalCluster.Outcome
        let store: ResultStore
        do {
            // The workers first, while this process is small (LocalCluster.swift says why).
            let pool = try LocalCluster.Workers(
                workers, memoryBudget: memoryBudget.share(of: workers), flags: jobOptions.external.flags + jobOptions.tableFlags,
                cpus: placement.plan(workers: workers))
            do {
                store = try ResultsDatabase.open(db, readOnly: false)
                let recipe = jobOptions.recipe(files: files, workers: workers, placement: placement, memoryBudget: memoryBudget, versions: true, security: .sharedKey)
                try store.record(jobOptions.record(batch: name, specification: specification, recipe: recipe))
            } catch {
                pool.stop(signal: SIGTERM)
                throw error
            }
            // SIGINT or SIGTERM stop the batch cleanly: the workers are told, what they finished
            // is stored, and the run says how to resume.
            let stop = StopFlag()
            TerminationSignals.forward(to: stop)
            let observation = try metrics.start(ClusterConfig(), key: "batch.metrics", role: .batch)
            defer { observation?.stop() }
            if let observation { StandardError.write("batch: metrics on http://\(observation.server.address)/metrics\n") }
            observation?.health.markBound()
            var observeStore: (@Sendable (Duration, Int) -> Void)?
            if let metrics = observation?.metrics { observeStore = { metrics.observeStore($0, results: $1) } }
            outcome = try LocalCluster.run(
                reader, configuration, store: store, workers: pool, stop: stop, log: { StandardError.write("\rbatch: \($0)\n") },
                observeStore: observeStore
            ) { state, sink in
                progress.show(state, sink: sink)
                observation?.metrics.update(state)
                observation?.metrics.update(sink)
            }
        } catch let error as ClusterError {
            progress.finish()
            throw CommandFailure(error.description)
        }
        progress.finish()
        let final = outcome.progress
        let signal = TerminationSignals.received.load(ordering: .relaxed)
        if signal != 0, !final.complete {
            StandardError.write("""
                batch \(name): stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM") with \(final.done.grouped) of \
                \(final.total.map(\.grouped) ?? "\(final.read.grouped)+") jobs stored in \(store.location); run the same command with \
                --batch \(name) to resume

                """)
            throw ExitCode(128 + signal)
        }
        guard final.read > 0 else { throw ValidationError("no puzzles in the input") }
        let streamedTables = outcome.streamed.finished(jobs: final.read, storedBefore: final.storedBefore, changed: final.changed)
        try store.recordTotal(batch: name, jobs: final.read, solvers: streamedTables?.solvers)
        try store.recordLoadAtEnd(batch: name, MachineRecord.currentLoad())
        let tally: BatchTally
        if let tables = streamedTables {
            print(try ReportPrinter.render(outcome.streamed, tables: tables, store: store, format: format))
            tally = outcome.streamed.tally
        } else {
            var undecodable: [UndecodableRow] = []
            print(try ReportPrinter.render(store, batch: name, format: format, undecodable: &undecodable))
            // Rows a resumed batch found stored by another program: named, not trusted.
            for row in undecodable.prefix(10) { StandardError.write("batch: left out of the tables: \(row)\n") }
            tally = try store.tally(batch: name)
        }
        let rate = Int(Double(final.stored) / max(outcome.seconds, 1e-9))
        StandardError.write("""
            batch \(name): \(final.done.grouped) of \(final.read.grouped) jobs stored in \(outcome.seconds.milliseconds) \
            (\(rate.grouped) jobs/s\(final.storedBefore > 0 ? ", \(final.storedBefore.grouped) stored before" : "")\
            \(final.changed > 0 ? ", \(final.changed.grouped) changed" : "")), \(final.reissued) re-issued, \
            \(final.quarantined > 0 ? "\(final.quarantined) workers quarantined, " : "")\
            \(outcome.sink.duplicates) duplicates dropped, \(outcome.workerRestarts) worker restarts; results in \(store.location)

            """)
        StandardError.tally(tally)
        if tally.exitCode != 0 { throw ExitCode(tally.exitCode) }
    }
}

/// What every job of a batch is solved with: shared by `batch` and `coordinator`.
struct JobOptions: ParsableArguments {
    @Option(help: "Comma-separated solvers; one job per puzzle and solver of its kind (default: each kind's fastest); 'analyze' runs the state-space analysis as jobs. \(SolverList.catalogue).", completion: SolverList.completion)
    var solver: String?

    @OptionGroup var reading: PuzzleReadOptions

    @OptionGroup var external: ExternalSolverOptions

    @Option(help: "Stop a search (status cutoff) once it holds this many states, checked after each level of a breadth-first search (default \(SolveOptions.defaultMaxStates)).")
    var maxStates: Int?

    @Option(name: [.customLong("timeout"), .customLong("wall-limit")], help: "Stop a job (status cutoff, termination timeout) after this many seconds of wall time; the coordinator re-issues a job whose worker overruns it.")
    var timeout: Double?

    @OptionGroup var limits: LimitOptions

    @Flag(help: "Give each puzzle's jobs (one per solver) to one worker, back to back, the solvers' order rotating from puzzle to puzzle, so that solvers compared on a puzzle ran on the same process; resume with --paired too.")
    var paired = false

    @Option(help: "Run each job this many times, interleaved (every solver once, then again), keeping every run as a row of its own.")
    var repeats = 1

    @Option(help: "A record longer than this many bytes is reported invalid without being read (default 1 MiB; at most 8 MiB).")
    var maxRecordBytes: Int?

    /// The solvers asked for; empty for each kind's default.
    var solverNames: [String] { solver.map(SolverList.names) ?? [] }

    /// The most jobs one record makes: one per solver (each kind's default is one), per repeat.
    var jobsPerRecord: Int { max(1, solverNames.count) * repeats }

    func validate() throws {
        if let maxStates, maxStates <= 0 { throw ValidationError("--max-states must be positive") }
        try TimeLimit.check(timeout)
        guard (1...1_000).contains(repeats) else { throw ValidationError("--repeats must be from 1 to 1000") }
        if limits.timeLimit != nil, solverNames.contains(PuzzleKind.analysisJob) {
            throw ValidationError("--time-limit does not stop an analysis midway ('analyze' jobs): bound them with --max-states or --memory-limit")
        }
        if let maxRecordBytes, !(64...(8 << 20)).contains(maxRecordBytes) {
            throw ValidationError("--max-record-bytes must be from 64 to 8388608")
        }
    }

    /// The batch as the batches table records it: this process's machine and build, the
    /// solvers and the limits.
    func record(batch: String, specification: JobSpecification, recipe: BatchRecipe) -> BatchRecord {
        var record = BatchRecord.current(batch: batch, solvers: solverNames, jobs: 0)
        record.recipe = recipe
        record.limits.cpuSeconds = specification.limits.cpuSeconds
        record.wallLimitSeconds = specification.limits.wallSeconds(given: specification.timeoutSeconds)
        record.limits.memoryBytes = specification.limits.memoryBytes
        return record
    }

    /// `worker --tables` for each goal idastar-pdb may meet, when it is asked for by name or as
    /// the default of `--kind tiles`: the workers have its tables ready before they ask for jobs
    /// (the one --goal, else both goals). With the kind told from each puzzle, the first tile
    /// job loads them, apart from its time (JobRunner.setUp).
    var tableFlags: [String] {
        let pdb = TilePatternDatabaseSolver().name
        guard solverNames.contains(pdb) || (solverNames.isEmpty && reading.puzzleKind == .tiles && PuzzleKind.tiles.defaultSolver == pdb) else { return [] }
        return (reading.goal.map { [$0] } ?? TileGoal.allCases).flatMap { ["--tables", $0.rawValue] }
    }

    /// The solvers named in --solver exist: built in, or outside (by a flag, or by `file`'s
    /// lines, which only a coordinator has, so it checks once it has read them).
    func checkSolvers(file: ClusterConfig = ClusterConfig()) throws {
        if let solver { try SolverList.check(solver, kind: reading.puzzleKind, external: try external.solvers(file: file)) }
    }

    /// Every job's kind, solvers, limits and options: what decides its answer.
    /// The job keeps the wall limit given (it is part of each job's fingerprint, so a batch
    /// run before CPU limits implied one resumes); the one a CPU limit implies is worked out
    /// where a wall limit is used (JobLimits.wallSeconds).
    func specification(batch: String, file: ClusterConfig = ClusterConfig()) -> JobSpecification {
        let limits = limits.limits(file)
        return JobSpecification(
            batch: batch, kind: reading.puzzleKind, solvers: solverNames, external: (try? external.solvers(file: file)) ?? [],
            maxStates: maxStates ?? file.int("job.max_states") ?? SolveOptions.defaultMaxStates,
            timeoutSeconds: timeout ?? file.double("job.timeout_s"), tileOptions: reading.tileOptions,
            maximumRecordBytes: maxRecordBytes ?? JobSpecification.defaultMaximumRecordBytes, limits: limits, paired: paired, repeats: repeats)
    }
}

/// What a batch may be called: it is printed in every report and stored in every row.
enum BatchName {
    static let maximumBytes = WireProtocol.maximumNameBytes

    /// `base`, else `base-2`, `base-3`, ...: the first that no batch of `taken` has.
    static func unused(_ base: String, taken: Set<String>) -> String {
        var name = base
        var suffix = 2
        while taken.contains(name) {
            name = "\(base)-\(suffix)"
            suffix += 1
        }
        return name
    }

    static func check(_ name: String) throws {
        guard !name.isEmpty, name.utf8.count <= maximumBytes else {
            throw ValidationError("--batch must be 1 to \(maximumBytes) bytes long")
        }
        guard !name.unicodeScalars.contains(where: \.isControlCharacter) else {
            throw ValidationError("--batch must not hold control characters (it was '\(name.printable)')")
        }
    }
}
