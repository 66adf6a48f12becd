// `gridlock solve`: solve every puzzle given, one report per puzzle, invalid ones included.

import ArgumentParser
import Foundation
import GridlockCore

struct SolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Solve puzzles and print each solution with its statistics.",
        discussion: """
            Every solution is replayed by an independent validator before it is printed. A line
            that cannot be read is reported with its file, line, column and reason, and the other
            lines are still solved. Database lines carry their expected answer; a solve that
            disagrees with it is flagged.

            Exit status:
              0  every puzzle was solved or proved unsolvable (and matched its expected answer)
              1  some puzzle could not be read
              2  some search was cut off by --max-states or --timeout
              3  a result disagreed with the expected answer, or failed validation
              64 the command line itself was wrong
            When several apply, the highest wins.
            """
    )

    @Argument(help: "Puzzles: files, '-' for standard input, or puzzle text (a database line or JSON).")
    var puzzles: [String]

    @Option(help: "The solver: \(RushHourSolvers.names.joined(separator: ", ")).")
    var solver = "bfs"

    @Option(help: "Stop a search (status cutoff) once it holds this many states.")
    var maxStates = SolveOptions.defaultMaxStates

    @Option(help: "Stop a search (status cutoff) after this many seconds.")
    var timeout: Double?

    @Flag(help: "After solving, explore the whole cluster and report its size.")
    var full = false

    @Flag(help: "Draw the board after every move.")
    var show = false

    @Flag(help: "Print boards examined and enqueued at every level.")
    var levels = false

    @Option(help: "Output: text for people, json for one object per line.")
    var format: OutputFormat = .text

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        guard RushHourSolvers.named(solver) != nil else {
            throw ValidationError("unknown solver '\(solver)'; choose one of \(RushHourSolvers.names.joined(separator: ", "))")
        }
        guard maxStates > 0 else { throw ValidationError("--max-states must be positive") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let chosen = RushHourSolvers.named(solver)!
        let records = PuzzleInput.records(try PuzzleInput.read(puzzles))
        guard !records.isEmpty else { throw ValidationError("no puzzles in the input") }
        var outcome = ExitOutcome()
        let clock = ContinuousClock()
        let started = clock.now
        var lastProgress = clock.now
        // On a terminal, a long run says how far it is (results go to standard output).
        let showProgress = StandardError.isTerminal && records.count > 1_000
        for (index, (record, source)) in records.enumerated() {
            let report = solveOne(record, source: source, solver: chosen, clock: clock)
            outcome.note(report)
            switch format {
            case .json: print(report.jsonLine)
            case .text: print(text(for: report, record: record))
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

    private func solveOne(
        _ record: PuzzleRecord, source: SolveReport.Source, solver: any PuzzleSolver<RushHourPuzzle>,
        clock: ContinuousClock
    ) -> SolveReport {
        let puzzle: RushHourPuzzle
        do {
            puzzle = try RushHourPuzzle.parse(record)
        } catch {
            return .invalid(record.text, source: source, error: error)
        }
        let deadline = timeout.map { clock.now.advanced(by: .seconds($0)) }
        let options = SolveOptions(maxStates: maxStates, exploreWholeCluster: full) {
            deadline.map { ContinuousClock().now >= $0 } ?? false
        }
        let result = solver.timedSolve(puzzle, options: options, clock: clock)
        var report = SolveReport.solved(
            record.text, source: source, solver: solver.name, result: result,
            expectedMoves: puzzle.expectedMoves, expectedCluster: puzzle.expectedCluster, label: puzzle.label)
        do {
            try RushHourSolutionValidator.validate(result.solution, for: puzzle)
        } catch {
            if result.status == .solved {
                report.matchesExpected = false
                report.error = .init(code: "invalid-solution", message: "the solver's solution failed validation: \(error)")
            }
        }
        return report
    }

    private func text(for report: SolveReport, record: PuzzleRecord) -> String {
        var text = report.text(levels: levels)
        if show, report.status == "solved", let steps = report.steps, let puzzle = try? RushHourPuzzle.parse(record) {
            let boards = puzzle.boards(after: steps)
            for (index, board) in boards.enumerated() {
                let caption = index == 0 ? "start" : "\(index). \(steps[index - 1].text)"
                text += "\n\n  " + caption + "\n" + board.gridText().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            }
        }
        if let error = report.error, report.status != "invalid" {
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
        if report.matchesExpected == false { disagreements += 1 }
    }

    var exitCode: Int32 {
        if disagreements > 0 { return 3 }
        if counts["cutoff", default: 0] > 0 { return 2 }
        if counts["invalid", default: 0] > 0 { return 1 }
        return 0
    }

    var summary: String {
        let parts = ["solved", "unsolvable", "cutoff", "invalid"].map { "\(counts[$0, default: 0]) \($0)" }
        let flagged = disagreements > 0 ? ", \(disagreements) DISAGREED with the expected answer" : ""
        return parts.joined(separator: ", ") + flagged
    }
}
