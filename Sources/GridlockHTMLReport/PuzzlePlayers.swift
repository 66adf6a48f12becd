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

    /// The player of one row, solving within `seconds`.
    public static func player(for row: ReportRow, seconds: Double) -> PuzzlePlayer {
        let title = "\(row.source) [\(row.solver)] \(row.status.rawValue)\(row.moves.map { ", \($0) moves" } ?? "")"
        let puzzle: ParsedPuzzle
        do {
            puzzle = try ParsedPuzzle.parse(row.puzzle, kind: row.kind)
        } catch {
            return PuzzlePlayer(title: title, lines: [], frames: [], moves: [], note: "the puzzle cannot be read: \(error.description)")
        }
        let solver = replaySolver(for: row, puzzle: puzzle)
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        let result = puzzle.solve(with: solver, options: SolveOptions { ContinuousClock.now >= deadline })
        var note = ""
        var steps = BoardFrame.steps(of: puzzle, result: result)
        if result?.status != .solved {
            note = "replayed with \(solver): \(result?.status.rawValue ?? "no solver"), so only the start is shown"
        } else if let result, puzzle.validationFailure(of: result) != nil {
            note = "the replay's solution failed validation, so only the start is shown"
            steps = Array(steps.prefix(1))
        } else if solver != row.solver {
            note = "replayed with \(solver) (an optimal solution like the stored one)"
        }
        if steps.count > maximumSteps {
            note = "\(steps.count - 1) steps: the first \(maximumSteps - 1) are shown"
            steps = Array(steps.prefix(maximumSteps))
        }
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
