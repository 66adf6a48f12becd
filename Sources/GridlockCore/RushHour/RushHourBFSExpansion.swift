// How `bfs` expands a state: every slide of every block worked out first, with no branch per
// slide, into a small buffer; then each candidate looked up in the window (RushHourBFSStates).
//
//   1. per block:  its line's byte  -> a table -> the positions it can reach (a bit each)
//                  minus the slides that need no lookup (the entering block's, the commuting ones)
//                  -> up to 7 candidate entries (key and tag) and boards, written as one vector
//                     each; the buffer's end moves on by how many there are
//   2. per candidate: insert in the window; written at the queue's end whether new or not, and
//                  the end moves on by one if it was new
//
// The board (the occupied cells) of every state in the queue is carried beside it (BoardRing):
// a successor's board is its parent's with one block moved, two xors, where building it from
// the key took a load per block. A column's cells come to one byte by a multiply, so one board
// serves rows and columns. The reach of a block is looked up in a table made once a process, by
// block length, line length, position and the line's byte: 2 KiB a kind of line.
//
// Which slides need no lookup (forEachSuccessor explains the first two, in
// RushHourGeometry+Successors): the entering block's, and, for blocks numbered below it, those
// that commute with its slide. A slide commutes when it crosses none of the cells the entering
// block swept, so those are the slides the block could make were the swept cells occupied: the
// reach on `board | swept` is taken out of the reach on `board`, and what is left crosses. Only
// blocks whose line the sweep touches can cross it.
//
// A third kind, bfs's alone: for a block B numbered above the entering block K, a slide that
// commutes with K's, unless the same slide of B gave the parent P a new state (a sibling).
//   S = K's slide from P (level L), S' = B's slide from S = K's slide from T, T = B's slide from P.
// (B's slide avoids the cells K left or passed, empty in S, and cannot enter K's cells, so it
// avoids K's whole span: P and S differ only there, so it is legal from P, and T differs from
// P only outside the span, so K's slide is legal from T and lands on S'.)
// What carries the proof: every skipped candidate is stored before S is expanded, in the
// search that looks everything up. By induction over the expansions, the search that skips
// then stores the same states in the same order with the same tags (its lookups are some of
// the other's, every new one among them), so the goal, the counts and the path are the same.
// S' is stored before S is expanded unless S is the first state, in queue order, to reach
// it; T reaches it too. If T is of level L-1 or below, S' is of level L at most: stored. If T
// was stored before S, it is expanded before S and reaches S' first. P hands over K's slides
// before B's, so T comes after S only if P queued it as new, after S: P's new states after S
// are the entries that follow S with the same parent (its family), which
// `BFSStates.markFamily` marks by block and position. So only the marked commuting slides of
// blocks above K are looked up, with those that cross.
// P queues its new states in block order, so the members of the family before S were entered
// by blocks numbered at most K, whose marks S never reads: one set of marks serves the family. It halves the lookups (181 million on the 45,616 database
// boards of 1,000 to 10,000 states, 95 million with it), which pays where the window is out of
// cache: I-4 1.77-1.99 ms a solve before, 1.67-1.72 with it; the database's clusters of 30,000
// states and more 521-529 µs before, 502-505. Where the window stays in cache, lookups were
// cheap hits, and the time is the same (82-83 µs a board on those 45,616, before and after):
// rush_18k 128-131 µs before, 127-128 with it; rush_every32 80-82, 80.
//
// Only some blocks are read at all. A state differs from its parent only in the cells its
// entering slide spans, so only the blocks whose line meets that span can slide otherwise than
// from the parent (`RushHourGeometry.spanBlocks`, one table entry a slide). The count of slides
// is the parent's, carried beside the board in the queue (BoardRing), plus, for those blocks,
// the difference between the two boards. Every other block's slides commute with the entering
// one: none is looked up below it, and above it only the marked ones. So an expansion reads
// those blocks and the marked ones above the entering block, where it read every block:
// rush_18k 123-126 µs a puzzle before, 114-115 with it; the database's boards of 1,000-10,000
// states 82, 78.
//
// Measured on rush_18k (mean a puzzle, `bench`, interleaved; the forEachSuccessor search took
// 172 µs): this expansion, with the reach computed from the line's byte by leading and trailing
// zeros, 157 µs; looked up, 139; blocks without a slide write nothing, 126; the table built per
// puzzle rather than once, 3% more. Tried and lost:
//   - boards built from the key at each expansion instead of carried: 154 µs against 140;
//   - the lookups of a state in one batch by the table, which grew first so its loop kept the
//     table in registers, its hits without a branch: 140 against 132;
//   - a branch-free insert (the slot after the filled ones written with the entry or with what
//     it held): 141 against 126; the lookup's hit, a compare and one well-predicted branch, is
//     cheaper than the reductions it needs;
//   - the window's buckets read once ahead of the lookups: 133 against 126;
//   - the window refilled without compares (its keys are distinct): 128 against 125;
//   - slots freed one by one at each level (tombstones in full buckets) instead of rebuilding:
//     184 µs, the table no longer a third full; rebuilt every other level: 139 against 128;
//     sized at each level for the next one as well: as fast, 0.6 bytes a state more. The
//     window's load is what the lookups pay: a fourth full is 124 µs at 16.1 bytes a state;
//     half full, 151.
//   - every block at once in SIMD lanes (line bytes, reach by leading and trailing zeros, the
//     reach on the swept board, 8 blocks a `SIMD8<UInt64>`): 88-89 µs a board against 82-83 on
//     the database's boards of 1,000 to 10,000 states; as long as this loop with its table
//     and its early exits (docs/benchmarks.md, issue 17's eighth increment).

