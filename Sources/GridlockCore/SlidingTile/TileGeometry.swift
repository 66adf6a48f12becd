// The fixed shape of a W x H tile board: which cells neighbour which, in what direction, and
// the 4-bit packed state the breadth-first solvers store.
//
//   packed state (boards of at most 16 cells): cell i's tile in bits 4i...4i+3
//     cell:  15   14  ...   1    0
//           [t15][t14] ... [t1][t0]
//
// A move is named by the direction the tile slides; the blank goes the other way.

public enum TileDirection: UInt8, Sendable, CaseIterable {
    case up, left, right, down

    public var name: String {
        switch self {
        case .up: "up"
        case .left: "left"
        case .right: "right"
        case .down: "down"
        }
    }
}

public struct TileGeometry: Sendable {
    public let width: Int
    public let height: Int
    public var cellCount: Int { width * height }
    /// For each blank cell, the moves: the cell of the tile that slides into the blank, and the
    /// direction it slides. Ordered up, left, right, down by the blank's own movement.
    public let moves: [[(tile: Int, direction: TileDirection)]]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        moves = (0..<(width * height)).map { blank in
            let row = blank / width, column = blank % width
            var list: [(Int, TileDirection)] = []
            // The blank moves up: the tile above it slides down into it.
            if row > 0 { list.append((blank - width, .down)) }
            if column > 0 { list.append((blank - 1, .right)) }
            if column < width - 1 { list.append((blank + 1, .left)) }
            if row < height - 1 { list.append((blank + width, .up)) }
            return list
        }
    }

    /// The cell a tile reaches sliding from `cell` in `direction`.
    public func cell(from cell: Int, sliding direction: TileDirection) -> Int? {
        let row = cell / width, column = cell % width
        switch direction {
        case .up: return row > 0 ? cell - width : nil
        case .down: return row < height - 1 ? cell + width : nil
        case .left: return column > 0 ? cell - 1 : nil
        case .right: return column < width - 1 ? cell + 1 : nil
        }
    }

    public static func pack(_ tiles: [UInt8]) -> UInt64 {
        precondition(tiles.count <= TilePuzzle.maximumPackedCells, "packing holds 16 cells")
        return tiles.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(4 * $1.offset) }
    }

    /// The blank's cell: the lowest zero nibble (cells past the board are zero too, but higher).
    @inline(__always)
    public static func blank(of state: UInt64) -> Int {
        let ones: UInt64 = 0x1111_1111_1111_1111
        let zeroNibbles = (state &- ones) & ~state & (ones << 3)
        return zeroNibbles.trailingZeroBitCount >> 2
    }

    /// The state after the tile at `tile` slides into the blank at `blank`.
    @inline(__always)
    public static func slide(_ state: UInt64, tile: Int, blank: Int) -> UInt64 {
        let value = (state >> UInt64(4 * tile)) & 15
        return state & ~(15 << UInt64(4 * tile)) | value << UInt64(4 * blank)
    }

    /// The move's words and cells, as every solver reports it: `12 left`.
    public func solutionMove(tileValue: UInt8, from: Int, to: Int, direction: TileDirection) -> SolutionMove {
        SolutionMove(
            piece: String(tileValue), from: BoardCell(row: from / width, column: from % width),
            to: BoardCell(row: to / width, column: to % width), text: "\(tileValue) \(direction.name)")
    }
}
