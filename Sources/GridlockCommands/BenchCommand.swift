// `gridlock bench`: several solvers on the same puzzles, side by side in one run.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure solvers side by side on the same puzzles, with ratios.",
        discussion: """
            Each puzzle is parsed and solved by every solver in turn (interleaved, so drift in the \
            machine's speed affects them alike), after a warm-up. Times include parsing. Every \
            answer is checked against the file's expected move count and against the first \
            solver's (same status, same number of moves), and every solution replayed by the \
            validator, outside the timed part; any mismatch shows in the column 'wrong'. The ratios \
            pair only right answers: a wrong or cut-off solve has no time that means anything. \
            --time-limit and --memory-limit hold every solve as batch holds a job. Exit status as \
            batch: 3 for a wrong answer, 2 for a cut-off, 1 for unreadable input. Build with \
            `-c release` for real figures.

            Example:
              gridlock bench data/rushhour/rush_18k.txt --solver bfs,bidirectional
              gridlock bench data/rushhour/rush_18k.txt --solver bfs,reference --every 40
              gridlock bench data/sudoku/top95.txt --repeats 20
              gridlock bench data/rushhour/rush1000.txt --limit 50 --solver bfs,py \\
                --external-serve \\
                'rushhour:py=python3 examples/external/rushhour_bfs.py --serve'
            """
    )

    @Argument(help: "Puzzle files (or '-' for standard input).", completion: .file())
    var files: [String]

    @Option(help: "Comma-separated solvers; the first is the baseline for the ratios (default: every solver of the first puzzle's kind). \(SolverList.catalogue).", completion: SolverList.completion)
    var solver: String?

    @OptionGroup var reading: PuzzleReadOptions
    @OptionGroup var cap: InputCapOption

    @OptionGroup var memoryBudget: MemoryBudgetOption

    @OptionGroup var external: ExternalSolverOptions

    @Option(help: "Stop each solve (status cutoff) after this many seconds.")
    var timeout: Double?

    @OptionGroup var limits: LimitOptions

    @Option(help: "Use every k-th puzzle only (a spread sample of a large file).")
    var every = 1

    @Option(help: "Use at most this many puzzles (after --every).")
    var limit: Int?

    @Option(help: "Puzzles solved untimed by each solver before measuring.")
    var warmup = 200

    @Option(help: "Times to run the whole measured pass.")
    var repeats = 1

    @Option(help: "text or markdown (a table to read), or csv, json or jsonl: plain numbers in seconds and bytes, with every sample (json: an object of tables; jsonl: a row a line, its table named; csv: one --table).")
    var format: ReportFormat = .text

    @Option(help: "The table that --format csv prints: solvers (one row each) or samples (every timed solve).")
    var table: BenchTables.Table = .solvers

    func validate() throws {
        if let solver { try SolverList.check(solver, kind: reading.puzzleKind, external: try external.solvers()) }
        guard every >= 1, warmup >= 0 else { throw ValidationError("--every must be at least 1, --warmup at least 0") }
        // As batch's: a bound, so that a typo of a huge number is refused, not run for ever.
        guard (1...1_000).contains(repeats) else { throw ValidationError("--repeats must be from 1 to 1000 (it was \(repeats))") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1 (it was \(limit))") }
        try TimeLimit.check(timeout)
    }

    func run() throws {
        var sampled = PuzzleInput.records(try PuzzleInput.read(files, maximumBytes: cap.maximumBytes), kind: reading.puzzleKind).enumerated()
            .filter { $0.offset % every == 0 }.map(\.element)
        if let limit { sampled = Array(sampled.prefix(limit)) }
        let lines = sampled.map(\.record)
        let sources = sampled.map { "\($0.source.file):\($0.source.line)" }
        guard let first = lines.first else { throw ValidationError("no puzzles in the input") }
        let kind = reading.puzzleKind ?? PuzzleKind.detect(first)
        // Checked against the kind the input turned out to be: a Sudoku solver on Rush Hour
        // boards would solve nothing and print a row of zeros.
        let outside = try external.solvers()
        if let solver { try SolverList.check(solver, kind: kind, external: outside) }
        let solvers = solver.map(SolverList.names) ?? kind.solverNames
        // This process's only children are its outside solvers' (ExternalProcess).
        ExternalProcess.reapsEveryChild.store(true, ordering: .relaxed)
        defer { ExternalServers.stopAll() }

        // The limits as batch applies them: a CPU limit implies a wall limit (JobLimits).
        let jobLimits = limits.limits()
        let budget = memoryBudget.bytes, timeout = jobLimits.wallSeconds(given: timeout)
        // Each solve's own deadline and CPU limit, from when it starts.
        var options: SolveOptions {
            JobRunner.limited(
                SolveOptions.until(timeout.map { ContinuousClock.now.advanced(by: .seconds($0)) }, SolveOptions(memoryBudgetBytes: budget)),
                by: jobLimits)
        }
        let clock = ContinuousClock()
        /// A built-in solver's result, or an outside solver's run as one (nil when it gave no
        /// answer: it crashed, printed no answer or a wrong one), and the CPU time it took: this
        /// thread's, or the outside solver's process tree's.
        func solve(_ puzzle: ParsedPuzzle, with solver: String) -> (result: SolveResult??, cpuSeconds: Double) {
            // A built-in solver's CPU time is the caller's to read: this thread's, around the parse too.
            guard let program = outside.named(solver, kind: puzzle.kind) else { return (puzzle.solve(with: solver, options: options).map { $0 }, 0) }
            let deadline = timeout.map { ContinuousClock.now.advanced(by: .seconds($0)) }
            let outcome = ExternalSolving.run(program, on: puzzle, deadline: deadline, limits: jobLimits, checks: options)
            return (.some(outcome.solveResult(for: puzzle)), outcome.cpuSeconds)
        }
        // What a solver needs once (idastar-pdb's tables, for the first puzzle's goal) is readied
        // before any solve is timed, warm-up or not: a build or a wait is setup, said on
        // standard error, not the first solve's time.
        if let first = lines.lazy.compactMap({ try? ParsedPuzzle.parse($0, kind: reading.puzzleKind, tileOptions: reading.tileOptions) }).first {
            for solver in solvers {
                let setupStart = clock.now
                if first.setUp(for: solver) {
                    StandardError.write("bench: setup: \(solver)'s tables ready in \(Double(seconds: setupStart.duration(to: clock.now)).milliseconds) (not part of any solve's time)\n")
                }
            }
        }
        for record in lines.prefix(warmup) {
            for solver in solvers {
                guard let puzzle = try? ParsedPuzzle.parse(record, kind: reading.puzzleKind, tileOptions: reading.tileOptions) else { continue }
                _ = solve(puzzle, with: solver)
            }
        }
        var summaries = solvers.map { BenchmarkSummary(solver: $0, puzzles: lines.count) }
        var invalid = 0
        let started = clock.now
        var lastProgress = clock.now
        for pass in 0..<repeats {
            for (index, record) in lines.enumerated() {
                // The first solver's answer, which every other optimal solver must match.
                var baseline: SolveResult?
                for (position, solver) in solvers.enumerated() {
                    // The CPU clock is read outside the wall clock's reads: on this VM each read
                    // of a thread's CPU time is a system call of 2-5 µs, which would add itself
                    // to every wall time (a 10 µs Sudoku solve would read 18 µs). The CPU time
                    // carries that cost instead: docs/benchmarks.md has the figures.
                    let cpuStart = ThreadClock.cpuSeconds()
                    let start = clock.now
                    guard let puzzle = try? ParsedPuzzle.parse(record, kind: reading.puzzleKind, tileOptions: reading.tileOptions) else {
                        invalid += position == 0 && pass == 0 ? 1 : 0
                        continue
                    }
                    let (solved, solverCPU) = solve(puzzle, with: solver)
                    guard let answered = solved
                    else {
                        invalid += position == 0 && pass == 0 ? 1 : 0
                        continue
                    }
                    let seconds = Double(seconds: start.duration(to: clock.now))
                    // Parsing is in both times; an outside solver's CPU is its tree's, not this thread's.
                    let cpuSeconds = outside.named(solver, kind: puzzle.kind) == nil ? ThreadClock.cpuSeconds() - cpuStart : solverCPU
                    guard let result = answered else {
                        // An outside solver's crash, garbage or refuted answer: wrong.
                        summaries[position].add(seconds: seconds, cpuSeconds: cpuSeconds, key: pass * lines.count + index, result: SolveResult(status: .unsolvable, statistics: SearchStatistics()), correct: false)
                        continue
                    }
                    if position == 0 { baseline = result }
                    let agrees = baseline.map { Self.agree($0, result) } ?? true
                    summaries[position].add(
                        seconds: seconds, cpuSeconds: cpuSeconds, key: pass * lines.count + index, result: result, correct: agrees && isCorrect(result, puzzle))
                }
                if StandardError.isTerminal, lastProgress.duration(to: clock.now) > .seconds(1) {
                    lastProgress = clock.now
                    let elapsed = Double(seconds: started.duration(to: clock.now))
                    StandardError.write("\rbench: \(pass * lines.count + index + 1) of \(lines.count * repeats) puzzles, \(elapsed.formatted(decimals: 0)) s")
                }
            }
        }
        if StandardError.isTerminal { StandardError.write("\r\u{1B}[K") }
        switch format {
        case .text: print(BenchmarkTable.text(summaries))
        case .markdown: print(BenchmarkTable.markdown(summaries))
        case .csv: print(BenchTables.tables(summaries, sources: sources).csv(table.rawValue))
        case .json: print(BenchTables.tables(summaries, sources: sources).json)
        case .jsonl: print(BenchTables.tables(summaries, sources: sources).jsonLines)
        }
        for summary in summaries where !summary.ranInstead.isEmpty {
            StandardError.write("bench: \(summary.label): \(summary.solver) fell back to another solver, whose times its row shows\n")
        }
        if invalid > 0 { StandardError.write("bench: skipped \(invalid) puzzles that are unreadable or that \(solvers[0]) does not solve (see gridlock solve)\n") }
        // As batch exits: 3 for a wrong answer, 2 for a cut-off, 1 for unreadable input.
        if summaries.contains(where: { $0.wrong > 0 }) {
            StandardError.write("bench: some results were WRONG (column 'wrong'): run gridlock solve on the file\n")
            throw ExitCode(3)
        }
        if summaries.contains(where: { $0.cutoff > 0 }) {
            StandardError.write("bench: some solves were cut off by a limit (column 'cut off'), and left out of the ratios\n")
            throw ExitCode(2)
        }
        if invalid > 0 { throw ExitCode(1) }
    }

    /// Two optimal solvers on one puzzle: the same status and the same number of moves (cut-off
    /// searches prove nothing, so they never disagree).
    static func agree(_ first: SolveResult, _ other: SolveResult) -> Bool {
        guard first.status != .cutoff, other.status != .cutoff else { return true }
        return first.status == other.status && first.moves == other.moves
    }

    /// Not wrong by the one rule (AnswerRule): replays cleanly and agrees with the input's
    /// expected moves and cluster, where it gives them.
    private func isCorrect(_ result: SolveResult, _ puzzle: ParsedPuzzle) -> Bool {
        !puzzle.judge(result).isWrong
    }
}

