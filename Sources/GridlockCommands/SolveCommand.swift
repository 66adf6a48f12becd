// `gridlock solve`: solve every puzzle given, one report per puzzle, invalid ones included.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore
import GridlockWire

struct SolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Solve puzzles and print each solution with its statistics.",
        discussion: """
            Every solution is replayed by an independent validator before it is printed. A line \
            that cannot be read is reported with its file, line, column and reason, and the other \
            lines are still solved. Database lines carry their expected answer; a solve that \
            disagrees with it is flagged.

            Kinds: Rush Hour (database lines, grids, JSON), Sudoku (81-character lines, 9-line \
            grids, JSON; 4x4 and 16x16 too) and sliding tiles (a line of numbers, 0 or _ the \
            blank, with a WxH: prefix unless square; Korf's lines; grids; JSON). The kind is \
            told from each puzzle's shape unless --kind says it. Each kind has its own \
            solvers; the first listed is the default:
            \(SolverList.catalogueLines)

            Examples:
              gridlock solve data/samples/unblockme.txt --show
              gridlock solve data/sudoku/top95.txt
              gridlock solve data/sudoku/top95.txt --solver norvig --count 2 --format json
              gridlock solve '8 6 7 2 5 4 3 0 1' --show
              gridlock solve data/tiles/korf100.txt             # Korf's goal: blank first

            Exit status:
              0  every puzzle was solved or proved unsolvable (and matched its
                 expected answer)
              1  some puzzle could not be read
              2  some search was cut off by --max-states or --timeout
              3  a result disagreed with the expected answer, or failed validation
              64 the command line itself was wrong
            When several apply, the highest wins.
            """
    )

    @Argument(help: "Puzzles: files, '-' for standard input, or puzzle text (a database line or JSON).", completion: .file())
    var puzzles: [String]

    @OptionGroup var reading: PuzzleReadOptions
    @OptionGroup var cap: InputCapOption

    @Option(help: "The solver (default: the kind's fastest). \(SolverList.catalogue).", completion: SolverList.completion)
    var solver: String?

    @Option(help: "Stop a search (status cutoff) once it holds this many states (checked after each level of a breadth-first search, so it may hold a level more).")
    var maxStates = SolveOptions.defaultMaxStates

    @Option(name: [.customLong("timeout"), .customLong("wall-limit")], help: "Stop a search (status cutoff) after this many seconds of wall time.")
    var timeout: Double?

    @OptionGroup var limits: LimitOptions

    @OptionGroup var memoryBudget: MemoryBudgetOption

    @OptionGroup var external: ExternalSolverOptions

    @Option(help: "Sudoku: count solutions up to this many (2 proves a puzzle unique); reported as 'solutions'.")
    var count: Int?

    @Option(help: "Sudoku: stop a search (status cutoff) after this many search nodes (SudokuAI gives up after 2000).")
    var maxSteps: Int?

    @Flag(help: "After solving, explore the whole cluster and report its size.")
    var full = false

    @Flag(help: "Draw the board after every move (Rush Hour) or the solved grid (Sudoku).")
    var show = false

    @Flag(help: "Print boards examined and enqueued at every level.")
    var levels = false

    @Option(help: "Output: text for people, json for one object per line.")
    var format: OutputFormat = .text

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        if let solver {
            if solver == PuzzleKind.analysisJob { throw ValidationError("analysis is its own command: gridlock analyze (or --solver analyze in gridlock batch)") }
            try SolverList.check(solver, kind: reading.puzzleKind, external: try external.solvers())
            guard SolverList.names(solver).count == 1 else { throw ValidationError("--solver takes one solver here; `gridlock bench` compares several") }
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let maxSteps, maxSteps < 1 { throw ValidationError("--max-steps must be at least 1") }
        guard maxStates > 0 else { throw ValidationError("--max-states must be positive") }
        try TimeLimit.check(timeout)
    }

    func run() throws {
        // This process's only children are its outside solvers' (ExternalProcess).
        ExternalProcess.reapsEveryChild.store(true, ordering: .relaxed)
        defer { ExternalServers.stopAll() }
        if let solver, timeout == nil, limits.timeLimit == nil, (try? external.solvers())?.contains(where: { $0.name == solver }) == true {
            StandardError.write("solve: no --timeout: an outside solver that never ends is never stopped\n")
        }
        let records = PuzzleInput.records(try PuzzleInput.read(puzzles, maximumBytes: cap.maximumBytes), kind: reading.puzzleKind)
        guard !records.isEmpty else { throw ValidationError("no puzzles in the input") }
        var outcome = ExitOutcome()
        let clock = ContinuousClock()
        let started = clock.now
        var lastProgress = clock.now
        // On a terminal, a long run says how far it is (results go to standard output).
        let showProgress = StandardError.isTerminal && records.count > 1_000
        let plan = plan, format = format, show = show, levels = levels
        for (index, (record, source)) in records.enumerated() {
            let report = solveOne(record, source: source, plan: plan, clock: clock)
            outcome.note(report)
            switch format {
            case .json: print(report.jsonLine)
            case .text: print(text(for: report, record: record, show: show, levels: levels))
            }
            if showProgress, lastProgress.duration(to: clock.now) >= .milliseconds(500) {
                lastProgress = clock.now
                let elapsed = Double(seconds: started.duration(to: clock.now))
                let rate = Double(index + 1) / max(elapsed, 1e-9)
                StandardError.write("\r\u{1B}[Ksolve: \((index + 1).grouped) of \(records.count.grouped), \(Int(rate).grouped)/s, ETA \((Double(records.count - index - 1) / rate).formatted(decimals: 0)) s")
            }
        }
        if showProgress { StandardError.write("\r\u{1B}[K") }
        if format == .text, records.count > 1 {
            StandardError.write(outcome.summary + "\n")
        }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }

    /// What every puzzle's solve reads from the command line, read once: each read of an
    /// ArgumentParser property looks up generic metadata, and on 9,500 Sudokus the reads took
    /// 5% of the run.
    private struct Plan {
        let kind: PuzzleKind?
        let tileOptions: TileReadOptions
        let solver: String?
        let timeout: Double?
        let outsideSolvers: [ExternalSolver]
        let limits: JobLimits
        let searchOptions: SolveOptions
        let checkOptions: SolveOptions
    }

    private var plan: Plan {
        let memoryBudget = memoryBudget.bytes
        return Plan(
            kind: reading.puzzleKind, tileOptions: reading.tileOptions, solver: solver, timeout: limits.limits().wallSeconds(given: timeout),
            outsideSolvers: (try? external.solvers()) ?? [], limits: limits.limits(),
            searchOptions: SolveOptions(
                maxStates: maxStates, exploreWholeCluster: full, solutionLimit: count ?? 1, maxSteps: maxSteps,
                memoryBudgetBytes: memoryBudget),
            checkOptions: SolveOptions(maxStates: maxStates, memoryBudgetBytes: memoryBudget))
    }

    private func solveOne(_ record: PuzzleRecord, source: SolveReport.Source, plan: Plan, clock: ContinuousClock) -> SolveReport {
        let puzzle: ParsedPuzzle
        do {
            puzzle = try ParsedPuzzle.parse(record, kind: plan.kind, tileOptions: plan.tileOptions)
        } catch {
            return .invalid(record.text, source: source, error: error)
        }
        let solverName = plan.solver ?? puzzle.kind.defaultSolver
        let setupStart = clock.now
        if puzzle.setUp(for: solverName) {
            StandardError.write("solve: setup: \(solverName)'s tables ready in \(Double(seconds: setupStart.duration(to: clock.now)).milliseconds) (not part of any solve's time)\n")
        }
        let deadline = plan.timeout.map { clock.now.advanced(by: .seconds($0)) }
        if let outside = plan.outsideSolvers.named(solverName, kind: puzzle.kind) {
            return SolveReport(record.text, source: source, solver: outside, puzzle: puzzle, outcome: ExternalSolving.run(
                outside, on: puzzle, deadline: deadline, limits: plan.limits,
                checks: SolveOptions.until(deadline, plan.checkOptions)))
        }
        guard puzzle.hasSolver(solverName) else {
            return .invalid(record.text, source: source, error: PuzzleInputError(
                code: "wrong-solver",
                message: "this is a \(puzzle.kind.rawValue) puzzle, which \(solverName) does not solve; its solvers are \(puzzle.kind.solverNames.joined(separator: ", "))",
                location: TextLocation(line: record.firstLine)))
        }
        let options = JobRunner.limited(SolveOptions.until(deadline, plan.searchOptions), by: plan.limits)
        let start = clock.now
        var result = puzzle.solve(with: solverName, options: options)!
        result.statistics.seconds = Double(seconds: start.duration(to: clock.now))
        return SolveReport.solved(record.text, source: source, solver: solverName, result: result, puzzle: puzzle)
    }

    /// Each line of `text` after two spaces. A solved grid's line (no --show) is one line, and
    /// is not split: splitting 81 digits into Characters was 9% of a text run on 9,500 Sudokus.
    static func indented(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\n")) else { return "  " + text }
        return text.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
    }

    private func text(for report: SolveReport, record: PuzzleRecord, show: Bool, levels: Bool) -> String {
        var text = report.text(levels: levels)
        // Read again only to draw boards and grids (--show), not for every line of a file.
        let puzzle = show ? try? ParsedPuzzle.parse(record, kind: reading.puzzleKind, tileOptions: reading.tileOptions) : nil
        if show, report.status == "solved", let steps = report.steps, let rushHour = puzzle?.rushHour {
            let boards = rushHour.boards(after: steps)
            for (index, board) in boards.enumerated() {
                let caption = index == 0 ? "start" : "\(index). \(steps[index - 1].text)"
                text += "\n\n  " + caption + "\n" + board.gridText().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            }
        }
        if show, report.status == "solved", let steps = report.steps, let tiles = puzzle?.tiles {
            for (index, board) in tiles.boards(after: steps).enumerated() {
                let caption = index == 0 ? "start" : "\(index). \(steps[index - 1].text)"
                text += "\n\n  " + caption + "\n" + TilePuzzle.gridText(board, width: tiles.width).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            }
        }
        if show, report.status == "solved", let moves = report.solution?.moves, let tilt = puzzle?.tilt {
            var state = tilt.start
            text += "\n\n  start\n" + tilt.gridText(state).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            for (index, move) in moves.enumerated() {
                guard let direction = TiltDirection.allCases.first(where: { $0.name == move }),
                      let next = tilt.tilted(state, direction) else { break }
                state = next
                text += "\n\n  \(index + 1). \(move)\n" + tilt.gridText(state).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            }
        }
        if let position = report.solution?.position {
            let grid = puzzle?.sudoku.map { sudoku in
                SudokuPuzzle.gridText(position.utf8.map { SudokuPuzzle.digit(for: $0) ?? 0 }, geometry: sudoku.geometry)
            } ?? position
            text += "\n" + Self.indented(grid)
        }
        if let error = report.error, report.status != "invalid", report.status != "failed" {
            text += "\n  ERROR: \(error.message)"
        }
        return text
    }
}

/// Counts outcomes across puzzles and picks the exit status the help text promises.
struct ExitOutcome {
    var counts: [String: Int] = [:]
    var disagreements = 0

    mutating func note(_ report: SolveReport) {
        counts[report.status, default: 0] += 1
        if report.matchesExpected == false || report.error?.code == ExternalSolving.Failure.wrongAnswer.rawValue { disagreements += 1 }
    }

    var exitCode: Int32 {
        if disagreements > 0 { return 3 }
        if counts["cutoff", default: 0] > 0 || counts["failed", default: 0] > 0 { return 2 }
        if counts["invalid", default: 0] > 0 { return 1 }
        return 0
    }

    var summary: String {
        let parts = ["solved", "unsolvable", "cutoff", "invalid"].map { "\(counts[$0, default: 0]) \($0)" }
            + (counts["failed"].map { ["\($0) failed"] } ?? [])
        let flagged = disagreements > 0 ? ", \(disagreements) DISAGREED with the expected answer" : ""
        return parts.joined(separator: ", ") + flagged
    }
}
