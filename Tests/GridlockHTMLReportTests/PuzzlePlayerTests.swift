// The report's players show the answer the batch stored, replayed by the validator, not a
// new solve.

import GridlockCluster
import GridlockCore
import Testing
@testable import GridlockHTMLReport

@Suite("puzzle players")
struct PuzzlePlayerTests {
    static func row(kind: PuzzleKind, puzzle: String, solution: String, moves: Int?, status: JobStatus = .solved) -> StoredRow {
        var row = StoredRow(kind: kind, puzzle: puzzle, solver: "bfs", source: "f.txt:1", status: status, moves: moves)
        row.solution = solution
        return row
    }

    /// The moves of an optimal solution, and a longer one that still solves: a piece moved
    /// out and back first. A player that solved again would show the optimal one.
    static func answers(_ text: String, kind: PuzzleKind, detours: [(String, String)]) throws -> (optimal: [String], longer: [String]) {
        let puzzle = try ParsedPuzzle.parse(text, kind: kind)
        let solved = try #require(puzzle.solve(with: "bfs", options: SolveOptions()))
        let optimal = solved.solution.map(\.text)
        for (out, back) in detours {
            let longer = [out, back] + optimal
            var result = SolveResult(status: .solved, statistics: SearchStatistics())
            guard let moves = try? AnswerCheck.moves(longer, for: puzzle) else { continue }
            result.solution = moves
            if puzzle.validationFailure(of: result) == nil { return (optimal, longer) }
        }
        Issue.record("no detour of \(detours) solves \(text)")
        return (optimal, optimal)
    }

    @Test("a Rush Hour and a tile answer longer than the optimal one are shown as stored, a board a move")
    func storedAnswerIsShown() throws {
        let rushHour = "17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJGH 5911"
        let blocks = ["B", "C", "D", "E", "F", "G", "H", "I", "J"]
        let rushHourDetours = blocks.flatMap { [("\($0) down 1", "\($0) up 1"), ("\($0) up 1", "\($0) down 1"), ("\($0) left 1", "\($0) right 1"), ("\($0) right 1", "\($0) left 1")] }
        let tiles = "1 2 3 4 5 6 0 7 8"
        let tileDetours = (1...8).flatMap { tile in ["up", "down", "left", "right"].map { ("\(tile) \($0)", "\(tile) \(Self.opposite($0))") } }
        for (text, kind, detours) in [(rushHour, PuzzleKind.rushhour, rushHourDetours), (tiles, .tiles, tileDetours)] {
            let (optimal, longer) = try Self.answers(text, kind: kind, detours: detours)
            #expect(longer.count == optimal.count + 2)
            let player = PuzzlePlayers.player(for: Self.row(kind: kind, puzzle: text, solution: longer.joined(separator: ", "), moves: longer.count))
            #expect(player.moves == ["start"] + longer, "\(kind): \(player.note)")
            #expect(player.frames.count == longer.count + 1, "\(kind): one board a move and the start")
            #expect(player.note.isEmpty, "\(kind): \(player.note)")
        }
    }

    static func opposite(_ direction: String) -> String {
        ["up": "down", "down": "up", "left": "right", "right": "left"][direction]!
    }

    @Test("a stored answer the validator refuses, or cannot read, shows the start and says why")
    func refusedAnswerShowsTheStart() {
        let puzzle = "17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJGH 5911"
        for (solution, reason) in [("A right 4", "fails validation"), ("A sideways 1", "cannot be read")] {
            let player = PuzzlePlayers.player(for: Self.row(kind: .rushhour, puzzle: puzzle, solution: solution, moves: 1))
            #expect(player.frames.count == 1 && player.moves == ["start"])
            #expect(player.note.contains(reason), "\(player.note)")
        }
        let failed = PuzzlePlayers.player(for: Self.row(kind: .rushhour, puzzle: puzzle, solution: "", moves: nil, status: .failed))
        #expect(failed.frames.count == 1 && failed.note.contains("no answer to replay"))
    }

    @Test("a Sudoku's stored grid fills the givens' blanks one a step")
    func sudokuGrid() throws {
        let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        let solved = try #require(try ParsedPuzzle.parse(text, kind: .sudoku).solve(with: PuzzleKind.sudoku.defaultSolver, options: SolveOptions()))
        let grid = try #require(solved.solvedPosition)
        let player = PuzzlePlayers.player(for: Self.row(kind: .sudoku, puzzle: text, solution: grid, moves: nil))
        let blanks = text.filter { $0 == "." }.count
        #expect(player.frames.count == blanks + 1, "\(player.note)")
        var wrong = Array(grid)
        wrong[0] = wrong[0] == "1" ? "2" : "1"
        let refused = PuzzlePlayers.player(for: Self.row(kind: .sudoku, puzzle: text, solution: String(wrong), moves: nil))
        #expect(refused.frames.count == 1 && refused.note.contains("fails validation"), "\(refused.note)")
    }
}
