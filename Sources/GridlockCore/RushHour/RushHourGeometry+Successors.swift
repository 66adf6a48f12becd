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

/// Receives the successors of a state.
protocol SuccessorVisitor: ~Copyable {
    /// The block whose slides all lead to states already stored (see `forEachSuccessor`), or -1.
    var knownBlock: Int { get }
    /// A state one slide away: `block` moved from `from` to `to`. Return false to stop.
    mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool
    /// `count` slides of `knownBlock`, examined without a lookup.
    mutating func skipKnown(_ count: Int)
}

/// Unsafe views of a geometry's tables, valid inside `RushHourGeometry.withTables`.
struct RushHourTables {
    let masks: UnsafeBufferPointer<UInt64>
    let transposedMasks: UnsafeBufferPointer<UInt64>
    let lines: UnsafeBufferPointer<BlockLine>
    let walls: UInt64
    let transposedWalls: UInt64

    /// Calls the visitor for every state one slide away from `key`, in block order, each block's
    /// slides from the lowest position to the highest. Returns false if the visitor stopped it.
    ///
    /// The slides of `visitor.knownBlock`, the block whose slide first reached this state at
    /// level L, are only counted: each lands on the parent (level L-1) or on another slide of
    /// that block from the parent (level at most L), and a BFS expanding level L has stored
    /// every state up to level L. That saves one lookup in six.
    @inline(__always)
    func forEachSuccessor<V: SuccessorVisitor & ~Copyable>(of key: UInt64, _ visitor: inout V) -> Bool {
        var occupied = walls
        var transposed = transposedWalls
        for block in 0..<lines.count {
            let index = block &* RushHourGeometry.stride &+ RushHourGeometry.position(of: block, in: key)
            occupied |= masks[index]
            transposed |= transposedMasks[index]
        }
        for block in 0..<lines.count {
            let line = lines[block]
            let position = RushHourGeometry.position(of: block, in: key)
            let board = line.isVertical ? transposed : occupied
            let others = ((board &>> line.shift) & 0xFF | line.edge) & ~(line.ownBits &<< UInt64(position))
            let below = others & ((1 &<< UInt64(position)) &- 1)
            let lowest = below == 0 ? 0 : 64 &- below.leadingZeroBitCount
            let highest = position &+ (others &>> UInt64(position &+ line.length)).trailingZeroBitCount
            if block == visitor.knownBlock {
                visitor.skipKnown(highest &- lowest)
                continue
            }
            var target = lowest
            while target < position {
                let successor = RushHourGeometry.key(key, moving: block, from: position, to: target)
                if !visitor.visit(successor, block: block, from: position, to: target) { return false }
                target &+= 1
            }
            target = position &+ 1
            while target <= highest {
                let successor = RushHourGeometry.key(key, moving: block, from: position, to: target)
                if !visitor.visit(successor, block: block, from: position, to: target) { return false }
                target &+= 1
            }
        }
        return true
    }
}

extension RushHourGeometry {
    func withTables<R>(_ body: (RushHourTables) -> R) -> R {
        masks.withUnsafeBufferPointer { masks in
            transposedMasks.withUnsafeBufferPointer { transposedMasks in
                lines.withUnsafeBufferPointer { lines in
                    body(RushHourTables(
                        masks: masks, transposedMasks: transposedMasks, lines: lines,
                        walls: walls, transposedWalls: transposedWalls))
                }
            }
        }
    }

    /// The tag a state's table entry carries: which block moved into it, and from where.
    /// `rootTag` marks a search's starting states.
    @inline(__always)
    static func tag(block: Int, from position: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: block << bitsPerBlock | position)
    }

    static let rootTag: UInt8 = 0xFF

    /// A key and its tag in one word, laid out as in a StateTable slot.
    @inline(__always)
    static func entry(_ key: UInt64, tag: UInt8) -> UInt64 {
        key | UInt64(tag) &<< UInt64(StateTable.keyBits)
    }

    @inline(__always)
    static func tag(of entry: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: entry &>> UInt64(StateTable.keyBits))
    }

    @inline(__always)
    static func untag(_ tag: UInt8) -> (block: Int, from: Int) {
        (Int(tag) >> bitsPerBlock, Int(tag) & Int(positionMask))
    }

    /// The moves that lead from a search's root to `key`, following the tags back through
    /// `table`, first move first. In a backward search the root is a goal, so the same moves read
    /// in reverse lead from that state to the goal.
    func path(in table: borrowing StateTable, to key: UInt64, puzzle: RushHourPuzzle) -> [SolutionMove] {
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