extension BenchTables.Table: ExpressibleByArgument {}

/// What `bench --format csv|json|jsonl` prints: one row a solver, and every timed solve.
enum BenchTables {
    enum Table: String, CaseIterable {
        case solvers, samples
    }

    static func tables(_ summaries: [BenchmarkSummary], sources: [String]) -> NumericTables {
        let baseline = summaries.first
        let solverRows = summaries.map { summary -> [ReportValue] in
            let ratio = baseline.flatMap { summary.ratio(to: $0) }
            let cpuRatio = baseline.flatMap { summary.ratio(to: $0, basis: .cpu) }
            let interval = summary.standardDeviation.flatMap { ConfidenceInterval.ofMean(count: summary.count, mean: summary.mean, standardDeviation: $0) }
            let states = summary.storesStates
            return [
                .text(summary.solver), .text(summary.ranInstead.isEmpty ? nil : summary.ranInstead.keys.sorted().joined(separator: ",")),
                .integer(summary.count), .real(summary.count > 0 ? summary.quantile(0) : nil),
                .real(summary.count > 0 ? summary.mean : nil), .real(interval?.lowerBound), .real(interval?.upperBound),
                .real(summary.count > 0 ? summary.quantile(0.5) : nil), .real(summary.count > 0 ? summary.quantile(0.95) : nil),
                .real(summary.count > 0 ? summary.quantile(1) : nil), .real(summary.standardDeviation),
                .real(summary.count > 0 ? summary.cpuMean : nil), .real(summary.count > 0 ? summary.quantile(0.5, basis: .cpu) : nil),
                .real(summary.puzzlesPerSecond), .real(states ? summary.statesPerSecond : nil), .real(states ? summary.bytesPerState : nil),
                .integer(summary.maxMemoryBytes), .integer(summary.wrong), .integer(summary.cutoff), .real(ratio?.ratio),
                .real(ratio?.low), .real(ratio?.high), .integer(ratio?.pairs), .real(cpuRatio?.ratio), .real(cpuRatio?.low), .real(cpuRatio?.high),
            ]
        }
        var samples: [[ReportValue]] = []
        for summary in summaries {
            for (index, key) in summary.keys.enumerated() {
                let puzzle = key % max(1, sources.count)
                samples.append([
                    .text(summary.solver), .integer(key / max(1, sources.count) + 1), .integer(puzzle), .text(sources[puzzle]),
                    .real(summary.seconds[index]), .real(summary.cpuSeconds[index]),
                ])
            }
        }
        return NumericTables(tables: [
            (Table.solvers.rawValue, [
                "solver", "ran_instead", "timed", "wall_min_seconds", "wall_mean_seconds", "wall_mean_ci95_low_seconds", "wall_mean_ci95_high_seconds",
                "wall_median_seconds", "wall_p95_seconds", "wall_max_seconds", "wall_stddev_seconds", "cpu_mean_seconds", "cpu_median_seconds",
                "puzzles_per_second", "states_per_second", "bytes_per_state",
                "max_memory_bytes", "wrong", "cutoff", "wall_vs_first", "wall_vs_first_ci95_low", "wall_vs_first_ci95_high", "pairs",
                "cpu_vs_first", "cpu_vs_first_ci95_low", "cpu_vs_first_ci95_high",
            ], solverRows),
            (Table.samples.rawValue, ["solver", "pass", "puzzle", "source", "wall_seconds", "cpu_seconds"], samples),
        ])
    }
}
