// Stepping through a solution: the board after each move, for `--show` and viewers.

extension RushHourPuzzle {
    /// The board after each move, the start first. Moves are trusted (validate them first).
    public func boards(after moves: [SolutionMove]) -> [RushHourPuzzle] {
        var boards = [self]
        var current = blocks
        for move in moves {
            guard let index = current.firstIndex(where: { String($0.name) == move.piece && !$0.isFixed }),
                  let to = move.to else { break }
            current[index].row = to.row
            current[index].column = to.column
            boards.append(with(blocks: current))
        }
        return boards
    }
}
