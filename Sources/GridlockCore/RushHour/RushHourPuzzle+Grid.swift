// The readable grid: one line per row, any size up to 8x8, the chute drawn outside the edge.
//
//    BB...H           <CC..D       `>` after the last cell: chute on the right of that row
//    ...J.H            ...BD       `<` before the first cell: chute on the left; the other
//    AA.J..>           AA.B..      rows may start with one space so the columns line up
//    C..x..
//
// Without a marker the chute is at the right end of the prisoner's row.

extension RushHourPuzzle {
    /// Reads a grid. `lines` are the record's lines with their numbers in the user's file.
    public static func parseGrid(_ lines: [(number: Int, text: String)]) throws(PuzzleInputError) -> RushHourPuzzle {
        let hasLeftMarker = lines.contains { $0.text.hasPrefix("<") }
        var rows: [[Character]] = []
        var firstColumn: [Int] = []
        var exit: RushHourExit?
        for (row, line) in lines.enumerated() {
            var cells = Array(line.text)
            while let last = cells.last, last.isWhitespace { cells.removeLast() }
            var skipped = 0
            var side: RushHourSide?
            if cells.first == "<" {
                side = .left
                cells.removeFirst()
                skipped = 1
            } else if hasLeftMarker, cells.first == " " {
                cells.removeFirst()
                skipped = 1
            }
            if cells.last == ">" {
                cells.removeLast()
                if side != nil { throw twoExits(line: line.number) }
                side = .right
            }
            if let side {
                guard exit == nil else { throw twoExits(line: line.number) }
                exit = RushHourExit(side: side, row: row)
            }
            if let width = rows.first?.count, cells.count != width {
                throw PuzzleInputError(
                    code: "ragged-rows",
                    message: "this row has \(cells.count) cells but the rows above have \(width); every row of a board has the same width",
                    location: TextLocation(line: line.number))
            }
            rows.append(cells)
            firstColumn.append(1 + skipped)
        }
        let text = CellText(rows: rows) { cell in
            guard cell.row < lines.count else { return nil }
            return TextLocation(line: lines[cell.row].number, column: firstColumn[cell.row] + cell.column)
        }
        let chosenExit = exit ?? prisonerRow(rows).map { RushHourExit(side: .right, row: $0) }
            ?? RushHourExit(side: .right, row: 0)
        return try fromCells(text, exit: chosenExit)
    }

    /// Draws the board as a grid, the chute marked, blocks by their names.
    public func gridText(empty: Character = ".") -> String {
        let rows = cellCharacters(empty: empty)
        return rows.enumerated().map { row, cells in
            let line = String(cells)
            guard row == exit.row else { return exit.side == .left ? " " + line : line }
            return exit.side == .left ? "<" + line : line + ">"
        }.joined(separator: "\n")
    }

    private static func prisonerRow(_ rows: [[Character]]) -> Int? {
        rows.firstIndex { $0.contains(prisonerName) }
    }

    private static func twoExits(line: Int) -> PuzzleInputError {
        PuzzleInputError(
            code: "two-exits", message: "a second escape chute marker; a board has one chute (< or >)",
            location: TextLocation(line: line))
    }
}
