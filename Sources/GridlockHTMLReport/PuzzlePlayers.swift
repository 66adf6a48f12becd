// The boards behind the report's puzzle browser: each listed puzzle solved again and drawn at
// every step, as `gridlock render --step` draws it, so the page only swaps pictures.

import Foundation
import GridlockCluster
import GridlockCore
import GridlockDrawing

public struct PuzzlePlayer: Sendable, Encodable {
    public var title: String
    /// The puzzle, its kind and the solver it was replayed with: what `gridlock render
    /// --kind KIND --solver SOLVER --step N` takes to draw the same boards.
    public var puzzle = ""
    public var kind = ""
    public var solver = ""
    /// Every distinct line of the steps' SVGs: consecutive boards differ in a block or two,
    /// so each step is kept as the numbers of its lines (a 60-move board was 560 KB whole).
    public var lines: [String]
    /// One SVG per step, the start first, as indices into `lines` (joined with newlines, plus
    /// a last one); empty when the board cannot be shown.
    public var frames: [[Int]]
    /// What each step did ("start", then each move).
    public var moves: [String]
    /// Why there are no frames, or what differs from the stored answer.
    public var note: String
}

public enum PuzzlePlayers {
    /// The most steps a player holds (a Sudoku has at most 256 cells to fill).
    static let maximumSteps = 300

    /// The solver a listed row is replayed with: its own, except the pattern-database search,
    /// whose tables take half a minute to build (plain IDA* finds an optimal solution too).
    static func replaySolver(for row: ReportRow, puzzle: ParsedPuzzle) -> String {
        let own = row.solver == "idastar-pdb" ? "idastar" : row.solver
        if puzzle.hasSolver(own) { return own }
        let fallback = puzzle.kind.defaultSolver
        return fallback == "idastar-pdb" ? "idastar" : fallback
    }

    /// The longest puzzle text replayed: any real board is far shorter.
    static let maximumPuzzleBytes = 8_192

    /// The players of `rows`, each solving within `secondsEach`, until `budget` seconds are
    /// spent; the rest show a note.
    public static func players(for rows: [ReportRow], secondsEach: Double = 2, budget: Double = 30) -> [PuzzlePlayer] {
        let clock = ContinuousClock()
        let started = clock.now
        return rows.map { row in
            guard started.duration(to: clock.now) < .seconds(budget) else {
                return PuzzlePlayer(title: title(of: row), lines: [], frames: [], moves: [], note: "not replayed: the report's time for replays was spent")
            }
            return player(for: row, seconds: secondsEach)
        }
    }

    static func title(of row: ReportRow) -> String {
        let text = "\(row.source) [\(row.solver)] \(row.status.rawValue)\(row.moves.map { ", \($0) moves" } ?? "")".printable
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// The player of one row. Only a solved job is solved again (within `seconds`): a failed
    /// one may be the poison job that crashed its workers, so it shows its start only.
    public static func player(for row: ReportRow, seconds: Double) -> PuzzlePlayer {
        let title = title(of: row)
        guard row.puzzle.utf8.count <= maximumPuzzleBytes else {
            return PuzzlePlayer(title: title, lines: [], frames: [], moves: [], note: "the puzzle is \(row.puzzle.utf8.count) bytes long: not drawn")
        }
        let puzzle: ParsedPuzzle
        do {
            puzzle = try ParsedPuzzle.parse(row.puzzle, kind: row.kind)
        } catch {
            return PuzzlePlayer(title: title, lines: [], frames: [], moves: [], note: "the puzzle cannot be read: \(error.description)")
        }
        let solver = replaySolver(for: row, puzzle: puzzle)
        var notes: [String] = []
        var result: SolveResult?
        if row.status == .solved {
            let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
            result = puzzle.solve(with: solver, options: SolveOptions.until(deadline))
        } else {
            notes.append("a \(row.status.rawValue) job is not solved again: its start is shown")
        }
        var steps = BoardFrame.steps(of: puzzle, result: result)
        if let result, result.status != .solved {
            notes.append("replayed with \(solver): \(result.status.rawValue), so only the start is shown")
        } else if let result, puzzle.validationFailure(of: result) != nil {
            notes.append("the replay's solution failed validation, so only the start is shown")
            steps = Array(steps.prefix(1))
        } else if let result {
            if solver != row.solver { notes.append("replayed with \(solver) (an optimal solution like the stored one)") }
            if let stored = row.moves, let replayed = result.moves, stored != replayed {
                notes.append("the replay took \(replayed) moves where the stored answer has \(stored)")
            }
        }
        if steps.count > maximumSteps {
            notes.append("\(steps.count - 1) steps: the first \(maximumSteps - 1) are shown")
            steps = Array(steps.prefix(maximumSteps))
        }
        let note = notes.joined(separator: "; ")
        var moves = ["start"]
        if let result, result.status == .solved {
            moves += result.solvedPosition == nil ? result.solution.map(\.text) : (1..<max(1, steps.count)).map { "cell \($0)" }
        }
        var lines: [String] = []
        var numbers: [String: Int] = [:]
        let frames = steps.enumerated().map { index, frame in
            let svg = SVGWriter.svg(BoardScene.scene(frame, title: BoardScene.title(kind: puzzle.kind, step: index)))
            return svg.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { line in
                let text = String(line)
                if let number = numbers[text] { return number }
                lines.append(text)
                numbers[text] = lines.count - 1
                return lines.count - 1
            }
        }
        var player = PuzzlePlayer(title: title, lines: lines, frames: frames, moves: Array(moves.prefix(frames.count)), note: note)
        player.puzzle = row.puzzle
        player.kind = puzzle.kind.rawValue
        player.solver = solver
        return player
    }
}
