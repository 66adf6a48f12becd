// The independent check of a Sudoku answer: it shares no code with the solvers (no masks, no
// propagation), only the geometry's unit lists, and checks every rule from scratch.

public enum SudokuSolutionValidator {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Throws unless `solution` (the one-line form) fills every cell, keeps every given, and
    /// has each digit once in every row, column and box.
    public static func validate(_ solution: String, for puzzle: SudokuPuzzle) throws(Failure) {
        let geometry = puzzle.geometry
        let digits = solution.utf8.map { SudokuPuzzle.digit(for: $0) }
        guard digits.count == geometry.cellCount else {
            throw Failure(description: "the solution has \(digits.count) cells, not \(geometry.cellCount)")
        }
        for (cell, digit) in digits.enumerated() {
            guard let digit, digit >= 1, Int(digit) <= geometry.side else {
                throw Failure(description: "\(geometry.name(of: cell)) is not filled with a digit")
            }
            if puzzle.cells[cell] != 0, puzzle.cells[cell] != digit {
                throw Failure(description: "\(geometry.name(of: cell)) changes the given \(puzzle.cells[cell]) to \(digit)")
            }
        }
        for unit in 0..<geometry.unitCount {
            let members = geometry.units[(unit * geometry.side)..<((unit + 1) * geometry.side)].map { digits[$0]! }
            if Set(members).count != geometry.side {
                throw Failure(description: "\(geometry.name(ofUnit: unit)) repeats a digit")
            }
        }
    }
}
