// Move generation on bitboards, shared by the bfs and bidirectional solvers.
//
// A block's line (its row, or its column in the transposed board) is one byte. With the block's
// own cells taken out and the off-board bits set, the nearest set bits below and above the block
// bound its slides:
//
//   line:      1 . . B B . 1 1      (bits 0..5 the row, 6.. off the board, so set)
//   below:     bit 0 set       -> lowest position 1 (highest set bit below, plus one)
//   above:     one free cell   -> highest position 4 (trailing zeros above the block)
//
// so every successor is one add to the key and no per-cell test. Each visit is a state one
// slide away: the visitor decides what to do with it (the solvers insert it in a StateTable).
//
// Tried and lost: a closure per successor (about 8% slower than this generic visitor on I-4),
// and testing the moved block's mask cell by cell (two extra loads and branches per step).

/// The slide that first reached the state being expanded: `block` came from position `from`.
/// `none` for a search's roots, and for visitors that want every successor.
@usableFromInline
struct EnteringSlide: Sendable {
    @usableFromInline var block: Int
    @usableFromInline var from: Int

    @usableFromInline static let none = EnteringSlide(block: -1, from: 0)

    /// The slide a table entry's tag records.
    @inlinable @inline(__always)
    init(tag: UInt8) {
        if tag == RushHourGeometry.rootTag {
            self = .none
        } else {
            (block, from) = RushHourGeometry.untag(tag)
        }
    }

    @inlinable
    init(block: Int, from: Int) {
        self.block = block
        self.from = from
    }
}

/// Receives the successors of a state.
@usableFromInline
protocol SuccessorVisitor: ~Copyable {
    /// How the state being expanded was first reached, for the skips `forEachSuccessor`
    /// explains; `.none` to be handed every successor.
    var entering: EnteringSlide { get }
    /// A state one slide away: `block` moved from `from` to `to`. Return false to stop.
    mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool
    /// `count` slides examined without a lookup: they lead to states already stored.
    mutating func skipKnown(_ count: Int)
}

/// Every occupied cell of a state, as the board and as its transpose.
@usableFromInline
struct Occupancy {
    @usableFromInline var cells: UInt64
    @usableFromInline var transposed: UInt64

    @inlinable
    init(cells: UInt64, transposed: UInt64) {
        self.cells = cells
        self.transposed = transposed
    }
}

/// Unsafe views of a geometry's tables, valid inside `RushHourGeometry.withTables`.
@usableFromInline
struct RushHourTables {
    @usableFromInline let masks: UnsafeBufferPointer<UInt64>
    @usableFromInline let transposedMasks: UnsafeBufferPointer<UInt64>
    @usableFromInline let lines: UnsafeBufferPointer<BlockLine>
    @usableFromInline let spans: UnsafeBufferPointer<UInt64>
    @usableFromInline let walls: UInt64
    @usableFromInline let transposedWalls: UInt64

    @inlinable
    init(
        masks: UnsafeBufferPointer<UInt64>, transposedMasks: UnsafeBufferPointer<UInt64>,
        lines: UnsafeBufferPointer<BlockLine>, spans: UnsafeBufferPointer<UInt64>, walls: UInt64,
        transposedWalls: UInt64
    ) {
        self.masks = masks
        self.transposedMasks = transposedMasks
        self.lines = lines
        self.spans = spans
        self.walls = walls
        self.transposedWalls = transposedWalls
    }

    /// Calls the visitor for every state one slide away from `key`, in block order, each block's
    /// slides from the lowest position to the highest. Returns false if the visitor stopped it.
    ///
    /// A breadth-first search expanding level L has stored every state up to level L and needs
    /// only the new states of level L+1, each once. Two kinds of slide are counted (`skipKnown`)
    /// but never handed over, when the state was first reached from its parent P by block K:
    ///
    /// - K's own slides: each lands on P (level L-1) or on another slide of K from P (level at
    ///   most L), stored already. That saves about one lookup in six.
    /// - Slides of a block B numbered below K that commute with K's slide: neither crosses the
    ///   other's swept cells, so B's slide could have come first, from P to a state T of level
    ///   at most L, and K's slide from T leads to the same successor S. P hands over B's slides
    ///   before K's, so T was stored before the state being expanded, and is expanded before
    ///   it (or is of level L-1 or below): T, or an earlier state, reaches S first. So every
    ///   skipped slide leads to a state stored before this expansion, in the search that looks
    ///   everything up, and the search stores the same states in the same order, with the same
    ///   tags, with fewer lookups. (`bfs` skips a third kind, RushHourBFSExpansion.swift.)
    @inlinable @inline(__always)
    func forEachSuccessor<V: SuccessorVisitor & ~Copyable>(of key: UInt64, _ visitor: inout V) -> Bool {
        var occupied = walls
        var transposed = transposedWalls
        for block in 0..<lines.count {
            let index = block &* RushHourGeometry.stride &+ RushHourGeometry.position(of: block, in: key)
            occupied |= masks[index]
            transposed |= transposedMasks[index]
        }
        let entering = visitor.entering
        let board = Occupancy(cells: occupied, transposed: transposed)
        // Blocks numbered below the entering one: their slides that commute with it are skipped.
        if entering.block >= 0 {
            let sweep = span(entering.block, entering.from, RushHourGeometry.position(of: entering.block, in: key))
            for block in 0..<entering.block {
                let (position, lowest, highest) = slides(of: block, in: key, board)
                if span(block, lowest, highest) & sweep == 0 {
                    visitor.skipKnown(highest &- lowest)
                    continue
                }
                // Some slides cross the entering slide: the long ones. The short ones still commute.
                var target = lowest
                while target < position, span(block, target, position) & sweep != 0 {
                    if !visit(block, from: position, to: target, key, &visitor) { return false }
                    target &+= 1
                }
                visitor.skipKnown(position &- target)
                target = position &+ 1
                while target <= highest, span(block, position, target) & sweep == 0 {
                    target &+= 1
                }
                visitor.skipKnown(target &- position &- 1)
                while target <= highest {
                    if !visit(block, from: position, to: target, key, &visitor) { return false }
                    target &+= 1
                }
            }
            let (_, lowest, highest) = slides(of: entering.block, in: key, board)
            visitor.skipKnown(highest &- lowest)
        }
        for block in (entering.block &+ 1)..<lines.count {
            let (position, lowest, highest) = slides(of: block, in: key, board)
            var target = lowest
            while target <= highest {
                if target != position, !visit(block, from: position, to: target, key, &visitor) { return false }
                target &+= 1
            }
        }
        return true
    }

