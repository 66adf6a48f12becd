// `gridlock analyze`: the whole state space of each position, for puzzle designers.

import ArgumentParser
import Foundation
import GridlockCore

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Explore everything reachable from each position: goals, useful states, dead ends, solutions, the hardest state.",
        usage: "gridlock analyze <puzzles> ... [<options>]",
        discussion: """
            For Rush Hour, sliding tiles (boards up to 16 cells) and tilt puzzles. Reports:
              reachable         states reachable from the position (a Rush Hour cluster)
              goalStates        of those, the solved ones
              useful, deadEnds  states from which a goal can / cannot be reached (tilts are
                                not reversible, so tilt puzzles can have dead ends)
              bestMoves         optimal moves from the position
              solutions         distinct optimal move sequences from the position
              hardest           the largest optimal distance to a goal over useful states
              depthHistogram    reachable states by distance from the position
            On a line of Fogleman's database, hardest equals the line's MOVES and reachable its \
            CLUSTER (his database keeps each cluster's hardest state); a mismatch exits 3.

            Examples:
              gridlock analyze 'BBoJoooHoJCCGHAAKLGDDoKLooIEEoFFIooo'
              gridlock analyze '..a#/b..a/.#../b...' --format json
              gridlock analyze '1 2 3 4 5 6 7 8 0' --format json      # the 8-puzzle census
            """
    )

    @Argument(help: "Puzzles: files, '-' for standard input, or puzzle text.")
    var puzzles: [String]

    @OptionGroup var reading: PuzzleReadOptions
    @OptionGroup var cap: InputCapOption

    @Option(help: "Refuse positions with more reachable states than this.")
    var maxStates = 50_000_000

    @OptionGroup var memoryBudget: MemoryBudgetOption

    @Option(help: "Stop exploring a position after this many seconds (it is then refused, with the states reached).")
    var timeout: Double?

    @Option(help: "Output: text for people, json for one object per line.")
    var format: SolveCommand.OutputFormat = .text

    struct Line: Encodable {
        var puzzle: String
        var source: String
        var kind: String?
        var label: String?
        var analysis: StateSpaceAnalysis?
        var matchesExpected: Bool?
        var seconds: Double?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case puzzle, source, kind, label, matchesExpected, seconds, error
        }

        /// The analysis's keys sit at the top level, beside the puzzle's.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(puzzle, forKey: .puzzle)
            try container.encode(source, forKey: .source)
            try container.encodeIfPresent(kind, forKey: .kind)
            try container.encodeIfPresent(label, forKey: .label)
            try container.encodeIfPresent(matchesExpected, forKey: .matchesExpected)
            try container.encodeIfPresent(seconds, forKey: .seconds)
            try container.encodeIfPresent(error, forKey: .error)
            try analysis?.encode(to: encoder)
        }
    }

    func validate() throws {
        try TimeLimit.check(timeout)
        guard maxStates > 0 else { throw ValidationError("--max-states must be positive") }
    }

    func run() throws {
        let records = PuzzleInput.records(try PuzzleInput.read(puzzles, maximumBytes: cap.maximumBytes), kind: reading.puzzleKind)
        guard !records.isEmpty else { throw ValidationError("no puzzles in the input") }
        var outcome: Int32 = 0
        let clock = ContinuousClock()
        for (record, source) in records {
            var line = Line(puzzle: record.text, source: "\(source.file):\(source.line)")
            do {
                let puzzle = try ParsedPuzzle.parse(record, kind: reading.puzzleKind, tileOptions: reading.tileOptions)
                line.kind = puzzle.kind.rawValue
                line.label = puzzle.label
                let start = clock.now
                switch StateSpaceAnalysis.analyze(
                    puzzle, maxStates: maxStates, memoryBudgetBytes: memoryBudget.bytes, isCancelled: TimeLimit.deadline(timeout)) {
                case .success(let analysis):
                    line.seconds = Double(seconds: start.duration(to: clock.now))
                    line.analysis = analysis
                    if let moves = puzzle.expectedMoves {
                        var agrees = moves < 0 ? analysis.bestMoves == nil : analysis.bestMoves == moves && analysis.hardest == moves
                        if let cluster = puzzle.expectedCluster { agrees = agrees && analysis.reachable == cluster }
                        line.matchesExpected = agrees
                        if !agrees { outcome = 3 }
                    }
                case .failure(let refusal):
                    line.error = refusal.description
                    outcome = max(outcome, 1)
                }
            } catch {
                line.error = error.description
                outcome = max(outcome, 1)
            }
            print(format == .json ? JSONLine.encode(line) : text(line))
        }
        if outcome != 0 { throw ExitCode(outcome) }
    }

    private func text(_ line: Line) -> String {
        let name = line.source + (line.label.map { " \($0)" } ?? "")
        guard let analysis = line.analysis else { return "\(name): \(line.error ?? "not analysed")" }
        let best = analysis.bestMoves.map { "best \($0.counted("move")), \(analysis.solutions.map { "\($0)\(analysis.solutionsSaturated ? "+" : "")" } ?? "0") optimal sequences" } ?? "no goal reachable"
        let check = line.matchesExpected.map { $0 ? " (as expected)" : " (DIFFERS from the input's MOVES/CLUSTER)" } ?? ""
        return """
            \(name): \(analysis.reachable.counted("state")) reachable, \(analysis.goalStates.grouped) goals, \
            \(analysis.useful.grouped) useful, \(analysis.deadEnds.grouped) dead ends; \(best); \
            hardest \(analysis.hardest.map(String.init) ?? "-")\(check) in \((line.seconds ?? 0).milliseconds)
              states by distance from here: \(analysis.depthHistogram.map(\.grouped).joined(separator: " "))
            """
    }
}
