// The independent referee: replays a solution on a plain character grid, sharing no code with
// the solvers (no bitboards, no geometry tables, no move generator), and says what is wrong.
//
// A move is legal when its block exists, can move, travels along its own axis, starts where the
// block is, every cell it passes through and lands on is empty and on the board. The solution
// is complete when the prisoner touches the chute's edge after the last move.

public enum RushHourSolutionValidator {
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The 1-based index of the offending move, or nil when the whole solution is at fault.
        public var move: Int?
        public var reason: String

        public var description: String {
            move.map { "move \($0): \(reason)" } ?? reason
        }
    }

    /// Replays `moves` from the puzzle's start. Throws the first illegal move, or a failure if
    /// the prisoner is not out at the end.
    public static func validate(_ moves: [SolutionMove], for puzzle: RushHourPuzzle) throws(Failure) {
        // No move: only the start is judged, and no grid is built (a batch of boards already
        // out replays millions of empty solutions).
        let prisoner = moves.isEmpty ? puzzle.blocks.first { $0.name == RushHourPuzzle.prisonerName }! : try replay(moves, on: puzzle)
        let touchesEdge = puzzle.exit.side == .left ? prisoner.column == 0 : prisoner.column + prisoner.length == puzzle.width
        guard prisoner.row == puzzle.exit.row, touchesEdge else {
            throw Failure(move: nil, reason: "after \(moves.count) moves the prisoner is not at the escape chute")
        }
    }

    /// Plays every move on a grid of block numbers (one more than the block's index; 0 empty),
    /// and gives the prisoner where it ends.
    private static func replay(_ moves: [SolutionMove], on puzzle: RushHourPuzzle) throws(Failure) -> RushHourBlock {
        var grid = [Int](repeating: 0, count: puzzle.width * puzzle.height)
        var blocks: [Character: (index: Int, block: RushHourBlock)] = [:]
        for (index, block) in puzzle.blocks.enumerated() {
            for cell in block.cells { grid[cell.row * puzzle.width + cell.column] = index + 1 }
            if !block.isFixed { blocks[block.name] = (index, block) }
        }
        for (index, move) in moves.enumerated() {
            let number = index + 1
            guard move.piece.count == 1, let name = move.piece.first, let (blockIndex, found) = blocks[name] else {
                throw Failure(move: number, reason: "no movable block named \(move.piece)")
            }
            var block = found
            guard let from = move.from, let to = move.to else {
                throw Failure(move: number, reason: "the move does not say where the block goes")
            }
            guard from.row == block.row, from.column == block.column else {
                throw Failure(move: number, reason: "block \(name) is at \(BoardCell(row: block.row, column: block.column)), not \(from)")
            }
            let rowStep = (to.row - from.row).signum()
            let columnStep = (to.column - from.column).signum()
            let alongAxis = block.orientation == .horizontal ? rowStep == 0 : columnStep == 0
            guard alongAxis, rowStep != 0 || columnStep != 0 else {
                throw Failure(move: number, reason: "block \(name) cannot go from \(from) to \(to)")
            }
            for cell in block.cells { grid[cell.row * puzzle.width + cell.column] = 0 }
            while block.row != to.row || block.column != to.column {
                block.row += rowStep
                block.column += columnStep
                for cell in block.cells {
                    guard (0..<puzzle.height).contains(cell.row), (0..<puzzle.width).contains(cell.column) else {
                        throw Failure(move: number, reason: "block \(name) leaves the board at \(cell)")
                    }
                    let other = grid[cell.row * puzzle.width + cell.column]
                    if other != 0 {
                        throw Failure(move: number, reason: "block \(name) runs into \(puzzle.blocks[other - 1].name) at \(cell)")
                    }
                }
            }
            for cell in block.cells { grid[cell.row * puzzle.width + cell.column] = blockIndex + 1 }
            blocks[name] = (blockIndex, block)
        }
        return blocks[RushHourPuzzle.prisonerName]!.block
    }
}