/// The constants of one movable block that the expansion needs, in one 64-byte row.
@usableFromInline
struct ExpansionBlock: Sendable {
    /// `board >> lineShift` brings the line's first cell to bit 0.
    @usableFromInline var lineShift: UInt64
    /// The line's cells after that shift: a row's 8 bits, or a column's bit 0 of every byte.
    @usableFromInline var lineCells: UInt64
    /// Multiplying the line's cells by this brings them to the top byte, in order.
    @usableFromInline var gather: UInt64
    /// The block's own cells at position 0, along its line.
    @usableFromInline var ownBits: UInt64
    /// The line's cells on the board.
    @usableFromInline var lineMask: UInt64
    /// The line's off-board bits, set: they block like walls.
    @usableFromInline var edge: UInt64
    @usableFromInline var length: Int
    /// The block's cells at position 0, on the board.
    @usableFromInline var cellsAtZero: UInt64
    /// Bits between one position's cells and the next, as a shift: 1 along a row, 8 down a column.
    @usableFromInline var stepShift: UInt64
    /// Where this block's rows start in the reach table: `reach[offset + position * 256 + line]`.
    @usableFromInline var reachOffset: Int = 0

    init(_ line: BlockLine, cellsAtZero: UInt64, reachOffset: Int = 0) {
        self.reachOffset = reachOffset
        lineShift = line.isVertical ? line.shift / UInt64(RushHourGeometry.stride) : line.shift
        lineCells = line.isVertical ? 0x0101_0101_0101_0101 : 0xFF
        gather = line.isVertical ? 0x0102_0408_1020_4080 : 1 << 56
        lineMask = lineCells &<< lineShift
        ownBits = line.ownBits
        edge = line.edge
        length = line.length
        self.cellsAtZero = cellsAtZero
        stepShift = line.isVertical ? 3 : 0
    }

    /// The line's 8 cells on `board`, as a byte, first cell lowest.
    @inlinable @inline(__always)
    func line(on board: UInt64) -> Int {
        Int(truncatingIfNeeded: (((board &>> lineShift) & lineCells) &* gather) &>> 56)
    }

