// The precomputed geometry a fast Rush Hour search needs, built once per puzzle.
//
// Bitboard: one bit per cell, 8 bits per row whatever the board's width, so a shift by 1 is a
// column and a shift by 8 a row, and any board up to 8x8 fits in a UInt64.
//
//   bit = row * 8 + column          row 2 of a 6x6 board: bits 16..21 (22, 23 unused)
//
// State key: the position of every movable block along its axis, 3 bits each (at most 7
// positions, on an 8-long line), block i at bits 3i..3i+2. Fixed blocks are not in the key:
// they are in `walls`. Eighteen movable blocks use 54 bits, under StateTable's 56.
//
//   key = pos(B) << 0 | pos(C) << 3 | pos(D) << 6 | ...
//
// `masks[i * 8 + p]` is block i's cells at position p, so a board's occupancy is the OR of one
// table entry per block. `transposedMasks` is the same with rows and columns swapped
// (bit = column * 8 + row), so a vertical block's column is a byte too, and every slide is
// worked out on one byte: see `RushHourGeometry+Successors.swift`.

@usableFromInline
struct RushHourGeometry: Sendable {
    @usableFromInline static let bitsPerBlock = 3
    @usableFromInline static let positionMask: UInt64 = 7
    @usableFromInline static let stride = 8

    /// Indices into `puzzle.blocks` of the movable blocks, in key order.
    let movable: [Int]
    /// How many positions each movable block has along its line.
    let positionCount: [Int]
    @usableFromInline let masks: [UInt64]
    @usableFromInline let transposedMasks: [UInt64]
    /// `spans[(i * 8 + a) * 8 + b]`, a <= b: block i's cells at every position from a to b, for
    /// positions the block can take (zero for the others, which no slide asks for).
    @usableFromInline let spans: [UInt64]
    /// `spanBlocks[same index]`: the movable blocks whose line meets that span, a bit each. A
    /// slide changes cells in its span only, so these are the only blocks whose slides a state
    /// and its parent can differ in (RushHourBFSExpansion.swift).
    @usableFromInline let spanBlocks: [UInt32]
    @usableFromInline let walls: UInt64
    @usableFromInline let transposedWalls: UInt64
    /// Where each movable block's line is, for the byte-wide slide computation.
    @usableFromInline let lines: [BlockLine]
    /// The same lines as the bfs expansion reads them (RushHourBFSExpansion.swift).
    @usableFromInline let expansionBlocks: [ExpansionBlock]
    /// The prisoner's index among the movable blocks.
    @usableFromInline let prisoner: Int
    /// The prisoner's position when it touches the chute's edge.
    @usableFromInline let goalPosition: Int
    @usableFromInline let startKey: UInt64

