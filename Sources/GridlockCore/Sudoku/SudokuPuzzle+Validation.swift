// The givens must not break a rule on their own: no digit twice in a row, a column or a box.
// The error names both cells and the unit, so a user fixing a typo knows where to look.

extension SudokuPuzzle {
    func checkGivens(locate: (Int) -> TextLocation?) throws(PuzzleInputError) {
        let side = geometry.side
        for unit in 0..<geometry.unitCount {
            // A mask of the digits seen so far: no allocation, since batches parse thousands.
            var seen: UInt32 = 0
            let members = geometry.units[(unit * side)..<((unit + 1) * side)]
            for cell in members where cells[cell] != 0 {
                let bit: UInt32 = 1 << UInt32(cells[cell])
                if seen & bit != 0 {
                    let first = members.first { cells[$0] == cells[cell] }!
                    throw PuzzleInputError(
                        code: "repeated-digit",
                        message: "\(Self.character(for: cells[cell])) appears twice in \(geometry.name(ofUnit: unit)): "
                            + "\(geometry.name(of: first)) and \(geometry.name(of: cell))",
                        location: locate(cell))
                }
                seen |= bit
            }
        }
    }
}