    /// The positions a block of this line, now at `position`, can slide to when the line's
    /// cells are `line`: a bit each. RushHourExpansion looks it up in a table made with this.
    func reach(line: UInt64, from position: Int) -> UInt64 {
        let here = UInt64(truncatingIfNeeded: position)
        let others = (line | edge) & ~(ownBits &<< here)
        let below = others & ((1 &<< here) &- 1)
        let lowest = UInt64(truncatingIfNeeded: 64 &- below.leadingZeroBitCount)
        let highest = here &+ UInt64(truncatingIfNeeded: (others &>> (here &+ UInt64(truncatingIfNeeded: length))).trailingZeroBitCount)
        return ((2 &<< highest) &- (1 &<< lowest)) & ~(1 &<< here)
    }
}

/// Where `expand` writes a state's candidates: room for every slide of 18 blocks, plus a
/// vector's worth past the last, since each block writes a whole vector.
@usableFromInline
struct CandidateBuffer: ~Copyable {
    @usableFromInline static let capacity = 18 * 7 + 8
    @usableFromInline let entries: UnsafeMutablePointer<UInt64>
    @usableFromInline let boards: UnsafeMutablePointer<UInt64>
    /// The new ones among them and their boards, as the search finds them.
    @usableFromInline let fresh: UnsafeMutablePointer<UInt64>
    @usableFromInline let freshBoards: UnsafeMutablePointer<UInt64>
    /// `siblings[b]`: the positions block b took in the new states that the parent of the
    /// state being expanded queued with it (`BFSStates.markFamily`), a bit each; else zero.
    @usableFromInline let siblings: UnsafeMutableRawPointer

    /// One allocation for all five, as a solve of a small puzzle pays for each.
    @inlinable
    init() {
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 4 * Self.capacity + 4)
        entries = words
        boards = words + Self.capacity
        fresh = words + 2 * Self.capacity
        freshBoards = words + 3 * Self.capacity
        siblings = UnsafeMutableRawPointer(words + 4 * Self.capacity)
        siblings.storeBytes(of: SIMD32<UInt8>(), as: SIMD32<UInt8>.self)
    }

    @inlinable deinit {
        entries.deallocate()
    }
}

/// The per-puzzle tables of the expansion, valid inside `RushHourGeometry.withExpansion`: the
/// move generator's (cells by position, spans), and the expansion's own.
@usableFromInline
struct RushHourExpansion {
    @usableFromInline let tables: RushHourTables
    @usableFromInline let blocks: UnsafeBufferPointer<ExpansionBlock>
    /// `RushHourGeometry.spanBlocks`.
    @usableFromInline let spanBlocks: UnsafeBufferPointer<UInt32>
    /// `reachTable[block.reachOffset + position * 256 + line]`: `ExpansionBlock.reach`, looked up.
    @usableFromInline let reachTable: UnsafeBufferPointer<UInt8>
    /// `targetLists[m]`: the set bits of `m` (a byte), lowest first, one byte each.
    @usableFromInline let targetLists: UnsafeBufferPointer<UInt64>

    @inlinable
    init(
        tables: RushHourTables, blocks: UnsafeBufferPointer<ExpansionBlock>, spanBlocks: UnsafeBufferPointer<UInt32>,
        reachTable: UnsafeBufferPointer<UInt8>, targetLists: UnsafeBufferPointer<UInt64>
    ) {
        self.tables = tables
        self.blocks = blocks
        self.spanBlocks = spanBlocks
        self.reachTable = reachTable
        self.targetLists = targetLists
    }