    @usableFromInline
    init(_ puzzle: RushHourPuzzle) {
        var movable: [Int] = []
        movable.reserveCapacity(puzzle.blocks.count)
        var walls: UInt64 = 0
        var transposedWalls: UInt64 = 0
        for (index, block) in puzzle.blocks.enumerated() {
            if block.isFixed {
                walls |= Self.bit(row: block.row, column: block.column)
                transposedWalls |= Self.bit(row: block.column, column: block.row)
            } else {
                movable.append(index)
            }
        }
        precondition(movable.count <= RushHourPuzzle.maximumMovableBlocks, "validation caps movable blocks")
        var lines: [BlockLine] = []
        var positionCount: [Int] = []
        lines.reserveCapacity(movable.count)
        positionCount.reserveCapacity(movable.count)
        var startKey: UInt64 = 0
        // The tables are written through their buffers: written through the arrays, every
        // store checked that the array was not shared, and this runs once a solve, which for a
        // small puzzle is a few microseconds in all.
        var masks = [UInt64](repeating: 0, count: movable.count * Self.stride)
        var transposedMasks = masks
        masks.withUnsafeMutableBufferPointer { masks in
            transposedMasks.withUnsafeMutableBufferPointer { transposedMasks in
                for (i, blockIndex) in movable.enumerated() {
                    let block = puzzle.blocks[blockIndex]
                    let line = block.orientation == .vertical ? puzzle.height : puzzle.width
                    positionCount.append(line - block.length + 1)
                    lines.append(BlockLine(block, lineLength: line))
                    // The block's cells as one run of bits, slid along its line: a row's cells
                    // are neighbouring bits, a column's are a byte apart (and the other way
                    // round when transposed). Arithmetic, not `cells`.
                    let across = UInt64(1) << UInt64(block.length) - 1
                    let down = (0..<block.length).reduce(UInt64(0)) { $0 | 1 << UInt64($1 * Self.stride) }
                    let vertical = block.orientation == .vertical
                    for position in 0..<(line - block.length + 1) {
                        let row = vertical ? position : block.row
                        let column = vertical ? block.column : position
                        masks[i * Self.stride + position] = (vertical ? down : across) &* Self.bit(row: row, column: column)
                        transposedMasks[i * Self.stride + position] =
                            (vertical ? across : down) &* Self.bit(row: column, column: row)
                    }
                    startKey |= UInt64(block.position) << UInt64(i * Self.bitsPerBlock)
                }
            }
        }
        var spans = [UInt64](repeating: 0, count: movable.count * Self.stride * Self.stride)
        var spanBlocks = [UInt32](repeating: 0, count: spans.count)
        // Wrapping arithmetic through buffers: this runs once a solve, and with checked
        // arithmetic it was a third of the geometry's cost for a small puzzle.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { lineBlocks in
            // `lineBlocks[cell]`: the blocks whose line has that cell.
            lineBlocks.initialize(repeating: 0)
            for (i, line) in lines.enumerated() {
                // A column's line is a byte of the transposed board: its column is `shift / 8`.
                let first = line.isVertical ? Int(line.shift) / Self.stride : Int(line.shift)
                let step = line.isVertical ? Self.stride : 1
                for cell in 0..<Self.stride { lineBlocks[first &+ cell &* step] |= 1 &<< UInt32(i) }
            }
            spans.withUnsafeMutableBufferPointer { spans in
                spanBlocks.withUnsafeMutableBufferPointer { spanBlocks in
                    // Only between positions the block can take: no slide asks for any other span.
                    for i in movable.indices {
                        let step = lines[i].isVertical ? Self.stride : 1
                        let count = positionCount[i]
                        for a in 0..<count {
                            // The block's cells at `a` but its far one, then one cell further
                            // on for each position from `a` on.
                            var cell = masks[i &* Self.stride &+ a].trailingZeroBitCount
                            var cells: UInt64 = 0
                            var blocks: UInt32 = 0
                            for _ in 1..<lines[i].length {
                                cells |= 1 &<< UInt64(cell)
                                blocks |= lineBlocks[cell]
                                cell &+= step
                            }
                            let row = (i &* Self.stride &+ a) &* Self.stride
                            for b in a..<count {
                                cells |= 1 &<< UInt64(cell)
                                blocks |= lineBlocks[cell]
                                cell &+= step
                                spans[row &+ b] = cells
                                spanBlocks[row &+ b] = blocks
                            }
                        }
                    }
                }
            }
        }
        self.spans = spans
        self.spanBlocks = spanBlocks
        self.movable = movable
        self.positionCount = positionCount
        self.masks = masks
        self.transposedMasks = transposedMasks
        self.walls = walls
        self.transposedWalls = transposedWalls
        self.lines = lines
        expansionBlocks = lines.indices.map {
            ExpansionBlock(
                lines[$0], cellsAtZero: masks[$0 * Self.stride],
                reachOffset: Self.reachOffset(length: lines[$0].length, lineLength: lines[$0].lineLength))
        }
        self.prisoner = movable.firstIndex(of: puzzle.prisonerIndex)!
        self.goalPosition = puzzle.goalColumn
        self.startKey = startKey
    }

    /// The most slides a state can have: each block to every other position on its line.
    @usableFromInline var slidesAtMost: Int { positionCount.reduce(0) { $0 + $1 - 1 } }

    static func bit(row: Int, column: Int) -> UInt64 {
        1 << UInt64(row * stride + column)
    }

    @inlinable @inline(__always)
    static func position(of block: Int, in key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &>> UInt64(truncatingIfNeeded: block &* bitsPerBlock)) & positionMask)
    }

    /// `key` with movable block `block` moved from `old` to `new`.
    @inlinable @inline(__always)
    static func key(_ key: UInt64, moving block: Int, from old: Int, to new: Int) -> UInt64 {
        let shift = UInt64(truncatingIfNeeded: block &* bitsPerBlock)
        return key &- (UInt64(truncatingIfNeeded: old) &<< shift) &+ (UInt64(truncatingIfNeeded: new) &<< shift)
    }

    @inlinable
    func isGoal(_ key: UInt64) -> Bool {
        Self.position(of: prisoner, in: key) == goalPosition
    }

    /// The puzzle's blocks placed as `key` says.
    func blocks(of puzzle: RushHourPuzzle, at key: UInt64) -> [RushHourBlock] {
        var blocks = puzzle.blocks
        for (i, blockIndex) in movable.enumerated() {
            blocks[blockIndex].position = Self.position(of: i, in: key)
        }
        return blocks
    }

    /// The move that takes block `block` from `old` to `new`, in the puzzle's words.
    func solutionMove(in puzzle: RushHourPuzzle, block: Int, from old: Int, to new: Int) -> SolutionMove {
        var before = puzzle.blocks[movable[block]]
        before.position = old
        var after = before
        after.position = new
        return RushHourMoveText.move(from: before, to: after)
    }
}

/// One movable block's line as a byte: which byte of which bitboard, and which bits of that
/// byte (and the one above it) lie off the board and so always block.
@usableFromInline
struct BlockLine: Sendable {
    /// The line's byte: `board >> shift`, in the transposed board for vertical blocks.
    @usableFromInline var shift: UInt64
    @usableFromInline var isVertical: Bool
    @usableFromInline var length: Int
    /// The block's own cells at position 0 of its line.
    @usableFromInline var ownBits: UInt64
    /// Bits 8 and up, and the bits past the board's edge: walls at both ends of every line.
    @usableFromInline var edge: UInt64

    /// The line's length: the board's width for a row, its height for a column.
    @usableFromInline var lineLength: Int

    init(_ block: RushHourBlock, lineLength: Int) {
        self.init(length: block.length, lineLength: lineLength)
        isVertical = block.orientation == .vertical
        shift = UInt64((isVertical ? block.column : block.row) * RushHourGeometry.stride)
    }

    /// A block of `length` on the first row of a board `lineLength` wide.
    init(length: Int, lineLength: Int) {
        isVertical = false
        shift = 0
        self.length = length
        self.lineLength = lineLength
        ownBits = (1 << UInt64(length)) - 1
        edge = ~((1 << UInt64(lineLength)) - 1)
    }
}
