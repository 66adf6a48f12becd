// Moves as people say them: `B down 2`, `A right 3`.

public enum RushHourMoveText {
    /// The move that takes a block from one position to another along its axis.
    public static func move(from before: RushHourBlock, to after: RushHourBlock) -> SolutionMove {
        precondition(before.name == after.name && before.orientation == after.orientation, "a move keeps its block")
        let distance = after.position - before.position
        let direction: String
        switch before.orientation {
        case .vertical: direction = distance > 0 ? "down" : "up"
        default: direction = distance > 0 ? "right" : "left"
        }
        return SolutionMove(
            piece: String(before.name),
            from: BoardCell(row: before.row, column: before.column),
            to: BoardCell(row: after.row, column: after.column),
            text: "\(before.name) \(direction) \(abs(distance))")
    }
}
