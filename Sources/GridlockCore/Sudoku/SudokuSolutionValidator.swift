// The independent check of a Sudoku answer: it shares no code with the solvers (no masks, no
// propagation), only the geometry's unit lists, and checks every rule from scratch.

public enum SudokuSolutionValidator {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Throws unless `solution` (the one-line form) fills every cell, keeps every given, and
    /// has each digit once in every row, column and box.
    public static func validate(_ solution: String, for puzzle: SudokuPuzzle) throws(Failure) {
        var solution = solution
        let cellCount = puzzle.geometry.cellCount
        guard solution.utf8.count == cellCount else {
            throw Failure(description: "the solution has \(solution.utf8.count) cells, not \(cellCount)")
        }
        // Contiguous UTF-8 (a no-op for the solvers' strings), read in place: copying it and
        // the digits into arrays was a third of this check's time.
        let verdict: Failure? = solution.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: cellCount) { digits in
                check(bytes, digits: digits, puzzle: puzzle)
            }
        }
        if let verdict { throw verdict }
    }

    private static func check(
        _ bytes: UnsafeBufferPointer<UInt8>, digits: UnsafeMutableBufferPointer<UInt8>, puzzle: SudokuPuzzle
    ) -> Failure? {
        let geometry = puzzle.geometry
        for cell in 0..<geometry.cellCount {
            guard let digit = SudokuPuzzle.digit(for: bytes[cell]), digit >= 1, Int(digit) <= geometry.side else {
                return Failure(description: "\(geometry.name(of: cell)) is not filled with a digit")
            }
            if puzzle.cells[cell] != 0, puzzle.cells[cell] != digit {
                return Failure(description: "\(geometry.name(of: cell)) changes the given \(puzzle.cells[cell]) to \(digit)")
            }
            digits[cell] = digit
        }
        // A unit of `side` cells, each holding 1...side, holds every digit once exactly when no
        // digit comes twice: one bit a digit (a Set per unit was a fifth of `solve`'s time on
        // 9,500 Sudokus, more than the parsing).
        return geometry.units.withUnsafeBufferPointer { units in
            for unit in 0..<geometry.unitCount {
                var seen: UInt64 = 0
                for index in (unit * geometry.side)..<((unit + 1) * geometry.side) {
                    let bit: UInt64 = 1 << UInt64(digits[units[index]])
                    if seen & bit != 0 { return Failure(description: "\(geometry.name(ofUnit: unit)) repeats a digit") }
                    seen |= bit
                }
            }
            return nil
        }
    }
}
