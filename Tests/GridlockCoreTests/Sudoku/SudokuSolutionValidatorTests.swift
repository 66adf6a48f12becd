// The validator refuses every kind of wrong answer, so a solver bug cannot pass as a solution.

import GridlockCore
import Testing

@Suite("Sudoku solution validator")
struct SudokuSolutionValidatorTests {
    static let puzzle = Fixtures.sudoku("easy50.txt")[0]
    static let solution = SudokuNorvigSolver().solve(puzzle, options: SolveOptions()).solvedPosition!

    @Test("the solver's answer passes")
    func rightAnswer() throws {
        try SudokuSolutionValidator.validate(Self.solution, for: Self.puzzle)
    }

    enum Damage: String, CaseIterable {
        case blankCell, swappedInRow, changedCell, missingCell

        func apply(to cells: inout [Character]) {
            switch self {
            case .blankCell: cells[40] = "."
            case .swappedInRow: cells.swapAt(0, 1)
            case .changedCell: cells[80] = cells[80] == "9" ? "1" : "9"
            case .missingCell: cells.removeLast()
            }
        }
    }

    @Test("wrong answers fail", arguments: Damage.allCases)
    func wrongAnswers(damage: Damage) {
        var cells = Array(Self.solution)
        damage.apply(to: &cells)
        #expect(throws: SudokuSolutionValidator.Failure.self, "\(damage)") {
            try SudokuSolutionValidator.validate(String(cells), for: Self.puzzle)
        }
    }

    @Test("a valid grid that changes a given fails")
    func givensKept() throws {
        // Relabelling digits 1<->2 keeps every rule but changes the givens.
        let relabelled = String(Self.solution.map { $0 == "1" ? "2" : $0 == "2" ? "1" : $0 })
        #expect(throws: SudokuSolutionValidator.Failure.self) {
            try SudokuSolutionValidator.validate(relabelled, for: Self.puzzle)
        }
    }
}
