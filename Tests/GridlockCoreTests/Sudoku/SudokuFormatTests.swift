// Reading Sudoku in every format, and refusing bad input with the exact cell and position.

import GridlockCore
import Testing

@Suite("Sudoku formats and input errors")
struct SudokuFormatTests {
    static let grid2 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

    static let norvigLayout = """
        4 . . |. . . |8 . 5
        . 3 . |. . . |. . .
        . . . |7 . . |. . .
        ------+------+------
        . 2 . |. . . |. 6 .
        . . . |. 8 . |4 . .
        . . . |. 1 . |. . .
        ------+------+------
        . . . |6 . 3 |. 7 .
        5 . . |2 . . |. . .
        1 . 4 |. . . |. . .
        """

    @Test("a line, Norvig's grid layout and JSON read as the same puzzle")
    func formatsAgree() throws {
        let line = try SudokuPuzzle.parse(Self.grid2)
        let grid = try SudokuPuzzle.parse(Self.norvigLayout)
        let json = try SudokuPuzzle.parse(#"{"kind":"sudoku","grid":"\#(Self.grid2)","label":"grid2"}"#)
        #expect(line.cells == grid.cells)
        #expect(line.cells == json.cells)
        #expect(json.label == "grid2")
        #expect(line.givens == 17)
        #expect(try SudokuPuzzle.parse(line.gridText).cells == line.cells)
        #expect(try SudokuPuzzle.parse(line.jsonText).cells == line.cells)
        #expect(line.lineText == Self.grid2)
    }

    @Test("0 and _ are blanks too, and text after the cells is a label")
    func blanksAndLabel() throws {
        let zeros = try SudokuPuzzle.parseLine(Self.grid2.replacingOccurrences(of: ".", with: "0") + "  grid two")
        #expect(zeros.cells == (try SudokuPuzzle.parse(Self.grid2)).cells)
        #expect(zeros.label == "grid two")
    }

    @Test("4x4 and 16x16 grids read with their own digits")
    func otherSizes() throws {
        let small = try SudokuPuzzle.parse("1...\n..2.\n.3..\n...4")
        #expect(small.side == 4)
        let big = try SudokuPuzzle.parseLine("G" + String(repeating: ".", count: 255))
        #expect(big.side == 16)
        #expect(big.cells[0] == 16)
    }

    @Test("input errors name the problem and where it is", arguments: [
        ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....", "wrong-length", 1, nil),
        ("4.....8.5.3..........7......2..x..6.....8.4......1.......6.3.7.5..2.....1.4......", "bad-character", 1, 32),
        ("44....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", "repeated-digit", 1, 2),
        ("1...\n..2.\n.3..\n..4", "ragged-rows", 4, nil),
        ("1...\n..2.\n13..\n...4", "repeated-digit", 3, 1),
        (#"{"grid":5}"#, "bad-json", 1, nil),
        ("1...\n..5.\n.3..\n...4", "bad-digit", 2, 3),
    ] as [(String, String, Int, Int?)])
    func inputErrors(text: String, code: String, line: Int, column: Int?) {
        #expect {
            _ = try SudokuPuzzle.parse(text)
        } throws: { error in
            guard let error = error as? PuzzleInputError else { return false }
            return error.code == code && error.location?.line == line && error.location?.column == column
        }
    }

    @Test("a repeated digit names both cells and the unit")
    func repeatedDigitMessage() {
        let text = "4" + String(repeating: ".", count: 8) + "4" + String(repeating: ".", count: 71)
        #expect {
            _ = try SudokuPuzzle.parse(text)
        } throws: { error in
            (error as? PuzzleInputError)?.message == "4 appears twice in column 1: r1c1 and r2c1"
        }
    }
}