    /// The state with `block` slid from `position` to `target`, handed to the visitor.
    @inlinable @inline(__always)
    func visit<V: SuccessorVisitor & ~Copyable>(
        _ block: Int, from position: Int, to target: Int, _ key: UInt64, _ visitor: inout V
    ) -> Bool {
        let successor = RushHourGeometry.key(key, moving: block, from: position, to: target)
        return visitor.visit(successor, block: block, from: position, to: target)
    }

    /// A block's position and the lowest and highest it can slide to, from the line's byte.
    @inlinable @inline(__always)
    func slides(of block: Int, in key: UInt64, _ board: Occupancy) -> (position: Int, lowest: Int, highest: Int) {
        let line = lines[block]
        let position = RushHourGeometry.position(of: block, in: key)
        let cells = line.isVertical ? board.transposed : board.cells
        let others = ((cells &>> line.shift) & 0xFF | line.edge) & ~(line.ownBits &<< UInt64(position))
        let below = others & ((1 &<< UInt64(position)) &- 1)
        let lowest = below == 0 ? 0 : 64 &- below.leadingZeroBitCount
        let highest = position &+ (others &>> UInt64(position &+ line.length)).trailingZeroBitCount
        return (position, lowest, highest)
    }

    /// The cells a block covers at some position from `a` to `b`, in either order.
    @inlinable @inline(__always)
    func span(_ block: Int, _ a: Int, _ b: Int) -> UInt64 {
        spans[(block &* RushHourGeometry.stride &+ min(a, b)) &* RushHourGeometry.stride &+ max(a, b)]
    }
}

extension RushHourGeometry {
    @inlinable
    func withTables<R>(_ body: (RushHourTables) -> R) -> R {
        masks.withUnsafeBufferPointer { masks in
            transposedMasks.withUnsafeBufferPointer { transposedMasks in
                lines.withUnsafeBufferPointer { lines in
                    spans.withUnsafeBufferPointer { spans in
                        body(RushHourTables(
                            masks: masks, transposedMasks: transposedMasks, lines: lines, spans: spans,
                            walls: walls, transposedWalls: transposedWalls))
                    }
                }
            }
        }
    }

    /// The tag a state's table entry carries: which block moved into it, and from where.
    /// `rootTag` marks a search's starting states.
    @inlinable @inline(__always)
    static func tag(block: Int, from position: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: block << bitsPerBlock | position)
    }

    @usableFromInline static let rootTag: UInt8 = 0xFF

    /// A key and its tag in one word, laid out as in a StateTable slot.
    @inlinable @inline(__always)
    static func entry(_ key: UInt64, tag: UInt8) -> UInt64 {
        key | UInt64(tag) &<< UInt64(StateTable.keyBits)
    }

    @inlinable @inline(__always)
    static func tag(of entry: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: entry &>> UInt64(StateTable.keyBits))
    }

    @inlinable @inline(__always)
    static func untag(_ tag: UInt8) -> (block: Int, from: Int) {
        (Int(tag) >> bitsPerBlock, Int(tag) & Int(positionMask))
    }

    /// The key of the state that `key`, tagged `tag` (not the root's), was reached from.
    @inlinable @inline(__always)
    static func parent(of key: UInt64, tag: UInt8) -> UInt64 {
        let (block, from) = untag(tag)
        return Self.key(key, moving: block, from: position(of: block, in: key), to: from)
    }

    /// The moves that lead from a search's root to `key`, following the tags back through
    /// `table`, first move first. In a backward search the root is a goal, so the same moves read
    /// in reverse lead from that state to the goal.
    @usableFromInline
    func path<Table: SearchStateTable & ~Copyable>(in table: borrowing Table, to key: UInt64, puzzle: RushHourPuzzle) -> [SolutionMove] {
        var moves: [SolutionMove] = []
        var key = key
        var tag = table.tag(of: key)!
        while tag != Self.rootTag {
            let (block, previous) = Self.untag(tag)
            let current = Self.position(of: block, in: key)
            moves.append(solutionMove(in: puzzle, block: block, from: previous, to: current))
            key = Self.key(key, moving: block, from: current, to: previous)
            tag = table.tag(of: key)!
        }
        return moves.reversed()
    }
}
