// Hints are right (the forced digit is the solution's), and each kind of hint appears where it
// should.

import GridlockCore
import Testing

@Suite("Sudoku hints")
struct SudokuHintTests {
    @Test("every forced digit on the three sets agrees with the unique solution", arguments: Fixtures.sudokuFiles)
    func forcedDigitsAreRight(file: String) throws {
        for puzzle in Fixtures.sudoku(file) {
            let hint = SudokuHint.next(for: puzzle)
            guard hint.kind == .hiddenSingle || hint.kind == .nakedSingle else {
                #expect(hint.kind == .guess, "\(puzzle.lineText): \(hint.text)")
                continue
            }
            let solution = try #require(SudokuNorvigSolver().solve(puzzle, options: SolveOptions()).solvedPosition)
            let row = try #require(hint.row), column = try #require(hint.column)
            let index = solution.index(solution.startIndex, offsetBy: (row - 1) * 9 + column - 1)
            #expect(String(solution[index]) == hint.digit, "\(puzzle.lineText): \(hint.text)")
        }
    }

    @Test("a cell with one candidate left is a naked single")
    func nakedSingle() throws {
        // r1c9 sees 1-8 in its row and no box or column offers a hidden single first.
        let puzzle = try SudokuPuzzle.parseLine("12345678." + String(repeating: ".", count: 72))
        let hint = SudokuHint.next(for: puzzle)
        #expect(hint.cell == "r1c9")
        #expect(hint.digit == "9")
        #expect(hint.kind == .hiddenSingle || hint.kind == .nakedSingle)
    }

    @Test("the empty grid needs a guess; a full grid needs nothing; a dead cell means no solution")
    func otherKinds() throws {
        let empty = SudokuHint.next(for: try SudokuPuzzle(cells: [UInt8](repeating: 0, count: 81)))
        #expect(empty.kind == .guess)
        #expect(empty.candidates?.count == 9)
        let solved = SudokuNorvigSolver().solve(Fixtures.sudoku("easy50.txt")[0], options: SolveOptions()).solvedPosition!
        #expect(SudokuHint.next(for: try SudokuPuzzle.parseLine(solved)).kind == .solved)
        // r1c9 can hold nothing: 1-8 in its row, 9 in its column.
        let dead = try SudokuPuzzle.parseLine("12345678." + "........9" + String(repeating: ".", count: 63))
        let hint = SudokuHint.next(for: dead)
        #expect(hint.kind == .contradiction)
        #expect(hint.text.contains("no solution"))
    }
}
