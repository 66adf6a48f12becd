// Reading blocks out of a grid of characters, shared by the database line and the grid format.
//
//   o or .   an empty cell
//   x or #   a fixed 1x1 block (a wall); the character is kept as its name
//   A        the prisoner
//   B..Z     other blocks; orientation comes from the cells, never from the letter

extension RushHourPuzzle {
    static let emptyCharacters: Set<Character> = ["o", "."]
    static let wallCharacters: Set<Character> = ["x", "#"]

    /// The cells of a board as the user typed them, with a way back to the text.
    struct CellText {
        var rows: [[Character]]
        var locate: (BoardCell) -> TextLocation?
    }

    /// Builds and validates a puzzle from its cells.
    static func fromCells(_ text: CellText, exit: RushHourExit) throws(PuzzleInputError) -> RushHourPuzzle {
        let height = text.rows.count
        let width = text.rows.first?.count ?? 0
        var cellsByName: [Character: [BoardCell]] = [:]
        var order: [Character] = []
        var walls: [RushHourBlock] = []
        for (row, characters) in text.rows.enumerated() {
            for (column, character) in characters.enumerated() {
                let cell = BoardCell(row: row, column: column)
                if emptyCharacters.contains(character) { continue }
                if wallCharacters.contains(character) {
                    walls.append(RushHourBlock(name: character, orientation: .fixed, length: 1, row: row, column: column))
                } else if character.isASCII, character.isUppercase {
                    if cellsByName[character] == nil { order.append(character) }
                    cellsByName[character, default: []].append(cell)
                } else {
                    throw PuzzleInputError(
                        code: "unknown-character",
                        message: "unknown character '\(character)' at \(cell): use o or . for empty, x or # for a wall, A for the prisoner, B-Z for blocks",
                        location: text.locate(cell))
                }
            }
        }
        var blocks: [RushHourBlock] = []
        for name in order {
            for run in try straightRuns(name: name, cells: cellsByName[name]!, locate: text.locate) {
                blocks.append(run)
            }
        }
        return try validated(width: width, height: height, exit: exit, blocks: blocks + walls, locate: text.locate)
    }

    /// Splits one letter's cells into straight runs. One run is a block; more than one is a
    /// duplicated name, reported by validation; anything else is a shape error here.
    private static func straightRuns(
        name: Character, cells: [BoardCell], locate: (BoardCell) -> TextLocation?
    ) throws(PuzzleInputError) -> [RushHourBlock] {
        var remaining = Set(cells)
        var runs: [RushHourBlock] = []
        for start in cells where remaining.contains(start) {
            let right = runLength(from: start, in: remaining) { BoardCell(row: $0.row, column: $0.column + 1) }
            let down = runLength(from: start, in: remaining) { BoardCell(row: $0.row + 1, column: $0.column) }
            if right > 1, down > 1 {
                throw shapeError(name: name, cells: cells, locate: locate)
            }
            let block = RushHourBlock(
                name: name, orientation: down > 1 ? .vertical : .horizontal,
                length: max(right, down), row: start.row, column: start.column)
            remaining.subtract(block.cells)
            runs.append(block)
        }
        if runs.count > 1, runs.contains(where: { $0.length == 1 }) {
            throw shapeError(name: name, cells: cells, locate: locate)
        }
        return runs
    }

    private static func runLength(
        from start: BoardCell, in cells: Set<BoardCell>, next: (BoardCell) -> BoardCell
    ) -> Int {
        var length = 1
        var cell = next(start)
        while cells.contains(cell) {
            length += 1
            cell = next(cell)
        }
        return length
    }

    private static func shapeError(
        name: Character, cells: [BoardCell], locate: (BoardCell) -> TextLocation?
    ) -> PuzzleInputError {
        let listed = cells.map { "(\($0.row),\($0.column))" }.joined(separator: " ")
        return PuzzleInputError(
            code: "block-shape",
            message: "block \(name)'s cells \(listed) do not form one straight line; blocks are 2 or 3 cells in a row or a column",
            location: locate(cells[0]))
    }
}
