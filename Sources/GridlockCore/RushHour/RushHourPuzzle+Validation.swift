// Every rule of the guide, checked once at the wall, each failure named precisely.
// Past this point a board is trusted: solvers use preconditions, not checks.

extension RushHourPuzzle {
    /// The most movable blocks a board may hold: each needs 3 bits of the 64-bit state word,
    /// which also carries an 8-bit parent move (see `RushHourGeometry`).
    public static let maximumMovableBlocks = 18

    /// Builds a puzzle, or throws the first broken rule.
    ///
    /// - Parameter locate: maps a board cell to its place in the user's text, so the error can
    ///   say "line 3, column 5" rather than only "row 3, column 5".
    public static func validated(
        width: Int,
        height: Int,
        exit: RushHourExit,
        blocks: [RushHourBlock],
        locate: (BoardCell) -> TextLocation? = { _ in nil }
    ) throws(PuzzleInputError) -> RushHourPuzzle {
        // At least 2x2: on a board of one row or one column no block can leave the prisoner's
        // way, so no such board is a puzzle (it is a straight slide or impossible). Such
        // "boards" are what a stray word (`AA`) makes of random text.
        guard (2...maximumSide).contains(width), (2...maximumSide).contains(height) else {
            throw PuzzleInputError(
                code: "board-size",
                message: "the board is \(width)x\(height); boards are 2x2 up to \(maximumSide)x\(maximumSide)")
        }
        try checkNames(blocks, locate: locate)
        var owner = [Character?](repeating: nil, count: width * height)
        for block in blocks {
            try checkShape(block, locate: locate)
            // Its first cell and its length on the board before any cell is worked out: a column
            // near Int.max would overflow in the sum (JSON can say anything).
            guard (0..<height).contains(block.row), (0..<width).contains(block.column), (1...maximumSide).contains(block.length) else {
                throw PuzzleInputError(
                    code: "off-board",
                    message: "block \(block.name) at row \(block.row), column \(block.column), \(block.length) long, is off the \(width)x\(height) board")
            }
            for cell in block.cells {
                guard (0..<height).contains(cell.row), (0..<width).contains(cell.column) else {
                    throw PuzzleInputError(
                        code: "off-board",
                        message: "block \(block.name) reaches \(cell), off the \(width)x\(height) board")
                }
                if let other = owner[cell.row * width + cell.column] {
                    throw PuzzleInputError(
                        code: "overlap",
                        message: "blocks \(other) and \(block.name) both cover \(cell)",
                        location: locate(cell))
                }
                owner[cell.row * width + cell.column] = block.name
            }
        }
        try checkPrisoner(blocks, exit: exit, height: height, locate: locate)
        let movable = blocks.filter { !$0.isFixed }.count
        guard movable <= maximumMovableBlocks else {
            throw PuzzleInputError(
                code: "too-many-blocks",
                message: "the board has \(movable) movable blocks; Gridlock solves up to \(maximumMovableBlocks)")
        }
        return RushHourPuzzle(width: width, height: height, exit: exit, blocks: blocks)
    }

    private static func checkNames(
        _ blocks: [RushHourBlock], locate: (BoardCell) -> TextLocation?
    ) throws(PuzzleInputError) {
        var seen = Set<Character>()
        for block in blocks where !block.isFixed {
            guard seen.insert(block.name).inserted else {
                let cell = BoardCell(row: block.row, column: block.column)
                throw block.name == prisonerName
                    ? PuzzleInputError(
                        code: "two-prisoners",
                        message: "there are two prisoners (blocks named \(prisonerName)); a board has exactly one",
                        location: locate(cell))
                    : PuzzleInputError(
                        code: "duplicate-name",
                        message: "two blocks are named \(block.name) (the second at \(cell)); names must be unique",
                        location: locate(cell))
            }
        }
    }

    private static func checkShape(
        _ block: RushHourBlock, locate: (BoardCell) -> TextLocation?
    ) throws(PuzzleInputError) {
        let start = BoardCell(row: block.row, column: block.column)
        if block.isFixed, block.length != 1 {
            throw PuzzleInputError(
                code: "block-length",
                message: "fixed block \(block.name) at \(start) is \(block.length) long; fixed blocks are 1x1",
                location: locate(start))
        }
        if !block.isFixed, !(2...3).contains(block.length) {
            throw PuzzleInputError(
                code: "block-length",
                message: "block \(block.name) at \(start) is \(block.length) long; blocks are 2 or 3 long",
                location: locate(start))
        }
    }

    private static func checkPrisoner(
        _ blocks: [RushHourBlock], exit: RushHourExit, height: Int, locate: (BoardCell) -> TextLocation?
    ) throws(PuzzleInputError) {
        guard let prisoner = blocks.first(where: { $0.name == prisonerName && !$0.isFixed }) else {
            throw PuzzleInputError(
                code: "no-prisoner",
                message: "there is no prisoner: one horizontal 2-long block must be named \(prisonerName), on the chute's row \(exit.row)",
                // Where it belongs: the start of the chute's row.
                location: locate(BoardCell(row: (0..<height).contains(exit.row) ? exit.row : 0, column: 0)))
        }
        let start = BoardCell(row: prisoner.row, column: prisoner.column)
        guard prisoner.orientation == .horizontal, prisoner.length == 2 else {
            throw PuzzleInputError(
                code: "prisoner-shape",
                message: "the prisoner \(prisonerName) at \(start) is \(prisoner.orientation) and \(prisoner.length) long; it must be horizontal and 2 long",
                location: locate(start))
        }
        guard (0..<height).contains(exit.row) else {
            throw PuzzleInputError(
                code: "exit-row",
                message: "the escape chute is on row \(exit.row), but the board has \(height) rows")
        }
        guard prisoner.row == exit.row else {
            throw PuzzleInputError(
                code: "prisoner-row",
                message: "the prisoner is on row \(prisoner.row) but the escape chute is on row \(exit.row); they must share a row",
                location: locate(start))
        }
    }
}
