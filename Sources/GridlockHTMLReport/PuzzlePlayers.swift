// The boards behind the report's puzzle browser: each listed job's stored answer replayed on
// its puzzle and drawn at every step, as `gridlock render --step` draws it, so the page only
// swaps pictures. The answer shown is the one the batch stored, checked by the validator
// `gridlock check` uses: solving the puzzle again showed another solver's answer, and cost up
// to two seconds a puzzle.

import Foundation
import GridlockCluster
import GridlockCore
import GridlockDrawing

public struct PuzzlePlayer: Sendable, Encodable {
    public var title: String
    /// The puzzle, its kind and the solver that answered it: with `gridlock render --kind KIND
    /// --solver SOLVER --step N`, the same boards where the solver's answer is the stored one.
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

    /// The longest puzzle text drawn: any real board is far shorter.
    static let maximumPuzzleBytes = 8_192

    /// The players of `rows`, in order.
    public static func players(for rows: [StoredRow]) -> [PuzzlePlayer] {
        rows.map(player(for:))
    }

    static func title(of row: StoredRow) -> String {
        let text = "\(row.source) [\(row.solver)] \(row.status.rawValue)\(row.moves.map { ", \($0) moves" } ?? "")".printable
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// The stored answer of a solved job, as moves (or a grid) the boards follow; nil with the
    /// reason when there is none to replay or the validator refuses it.
    static func storedAnswer(of row: StoredRow, on puzzle: ParsedPuzzle) -> (result: SolveResult?, note: String?) {
        guard row.status == .solved else { return (nil, "a \(row.status.rawValue) job has no answer to replay: its start is shown") }
        guard row.solver != PuzzleKind.analysisJob else { return (nil, "an analysis's answer is its report, not moves: the start is shown") }
        var result = SolveResult(status: .solved, statistics: SearchStatistics())
        if puzzle.sudoku != nil {
            result.solvedPosition = row.solution
        } else {
            let texts = row.solution.isEmpty ? [] : row.solution.components(separatedBy: ", ")
            do {
                result.solution = try AnswerCheck.moves(texts, for: puzzle)
            } catch {
                return (nil, "the stored answer cannot be read (\(error.description)): the start is shown")
            }
        }
        if let failure = puzzle.validationFailure(of: result) {
            return (nil, "the stored answer fails validation (\(failure)): the start is shown")
        }
        return (result, nil)
    }

    /// The player of one row: its stored answer replayed, or its start with the reason.
    public static func player(for row: StoredRow) -> PuzzlePlayer {
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
        let (result, replayNote) = storedAnswer(of: row, on: puzzle)
        var notes = replayNote.map { [$0] } ?? []
        var steps = BoardFrame.steps(of: puzzle, result: result)
        if steps.count > maximumSteps {
            notes.append("\(steps.count - 1) steps: the first \(maximumSteps - 1) are shown")
            steps = Array(steps.prefix(maximumSteps))
        }
        var moves = ["start"]
        if let result {
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
        var player = PuzzlePlayer(
            title: title, lines: lines, frames: frames, moves: Array(moves.prefix(frames.count)), note: notes.joined(separator: "; "))
        player.puzzle = row.puzzle
        player.kind = puzzle.kind.rawValue
        player.solver = row.solver
        return player
    }
}
