// A tilt puzzle with magnetic blocks (the Magnetic Block Puzzle seed; the rules are ours, see
// docs/formats.md): walls and 1x1 blocks on a board of up to 8x8. Tilting the board slides every
// unit as far as it goes; blocks of one colour that touch at rest join into one rigid unit for
// good. Solved when each colour is a single unit.
//
//   ..a#      # wall   . empty   a, b, ... a block of that colour   * a plain block
//   b..a
//   .#..      one line: ..a#/b..a/.#../b...
//   b...
//
// State: one 64-bit board per colour and one for plain blocks (cell r*width+c is bit r*width+c).
// Joined units need no bookkeeping: blocks of a colour touching at rest are always joined, so a
// colour's units are the connected groups of its board.

public enum TiltDirection: UInt8, Sendable, CaseIterable, Codable {
    case north, east, south, west

    public var name: String {
        switch self {
        case .north: "north"
        case .east: "east"
        case .south: "south"
        case .west: "west"
        }
    }
}

public struct TiltState: Sendable, Hashable {
    /// Each colour's blocks, in the puzzle's colour order.
    public var colours: [UInt64]
    public var plain: UInt64

    public init(colours: [UInt64], plain: UInt64) {
        self.colours = colours
        self.plain = plain
    }

    public var occupied: UInt64 { colours.reduce(plain, |) }
}

public struct TiltPuzzle: Sendable, Hashable {
    public static let maximumSide = 8

    public let width: Int
    public let height: Int
    public let walls: UInt64
    /// The letters naming the colours, in state order.
    public let colourNames: [Character]
    public let start: TiltState
    public var label: String?

    public init(width: Int, height: Int, walls: UInt64, colourNames: [Character], start: TiltState, label: String? = nil) {
        self.width = width
        self.height = height
        self.walls = walls
        self.colourNames = colourNames
        self.start = start
        self.label = label
    }

    public var board: TiltBoard { TiltBoard(width: width, height: height, walls: walls) }

    /// Solved: every colour's blocks form one connected group.
    public func isSolved(_ state: TiltState) -> Bool {
        let board = board
        return state.colours.allSatisfy { board.isConnected($0) }
    }
}

/// The board's masks and the bit operations on its cells.
public struct TiltBoard: Sendable {
    public let width: Int
    public let height: Int
    public let walls: UInt64
    public let cells: UInt64
    let westColumn: UInt64
    let eastColumn: UInt64

    public init(width: Int, height: Int, walls: UInt64) {
        self.width = width
        self.height = height
        self.walls = walls
        let count = width * height
        cells = count == 64 ? .max : (1 << UInt64(count)) - 1
        var west: UInt64 = 0, east: UInt64 = 0
        for row in 0..<height {
            west |= 1 << UInt64(row * width)
            east |= 1 << UInt64(row * width + width - 1)
        }
        westColumn = west
        eastColumn = east
    }

    /// The cells one step away in `direction`; cells that would leave the board are dropped.
    @inline(__always)
    public func shifted(_ set: UInt64, _ direction: TiltDirection) -> UInt64 {
        switch direction {
        case .north: set >> UInt64(width)
        case .south: (set << UInt64(width)) & cells
        case .east: (set & ~eastColumn) << 1
        case .west: (set & ~westColumn) >> 1
        }
    }

    /// Whether some cell of `set` is on the board's edge in `direction`.
    @inline(__always)
    public func touchesEdge(_ set: UInt64, _ direction: TiltDirection) -> Bool {
        switch direction {
        case .north: set & ((1 << UInt64(width)) - 1) != 0
        case .south: set & ~(cells >> UInt64(width)) != 0
        case .east: set & eastColumn != 0
        case .west: set & westColumn != 0
        }
    }

    /// The four neighbours of every cell of `set`.
    @inline(__always)
    public func neighbours(_ set: UInt64) -> UInt64 {
        shifted(set, .north) | shifted(set, .south) | shifted(set, .east) | shifted(set, .west)
    }

    /// The connected group of `set` that holds its lowest cell.
    public func component(of set: UInt64) -> UInt64 {
        var group = set & (0 &- set)
        while true {
            let grown = (group | neighbours(group)) & set
            if grown == group { return group }
            group = grown
        }
    }

    public func isConnected(_ set: UInt64) -> Bool { set == 0 || component(of: set) == set }

    /// The connected groups of `set`.
    public func components(_ set: UInt64) -> [UInt64] {
        var rest = set
        var groups: [UInt64] = []
        while rest != 0 {
            let group = component(of: rest)
            groups.append(group)
            rest &= ~group
        }
        return groups
    }
}
