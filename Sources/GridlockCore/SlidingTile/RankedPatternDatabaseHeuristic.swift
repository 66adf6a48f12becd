// The 7-8 tables as an IDA* bound, with the turned lookup (PatternDatabaseHeuristic's header):
// the larger of the tables' sums for the board and for the board turned about its diagonal.
//
// A ranked index cannot be moved by adding to it, as the sparse one is: after a slide, the moved
// tile's group is ranked again from its tiles' cells, on the board and on the turned board. The
// state saved for an undo is every tile's cell and each group's entry, four words.
//
// Korf's 100: 3.8 million nodes against 6-6-3's 119.5 million, 0.75 s against 2.3 s. A node
// costs ten times as much (5 million a second): its two reads of a 550 MiB table nearly always
// miss the cache, where 6-6-3's 16 MiB tables mostly hit.

struct RankedPatternDatabaseHeuristic: TileHeuristic {
    let tables: UnsafePointer<UInt8>
    let offsets: [Int]
    let groupCount: Int
    /// Per tile: its group on the board, and the group its turned self belongs to on the turned
    /// board (-1 for the blank).
    let groupOf: [Int]
    let turnedGroupOf: [Int]
    /// Per group, 8 slots: its tiles in index order (-1 past its size); on the turned board,
    /// the tiles (of this board) whose turned selves are the group's, in the same order.
    let members: [Int]
    let turnedMembers: [Int]
    let sizes: [Int]
    let turnedCell: [Int]

    struct State {
        /// Each tile's cell.
        var cells = Bytes16()
        /// Each group's entry: the board's in bytes 0..<4, the turned board's in 4..<8.
        var entries = Bytes16()
        var total = 0
        var turnedTotal = 0
    }

    /// Sixteen bytes inline, read and written in place (a copy out first cost 60% on the sparse
    /// heuristic's tuple).
    struct Bytes16 {
        private var words: (UInt64, UInt64) = (0, 0)

        subscript(index: Int) -> Int {
            @inline(__always) mutating get {
                Int(withUnsafeMutableBytes(of: &words) { $0[index] })
            }
            @inline(__always) set {
                withUnsafeMutableBytes(of: &words) { $0[index] = UInt8(truncatingIfNeeded: newValue) }
            }
        }
    }

    var state = State()

    init(database: TilePatternDatabase, tables: UnsafePointer<UInt8>) {
        precondition(database.partition.isRanked && database.groups.count <= 4 && database.groups.allSatisfy { $0.count <= 8 })
        self.tables = tables
        offsets = database.offsets
        groupCount = database.groups.count
        var groupOf = [Int](repeating: -1, count: 16)
        var members = [Int](repeating: -1, count: 32)
        for (group, tiles) in database.groups.enumerated() {
            for (slot, tile) in tiles.enumerated() {
                groupOf[Int(tile)] = group
                members[group * 8 + slot] = Int(tile)
            }
        }
        turnedCell = PatternDatabaseHeuristic.turnedCells
        let goal = database.goal.tiles(cells: 16)
        var turnedTile = [Int](repeating: 0, count: 16)
        for cell in 0..<16 { turnedTile[Int(goal[cell])] = Int(goal[turnedCell[cell]]) }
        precondition(turnedTile[0] == 0, "the goal's blank is on the main diagonal")
        // Turning twice gives the board back: the tile whose turned self is t is turnedTile[t].
        self.turnedMembers = members.map { $0 < 0 ? -1 : turnedTile[$0] }
        self.turnedGroupOf = (0..<16).map { $0 == 0 ? -1 : groupOf[turnedTile[$0]] }
        self.groupOf = groupOf
        self.members = members
        sizes = database.groups.map(\.count)
    }

    /// The rank of group `group` on the board (`turned` false) or the turned board.
    @inline(__always)
    mutating func rank(_ group: Int, turned: Bool) -> Int {
        var taken: UInt32 = 0
        var rank = 0
        for slot in 0..<sizes[group] {
            let cell: Int
            if turned {
                cell = turnedCell[state.cells[turnedMembers[group * 8 + slot]]]
            } else {
                cell = state.cells[members[group * 8 + slot]]
            }
            let below = taken & ((1 << UInt32(cell)) &- 1)
            rank = rank &* (16 - slot) &+ cell &- below.nonzeroBitCount
            taken |= 1 << UInt32(cell)
        }
        return rank
    }

    mutating func reset(_ tiles: UnsafePointer<UInt8>) -> Int {
        state = State()
        for cell in 0..<16 { state.cells[Int(tiles[cell])] = cell }
        for group in 0..<groupCount {
            let entry = Int(tables[offsets[group] + rank(group, turned: false)])
            let turnedEntry = Int(tables[offsets[group] + rank(group, turned: true)])
            state.entries[group] = entry
            state.entries[4 + group] = turnedEntry
            state.total += entry
            state.turnedTotal += turnedEntry
        }
        return max(state.total, state.turnedTotal)
    }

    @inline(__always)
    mutating func moved(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>) -> Int {
        state.cells[tile] = to
        let group = groupOf[tile]
        let entry = Int(tables[offsets[group] + rank(group, turned: false)])
        state.total += entry - state.entries[group]
        state.entries[group] = entry
        let turnedGroup = turnedGroupOf[tile]
        let turnedEntry = Int(tables[offsets[turnedGroup] + rank(turnedGroup, turned: true)])
        state.turnedTotal += turnedEntry - state.entries[4 + turnedGroup]
        state.entries[4 + turnedGroup] = turnedEntry
        return max(state.total, state.turnedTotal)
    }

    var saved: State { state }

    @inline(__always)
    mutating func undo(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>, saved: State) {
        state = saved
    }
}
