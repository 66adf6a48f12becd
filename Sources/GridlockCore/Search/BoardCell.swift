// A cell of a rectangular board, shared by every puzzle kind.

public struct BoardCell: Sendable, Hashable, Codable, CustomStringConvertible {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// Row and column counted from 1, as people read a board.
    public var description: String { "row \(Self.oneBased(row)), column \(Self.oneBased(column))" }

    /// A row or column counted from 1 for a message, without overflowing on the largest Int a
    /// JSON file can hold.
    public static func oneBased(_ index: Int) -> String {
        index < Int.max ? String(index + 1) : "\(index) (counting from 0)"
    }
}
