// `gridlock bench`: several solvers on the same puzzles, side by side in one run.

import ArgumentParser
import Foundation
import GridlockCore

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure solvers side by side on the same puzzles, with ratios.",
        discussion: """
            Each puzzle is parsed and solved by every solver in turn (interleaved, so drift in the
            machine's speed affects them alike), after a warm-up. Times include parsing. Every
            answer is checked against the file's expected move count and against the first
            solver's (same status, same number of moves), and every solution replayed by the
            validator, outside the timed part; any mismatch shows in the column 'wrong'. Build with `-c release` for real figures.

            Example:
              swift run -c release gridlock bench data/rushhour/rush_18k.txt --solver bfs,bidirectional
              swift run -c release gridlock bench data/rushhour/rush_18k.txt --solver bfs,reference --every 40
              swift run -c release gridlock bench data/sudoku/top95.txt --repeats 20
            """
    )

    @Argument(help: "Puzzle files (or '-' for standard input).")
    var files: [String]

    @Option(help: "Comma-separated solvers; the first is the baseline for the ratios (default: every solver of the first puzzle's kind). \(SolverList.catalogue).")
    var solver: String?

    @OptionGroup var reading: PuzzleReadOptions

    @OptionGroup var memoryBudget: MemoryBudgetOption

    @Option(help: "Stop each solve (status cutoff) after this many seconds.")
    var timeout: Double?

    @Option(help: "Use every k-th puzzle only (a spread sample of a large file).")
    var every = 1

    @Option(help: "Use at most this many puzzles (after --every).")
    var limit: Int?

    @Option(help: "Puzzles solved untimed by each solver before measuring.")
    var warmup = 200

    @Option(help: "Times to run the whole measured pass.")
    var repeats = 1

    @Option(help: "Table format: text or markdown.")
    var format: TableFormat = .text

    enum TableFormat: String, ExpressibleByArgument, CaseIterable {
        case text, markdown
    }

    func validate() throws {
        if let solver { try SolverList.check(solver, kind: reading.puzzleKind) }
        guard every >= 1, repeats >= 1, warmup >= 0 else {
            throw ValidationError("--every and --repeats must be at least 1, --warmup at least 0")
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1 (it was \(limit))") }
        try TimeLimit.check(timeout)
    }

    func run() throws {
        var lines = PuzzleInput.records(try PuzzleInput.read(files), kind: reading.puzzleKind).enumerated()
            .filter { $0.offset % every == 0 }.map { $0.element.record }
        if let limit { lines = Array(lines.prefix(limit)) }
        guard let first = lines.first else { throw ValidationError("no puzzles in the input") }
        let solvers = solver.map(SolverList.names)
            ?? (reading.puzzleKind ?? PuzzleKind.detect(first)).solverNames

        let budget = memoryBudget.bytes, timeout = timeout
        // Each solve's own deadline, from when it starts.
        var options: SolveOptions { SolveOptions(memoryBudgetBytes: budget, isCancelled: TimeLimit.deadline(timeout)) }
        let clock = ContinuousClock()
        for record in lines.prefix(warmup) {
            for solver in solvers {
                _ = (try? ParsedPuzzle.parse(record, kind: reading.puzzleKind, tileOptions: reading.tileOptions))?.solve(with: solver, options: options)
            }
        }
        var summaries = solvers.map { BenchmarkSummary(solver: $0) }
        var invalid = 0
        let started = clock.now
        var lastProgress = clock.now
        for pass in 0..<repeats {
            for (index, record) in lines.enumerated() {
                // The first solver's answer, which every other optimal solver must match.
                var baseline: SolveResult?
                for (position, solver) in solvers.enumerated() {
                    let start = clock.now
                    guard let puzzle = try? ParsedPuzzle.parse(record, kind: reading.puzzleKind, tileOptions: reading.tileOptions),
                          let result = puzzle.solve(with: solver, options: options)
                    else {
                        invalid += position == 0 && pass == 0 ? 1 : 0
                        continue
                    }
                    let seconds = Double(seconds: start.duration(to: clock.now))
                    if position == 0 { baseline = result }
                    let agrees = baseline.map { Self.agree($0, result) } ?? true
                    summaries[position].add(seconds: seconds, result: result, correct: agrees && isCorrect(result, puzzle))
                }
                if StandardError.isTerminal, lastProgress.duration(to: clock.now) > .seconds(1) {
                    lastProgress = clock.now
                    let elapsed = Double(seconds: started.duration(to: clock.now))
                    StandardError.write("\rbench: \(pass * lines.count + index + 1) of \(lines.count * repeats) puzzles, \(elapsed.formatted(decimals: 0)) s")
                }
            }
        }
        if StandardError.isTerminal { StandardError.write("\r\u{1B}[K") }
        print(format == .markdown ? BenchmarkTable.markdown(summaries) : BenchmarkTable.text(summaries))
        if invalid > 0 { StandardError.write("bench: skipped \(invalid) puzzles that are unreadable or that \(solvers[0]) does not solve (see gridlock solve)\n") }
        if summaries.contains(where: { $0.wrong > 0 }) {
            StandardError.write("bench: some results were WRONG (column 'wrong'): run gridlock solve on the file\n")
            throw ExitCode(3)
        }
        // Like batch: what could not be read is invalid input, not a measurement.
        if invalid > 0 { throw ExitCode(1) }
    }

    /// Two optimal solvers on one puzzle: the same status and the same number of moves (cut-off
    /// searches prove nothing, so they never disagree).
    static func agree(_ first: SolveResult, _ other: SolveResult) -> Bool {
        guard first.status != .cutoff, other.status != .cutoff else { return true }
        return first.status == other.status && first.moves == other.moves
    }

    /// Agrees with the expected answer (when there is one) and replays cleanly.
    private func isCorrect(_ result: SolveResult, _ puzzle: ParsedPuzzle) -> Bool {
        if let expected = puzzle.expectedMoves, (result.moves ?? -1) != expected { return false }
        return puzzle.validationFailure(of: result) == nil
    }
}
