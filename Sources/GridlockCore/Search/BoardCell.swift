// A cell of a rectangular board, shared by every puzzle kind.

public struct BoardCell: Sendable, Hashable, Codable, CustomStringConvertible {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// Row and column counted from 0, top left, as everywhere in Gridlock (JSON, the README,
    /// messages); only a file's lines and columns count from 1, as editors count them.
    public var description: String { "row \(row), column \(column)" }
}
