// The givens must not break a rule on their own: no digit twice in a row, a column or a box.
// The error names both cells and the unit, so a user fixing a typo knows where to look.

extension SudokuPuzzle {
    func checkGivens(locate: (Int) -> TextLocation?) throws(PuzzleInputError) {
        let side = geometry.side
        // A mask of the digits seen per unit, over the flat unit table: no allocation, since
        // batches parse thousands of puzzles.
        let conflict: (unit: Int, cell: Int)? = geometry.units.withUnsafeBufferPointer { units in
            cells.withUnsafeBufferPointer { cells in
                for unit in 0..<geometry.unitCount {
                    var seen: UInt32 = 0
                    for index in (unit * side)..<((unit + 1) * side) where cells[units[index]] != 0 {
                        let bit: UInt32 = 1 << UInt32(cells[units[index]])
                        if seen & bit != 0 { return (unit, units[index]) }
                        seen |= bit
                    }
                }
                return nil
            }
        }
        guard let (unit, cell) = conflict else { return }
        let members = geometry.units[(unit * side)..<((unit + 1) * side)]
        let first = members.first { cells[$0] == cells[cell] }!
        throw PuzzleInputError(
            code: "repeated-digit",
            message: "\(Self.character(for: cells[cell])) appears twice in \(geometry.name(ofUnit: unit)): "
                + "\(geometry.name(of: first)) and \(geometry.name(of: cell))",
            location: locate(cell))
    }
}