    /// Writes to `buffer` the successors of `entry` (whose cells are `board`) that need a
    /// lookup, in `forEachSuccessor`'s order, each as a table entry (the key, tagged with the
    /// slide that made it) and its board. Returns how many, and how many slides there are in all.
    /// `parentSlides` is that count for the entry's parent, and `markedBlocks` the blocks with
    /// sibling marks (`BFSStates.markFamily`), a bit each; the root reads neither.
    @inlinable @inline(__always)
    func expand(
        _ entry: UInt64, board: UInt64, parentSlides: Int, markedBlocks: UInt32, into buffer: borrowing CandidateBuffer
    ) -> (count: Int, examined: Int) {
        let key = entry & StateTable.keyMask
        let tag = RushHourGeometry.tag(of: entry)
        guard tag != RushHourGeometry.rootTag else { return expandRoot(key, board: board, into: buffer) }
        let entries = buffer.entries
        let boards = buffer.boards
        var count = 0
        let (entering, from) = RushHourGeometry.untag(tag)
        let position = RushHourGeometry.position(of: entering, in: key)
        let spanIndex = (entering &* RushHourGeometry.stride &+ min(from, position)) &* RushHourGeometry.stride &+ max(from, position)
        let sweep = tables.spans[spanIndex] & ~board
        let swept = board | sweep
        let parentBoard = board ^ tables.masks[entering &* RushHourGeometry.stride &+ position]
            ^ tables.masks[entering &* RushHourGeometry.stride &+ from]
        // Only the blocks whose line meets the entering slide's span can have other slides
        // here than in the parent; the others' count is the parent's, and their slides need a
        // lookup only if marked.
        let changed = spanBlocks[spanIndex]
        var examined = parentSlides
        var work = changed | markedBlocks & ~((2 &<< UInt32(truncatingIfNeeded: entering)) &- 1)
        while work != 0 {
            let block = work.trailingZeroBitCount
            work &= work &- 1
            let here = RushHourGeometry.position(of: block, in: key)
            let all = reach(block, on: board, from: here)
            let crosses = sweep & blocks[block].lineMask != 0
            if changed &>> UInt32(truncatingIfNeeded: block) & 1 != 0 {
                let before = reach(block, on: parentBoard, from: block == entering ? from : here)
                examined &+= all.nonzeroBitCount &- before.nonzeroBitCount
                if block < entering {
                    // For blocks below the entering one, only the slides that cross its sweep.
                    guard crosses else { continue }
                    let crossing = all & ~reach(block, on: swept, from: here)
                    if crossing != 0 { count = write(block, from: here, to: crossing, key, board, entries, boards, count) }
                    continue
                }
                if block == entering { continue }
            }
            // A slide that commutes with the entering one leads where the same slide from the
            // parent, then the entering slide, does: a new state only if that slide gave the
            // parent a new state after this one (a later sibling). Others cross, and are looked up.
            var targets = all & UInt64(buffer.siblings.load(fromByteOffset: block, as: UInt8.self))
            if crosses { targets |= all & ~reach(block, on: swept, from: here) }
            if targets != 0 { count = write(block, from: here, to: targets, key, board, entries, boards, count) }
        }
        return (count, examined)
    }

    /// The root has no entering slide: every slide of every block is looked up.
    @inlinable @inline(__always)
    func expandRoot(_ key: UInt64, board: UInt64, into buffer: borrowing CandidateBuffer) -> (count: Int, examined: Int) {
        var count = 0
        var examined = 0
        for block in 0..<blocks.count {
            let here = RushHourGeometry.position(of: block, in: key)
            let all = reach(block, on: board, from: here)
            examined &+= all.nonzeroBitCount
            if all != 0 { count = write(block, from: here, to: all, key, board, buffer.entries, buffer.boards, count) }
        }
        return (count, examined)
    }

    /// Writes one vector of candidates for `block` sliding from `position` to each position in
    /// `targets`, from `count` on, and returns where they end.
    @inlinable @inline(__always)
    func write(
        _ block: Int, from position: Int, to targets: UInt64, _ key: UInt64, _ board: UInt64,
        _ entriesOut: UnsafeMutablePointer<UInt64>, _ boardsOut: UnsafeMutablePointer<UInt64>, _ count: Int
    ) -> Int {
        let row = blocks[block]
        let shift = UInt64(truncatingIfNeeded: block &* RushHourGeometry.bitsPerBlock)
        let here = UInt64(truncatingIfNeeded: position)
        let tag = UInt64(RushHourGeometry.tag(block: block, from: position)) &<< UInt64(StateTable.keyBits)
        let base = (key &- (here &<< shift)) | tag
        let list = SIMD8<UInt64>(truncatingIfNeeded: unsafeBitCast(targetLists[Int(truncatingIfNeeded: targets)], to: SIMD8<UInt8>.self))
        let entries = SIMD8(repeating: base) &+ (list &<< SIMD8(repeating: shift))
        let without = board ^ tables.masks[block &* RushHourGeometry.stride &+ position]
        let boards = SIMD8(repeating: without) | (SIMD8(repeating: row.cellsAtZero) &<< (list &<< SIMD8(repeating: row.stepShift)))
        UnsafeMutableRawPointer(entriesOut + count).storeBytes(of: entries, as: SIMD8<UInt64>.self)
        UnsafeMutableRawPointer(boardsOut + count).storeBytes(of: boards, as: SIMD8<UInt64>.self)
        return count &+ targets.nonzeroBitCount
    }

