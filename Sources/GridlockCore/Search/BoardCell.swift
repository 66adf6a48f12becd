// A cell of a rectangular board, shared by every puzzle kind.

public struct BoardCell: Sendable, Hashable, Codable, CustomStringConvertible {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// Row and column counted from 1, as people read a board.
    public var description: String { "row \(row + 1), column \(column + 1)" }
}
