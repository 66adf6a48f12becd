// A sliding-tile puzzle (8-puzzle, 15-puzzle, any W x H from 2x2): numbered tiles and one blank
// on a grid; a move slides a tile next to the blank into it.
//
//   14 13 15  7      Korf's instance 1        _  1  2  3   goal blank-first (Korf's)
//   11 12  9  5                               4  5  6  7
//    6  _  2  1                               8  9 10 11
//    4  8 10  3                              12 13 14 15
//                                             1  2  3  4   goal blank-last (the default)
//                                            ...
//                                            13 14 15  _
//
// Half of all arrangements cannot reach a given goal: `unsolvableReason` decides it from the
// permutation's parity and the blank's row before any search (TilePuzzle+Solvability.swift).

public enum TileGoal: String, Sendable, Hashable, Codable, CaseIterable {
    /// Tiles 1...N-1 in reading order, the blank last.
    case blankLast = "blank-last"
    /// The blank first, tile i at position i (Korf's convention).
    case blankFirst = "blank-first"

    /// The goal arrangement for `cells` cells.
    public func tiles(cells: Int) -> [UInt8] {
        switch self {
        case .blankLast: (1..<cells).map(UInt8.init) + [0]
        case .blankFirst: (0..<cells).map(UInt8.init)
        }
    }
}

public struct TilePuzzle: Sendable, Hashable {
    public static let sides = 2...8
    /// Boards the 4-bit packed state (and so bfs, bidirectional and astar) can hold.
    public static let maximumPackedCells = 16

    public let width: Int
    public let height: Int
    /// The tile in each cell, row by row; 0 is the blank.
    public let tiles: [UInt8]
    public var goal: TileGoal
    /// The optimal move count the input gave (Korf's lines carry it).
    public var expectedMoves: Int?
    public var label: String?

    public var cellCount: Int { width * height }
    public var blank: Int { tiles.firstIndex(of: 0)! }
    public var goalTiles: [UInt8] { goal.tiles(cells: cellCount) }
    public var isGoal: Bool { tiles == goalTiles }

    /// A puzzle from its cells; checks the size and that the tiles are 0...N-1 once each.
    public init(
        width: Int, height: Int, tiles: [UInt8], goal: TileGoal = .blankLast, expectedMoves: Int? = nil, label: String? = nil
    ) throws(PuzzleInputError) {
        guard Self.sides.contains(width), Self.sides.contains(height) else {
            throw PuzzleInputError(code: "bad-size", message: "a tile board is 2x2 to 8x8; this one is \(width)x\(height)")
        }
        guard tiles.count == width * height else {
            throw PuzzleInputError(
                code: "wrong-count", message: "a \(width)x\(height) board has \(width * height) cells; \(tiles.count) tiles were given")
        }
        var seen = [Bool](repeating: false, count: tiles.count)
        for tile in tiles {
            guard Int(tile) < tiles.count else {
                throw PuzzleInputError(
                    code: "tile-out-of-range", message: "tile \(tile) is too large: a \(width)x\(height) board numbers its tiles 1 to \(tiles.count - 1)")
            }
            guard !seen[Int(tile)] else {
                throw PuzzleInputError(
                    code: "duplicate-tile", message: tile == 0 ? "the board has more than one blank" : "tile \(tile) appears twice")
            }
            seen[Int(tile)] = true
        }
        // With the right count and no duplicate, every tile is present.
        self.width = width
        self.height = height
        self.tiles = tiles
        self.goal = goal
        self.expectedMoves = expectedMoves
        self.label = label
    }
}