    /// The positions `block`, now at `position`, can slide to on `board`: a bit each.
    @inlinable @inline(__always)
    func reach(_ block: Int, on board: UInt64, from position: Int) -> UInt64 {
        let row = blocks[block]
        return UInt64(reachTable[row.reachOffset &+ position &<< 8 &+ row.line(on: board)])
    }

    /// The slides examined up to and including `block`'s slide to `target`, when expanding
    /// `entry`: what `expand` counts, cut at a goal as `forEachSuccessor` stops there.
    @usableFromInline
    func examined(_ entry: UInt64, board: UInt64, through block: Int, to target: Int) -> Int {
        let key = entry & StateTable.keyMask
        var examined = 0
        for earlier in 0..<block {
            examined += reach(earlier, on: board, from: RushHourGeometry.position(of: earlier, in: key)).nonzeroBitCount
        }
        let reach = reach(block, on: board, from: RushHourGeometry.position(of: block, in: key))
        return examined + (reach & ((2 << UInt64(target)) - 1)).nonzeroBitCount
    }

    /// The cells `key` occupies, walls included.
    @inlinable @inline(__always)
    func board(of key: UInt64, walls: UInt64) -> UInt64 {
        var board = walls
        for block in 0..<blocks.count {
            board |= tables.masks[block &* RushHourGeometry.stride &+ RushHourGeometry.position(of: block, in: key)]
        }
        return board
    }
}

extension RushHourGeometry {
    /// The reach table: one 2 KiB part per kind of line (a block length and a line length, up
    /// to 8 each), at `reachOffset(length:lineLength:)`, filled from `ExpansionBlock.reach`. Built
    /// once a process: per puzzle it cost 3% of a database run.
    @usableFromInline static let reachTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 64 * 2048)
        for lineLength in 1...8 {
            for length in 1...lineLength {
                let line = BlockLine(length: length, lineLength: lineLength)
                let block = ExpansionBlock(line, cellsAtZero: 0)
                let offset = reachOffset(length: length, lineLength: lineLength)
                for position in 0...(lineLength - length) {
                    for cells in 0..<256 {
                        table[offset + position << 8 + cells] = UInt8(block.reach(line: UInt64(cells), from: position))
                    }
                }
            }
        }
        return table
    }()

    static func reachOffset(length: Int, lineLength: Int) -> Int {
        ((lineLength - 1) * 8 + length - 1) * 2048
    }

    /// `targetLists` of RushHourExpansion: for each set of positions, its members lowest first,
    /// a byte each. At most 7 members: a block is at least 1 long, on a line of at most 8.
    @usableFromInline static let targetLists: [UInt64] = (0..<256).map { set in
        var list: UInt64 = 0
        var byte: UInt64 = 0
        for member in 0..<8 where set >> member & 1 == 1 {
            list |= UInt64(member) << (8 * byte)
            byte += 1
        }
        return list
    }

    @inlinable
    func withExpansion<R>(_ body: (RushHourExpansion) -> R) -> R {
        withTables { tables in
            expansionBlocks.withUnsafeBufferPointer { blocks in
                spanBlocks.withUnsafeBufferPointer { spanBlocks in
                    Self.reachTable.withUnsafeBufferPointer { reach in
                        Self.targetLists.withUnsafeBufferPointer { lists in
                            body(RushHourExpansion(
                                tables: tables, blocks: blocks, spanBlocks: spanBlocks, reachTable: reach, targetLists: lists))
                        }
                    }
                }
            }
        }
    }
}
