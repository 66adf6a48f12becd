// Fogleman's database line: `[MOVES] BOARD [CLUSTER] [NAME]`.
//
//   23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419 unblockme-I-4
//   ^  ^ 36 cells, row by row from the top  ^ states in the board's cluster
//   optimal moves (-1: unsolvable); "09" is decimal, not octal
//
// The board is always 6x6 with the exit at the right end of row 2 (0-based), where A must be.

extension RushHourPuzzle {
    public static let databaseSide = 6
    public static let databaseExit = RushHourExit(side: .right, row: 2)

    /// Reads one database line. `lineNumber` places errors in the user's file.
    public static func parseDatabaseLine(_ line: String, lineNumber: Int = 1) throws(PuzzleInputError) -> RushHourPuzzle {
        if let puzzle = parseDatabaseLineFast(line) { return puzzle }
        return try parseDatabaseLineInDetail(line, lineNumber: lineNumber)
    }

    /// The general reader: slower, and says exactly what is wrong and where.
    static func parseDatabaseLineInDetail(_ line: String, lineNumber: Int = 1) throws(PuzzleInputError) -> RushHourPuzzle {
        let tokens = tokenize(line)
        // The board is the first long token; failing that, the first that is not a number.
        let longToken = tokens.firstIndex { $0.text.count > maximumSide + 4 }
        guard let boardIndex = longToken ?? tokens.firstIndex(where: { Int($0.text) == nil }) else {
            throw PuzzleInputError(
                code: "no-board", message: "no board on this line: expected [MOVES] BOARD [CLUSTER]",
                location: TextLocation(line: lineNumber))
        }
        let board = tokens[boardIndex]
        let cellCount = databaseSide * databaseSide
        guard board.text.count == cellCount else {
            throw PuzzleInputError(
                code: "board-length",
                message: "the board has \(board.text.count) cells; a database line holds \(cellCount) (6x6, row by row); use the grid format for other sizes",
                location: TextLocation(line: lineNumber, column: board.column))
        }
        let expectedMoves = try boardIndex > 0
            ? integer(tokens[boardIndex - 1], named: "MOVES", lineNumber: lineNumber) : nil
        if boardIndex > 1 {
            throw PuzzleInputError(
                code: "extra-text", message: "unexpected '\(tokens[0].text.excerpt())' before the board",
                location: TextLocation(line: lineNumber, column: tokens[0].column))
        }
        let rest = tokens[(boardIndex + 1)...]
        let cluster = try rest.first.map { token throws(PuzzleInputError) in
            try integer(token, named: "CLUSTER", lineNumber: lineNumber)
        }
        let characters = Array(board.text)
        let rows = (0..<databaseSide).map { Array(characters[($0 * databaseSide)..<(($0 + 1) * databaseSide)]) }
        let cells = CellText(rows: rows) { cell in
            TextLocation(line: lineNumber, column: board.column + cell.row * databaseSide + cell.column)
        }
        var puzzle = try fromCells(cells, exit: databaseExit)
        puzzle.expectedMoves = expectedMoves
        puzzle.expectedCluster = cluster
        let name = rest.dropFirst().map(\.text).joined(separator: " ")
        puzzle.label = name.isEmpty ? nil : name
        return puzzle
    }

    /// The 36-character board of a 6x6 puzzle with the database's exit, or nil for any other shape.
    public var databaseBoard: String? {
        guard width == Self.databaseSide, height == Self.databaseSide, exit == Self.databaseExit else { return nil }
        return String(cellCharacters(empty: "o").joined())
    }

    /// The board as rows of characters, blocks by their names.
    public func cellCharacters(empty: Character) -> [[Character]] {
        var rows = [[Character]](repeating: [Character](repeating: empty, count: width), count: height)
        for block in blocks {
            for cell in block.cells { rows[cell.row][cell.column] = block.name }
        }
        return rows
    }

    private struct Token {
        var text: String
        var column: Int
    }

    private static func tokenize(_ line: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var start = 0
        for (offset, character) in line.enumerated() {
            if character.isWhitespace {
                if !current.isEmpty { tokens.append(Token(text: current, column: start)) }
                current = ""
            } else {
                if current.isEmpty { start = offset + 1 }
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(Token(text: current, column: start)) }
        return tokens
    }

    /// Decimal, whatever its leading zeros ("09" is nine).
    private static func integer(_ token: Token, named name: String, lineNumber: Int) throws(PuzzleInputError) -> Int {
        guard let value = Int(token.text, radix: 10) else {
            throw PuzzleInputError(
                code: "bad-number", message: "\(name) must be a whole number, not '\(token.text.excerpt())'",
                location: TextLocation(line: lineNumber, column: token.column))
        }
        return value
    }
}
