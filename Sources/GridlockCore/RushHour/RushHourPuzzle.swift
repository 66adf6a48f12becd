// The Unblock Me / Rush Hour puzzle, as the Unblocker guide defines it.
//
//        col 0 1 2 3 4 5
//   row 0    B B . . . H
//   row 1    . . . J . H
//   row 2    A A . J . .  >   <- the escape chute: right (or left) end of the prisoner's row
//   row 3    C . . x . .      x: a fixed 1x1 block, never moves
//   row 4    C D D D . .
//   row 5    . . . . . .
//
// Blocks are 2 or 3 long and slide along their axis only. `A` is the prisoner: a horizontal
// 2-long block that must reach the chute. A move slides one block any distance, and the
// prisoner's last slide up to the edge counts as a move (Fogleman's database metric), so the
// puzzle is solved when the prisoner touches the chute's edge.
//
// Boards may be any size from 1x2 up to 8x8, which lets a whole board fit in one 64-bit bitboard.

/// Which end of the prisoner's row the escape chute is on.
public enum RushHourSide: String, Sendable, Hashable, Codable, CaseIterable {
    case left, right
}

/// The escape chute: one end of one row.
public struct RushHourExit: Sendable, Hashable, Codable {
    public var side: RushHourSide
    public var row: Int

    public init(side: RushHourSide, row: Int) {
        self.side = side
        self.row = row
    }
}

public enum RushHourOrientation: String, Sendable, Hashable, Codable {
    /// Slides left and right.
    case horizontal
    /// Slides up and down.
    case vertical
    /// A 1x1 block that never moves (a "wall").
    case fixed
}

/// One block at its position, named by the letter the user gave it.
///
/// The position is the block's top or left end, as in the guide's `Block`.
public struct RushHourBlock: Sendable, Hashable {
    public var name: Character
    public var orientation: RushHourOrientation
    public var length: Int
    public var row: Int
    public var column: Int

    public init(name: Character, orientation: RushHourOrientation, length: Int, row: Int, column: Int) {
        self.name = name
        self.orientation = orientation
        self.length = length
        self.row = row
        self.column = column
    }

    public var isFixed: Bool { orientation == .fixed }

    /// The cells the block covers, top-left first.
    public var cells: [BoardCell] {
        (0..<length).map { offset in
            orientation == .vertical
                ? BoardCell(row: row + offset, column: column)
                : BoardCell(row: row, column: column + offset)
        }
    }

    /// The coordinate that changes when the block slides: the column of a horizontal block,
    /// the row of a vertical one.
    public var position: Int {
        get { orientation == .vertical ? row : column }
        set {
            if orientation == .vertical { row = newValue } else { column = newValue }
        }
    }
}

/// A validated puzzle: every rule of the guide holds (see `RushHourPuzzle+Validation.swift`).
public struct RushHourPuzzle: Sendable, Hashable {
    public static let maximumSide = 8
    public static let prisonerName: Character = "A"

    public let width: Int
    public let height: Int
    public let exit: RushHourExit
    /// Every block, fixed ones included, in the order they were read.
    public let blocks: [RushHourBlock]
    /// The expected optimal number of moves, when the input gave one (`-1`: unsolvable).
    public var expectedMoves: Int?
    /// The expected cluster size, when the input gave one.
    public var expectedCluster: Int?
    /// A name the input gave the puzzle (the database files' fourth column).
    public var label: String?

    /// Use `RushHourPuzzle.validated(...)` from outside: it names every broken rule.
    init(width: Int, height: Int, exit: RushHourExit, blocks: [RushHourBlock]) {
        self.width = width
        self.height = height
        self.exit = exit
        self.blocks = blocks
    }

    public var prisonerIndex: Int {
        blocks.firstIndex { $0.name == Self.prisonerName }!
    }

    public var prisoner: RushHourBlock { blocks[prisonerIndex] }

    /// The prisoner's column once it touches the chute's edge.
    public var goalColumn: Int {
        exit.side == .right ? width - prisoner.length : 0
    }

    public var isSolved: Bool { prisoner.column == goalColumn }

    /// A copy with the blocks moved to new positions (same blocks, same order).
    public func with(blocks newBlocks: [RushHourBlock]) -> RushHourPuzzle {
        precondition(newBlocks.count == blocks.count, "a board keeps its blocks")
        var copy = RushHourPuzzle(width: width, height: height, exit: exit, blocks: newBlocks)
        copy.label = label
        return copy
    }
}
