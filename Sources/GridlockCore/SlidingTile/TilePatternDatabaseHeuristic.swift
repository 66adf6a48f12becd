// The pattern databases as an IDA* heuristic, and where solvers find them.
//
// Each group's index is kept up to date: a slide changes one tile's cell, so one group's index
// moves by (to - from) << 4*slot and one table is read again.
//
// `TilePatternDatabases.shared` holds the tables of each goal once loaded; the command line
// sets `load` to read them from its cache file (building and saving them the first time), so
// the core itself opens no file. Without a loader, a solve builds them in memory.

import Synchronization

public final class TilePatternDatabases: Sendable {
    public static let shared = TilePatternDatabases()

    private let installed = Mutex<[TileGoal: TilePatternDatabase]>([:])
    private let loader = Mutex<(@Sendable (TileGoal) -> TilePatternDatabase?)?>(nil)

    public func install(_ database: TilePatternDatabase) {
        installed.withLock { $0[database.goal] = database }
    }

    /// How to get a goal's tables when none is installed (the CLI's cache).
    public func setLoader(_ load: @escaping @Sendable (TileGoal) -> TilePatternDatabase?) {
        loader.withLock { $0 = load }
    }

    /// Whether the goal's tables are in this process already: a solve that needs them then
    /// has no setup to do.
    public func isInstalled(_ goal: TileGoal) -> Bool {
        installed.withLock { $0[goal] != nil }
    }

    /// The goal's tables: installed, loaded, or built here (6-6-3) and installed.
    public func database(for goal: TileGoal) -> TilePatternDatabase {
        if let database = installed.withLock({ $0[goal] }) { return database }
        let load = loader.withLock { $0 }
        let database = load?(goal) ?? TilePatternDatabase.build(goal: goal, partition: .sixSixThree)
        install(database)
        return database
    }
}

/// The tables' bound, and the same tables' bound on the board turned about its main diagonal
/// (Korf and Felner, 2002): the larger of the two.
///
/// Turned about the diagonal, cell (row, column) becomes (column, row), and each tile takes the
/// number of the tile whose goal cell is its own goal cell turned. Both goals turn into
/// themselves (the blank's corner is on the diagonal), and every move of the board is a move
/// of the turned board, so the turned board is exactly as far from the goal: the tables bound
/// it as well, though its tiles fall into other groups. On Korf's 100 with 6-6-3 the larger
/// bound took the nodes generated from 446 million to 119.5 million, for a second table read
/// per node: 7.6 s to 3.3 s, and to 2.2 s once an undo put the saved state back instead of
/// reading the tables again and the state lived in a tuple (docs/benchmarks.md).
struct PatternDatabaseHeuristic: TileHeuristic {
    let tables: UnsafePointer<UInt8>
    let offsets: [Int]
    /// Per tile: its group (-1 for the blank) and the shift of its cell in the group's index.
    let groupOf: [Int]
    let shiftOf: [Int]
    /// Per tile, its number on the turned board; per cell, the cell it turns to.
    let turnedTile: [Int]
    let turnedCell: [Int]
    let groupCount: Int

    /// Each group's index on the board and on the turned board, and the two sums: a few words,
    /// saved before a slide and put back after it, so that an undo reads no table.
    /// (A tuple read through a pointer: a SIMD4 written at a lane picked at run time was read
    /// back whole, and every such read stalled on the write before it, a third of the time.)
    struct State {
        var indexes = GroupIndexes()
        var turnedIndexes = GroupIndexes()
        var total = 0
        var turnedTotal = 0
    }

    /// Up to four groups' indexes, kept inline so that saving them copies four words. (Read in
    /// place: a getter that is not mutating copied the four words out first, 60% slower.)
    struct GroupIndexes {
        private var words: (Int, Int, Int, Int) = (0, 0, 0, 0)

        subscript(group: Int) -> Int {
            @inline(__always) mutating get {
                withUnsafeMutableBytes(of: &words) { $0.load(fromByteOffset: group * 8, as: Int.self) }
            }
            @inline(__always) set {
                withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: newValue, toByteOffset: group * 8, as: Int.self) }
            }
        }
    }

    var state = State()

    init(database: TilePatternDatabase, tables: UnsafePointer<UInt8>) {
        precondition(database.groups.count <= 4, "at most four groups")
        self.tables = tables
        offsets = database.offsets
        groupCount = database.groups.count
        var groupOf = [Int](repeating: -1, count: 16)
        var shiftOf = [Int](repeating: 0, count: 16)
        for (group, tiles) in database.groups.enumerated() {
            for (slot, tile) in tiles.enumerated() {
                groupOf[Int(tile)] = group
                shiftOf[Int(tile)] = 4 * slot
            }
        }
        self.groupOf = groupOf
        self.shiftOf = shiftOf
        turnedCell = Self.turnedCells
        let goal = database.goal.tiles(cells: 16)
        var turnedTile = [Int](repeating: 0, count: 16)
        for cell in 0..<16 { turnedTile[Int(goal[cell])] = Int(goal[turnedCell[cell]]) }
        precondition(turnedTile[0] == 0, "the goal's blank is on the main diagonal")
        self.turnedTile = turnedTile
    }

    /// Cell (row, column) of the 4x4 board turned about its main diagonal: (column, row).
    static let turnedCells = (0..<16).map { ($0 % 4) * 4 + $0 / 4 }

    mutating func reset(_ tiles: UnsafePointer<UInt8>) -> Int {
        state = State()
        for cell in 0..<16 where tiles[cell] != 0 {
            let tile = Int(tiles[cell])
            state.indexes[groupOf[tile]] |= cell << shiftOf[tile]
            let turned = turnedTile[tile]
            state.turnedIndexes[groupOf[turned]] |= turnedCell[cell] << shiftOf[turned]
        }
        for group in 0..<groupCount {
            state.total += Int(tables[offsets[group] + state.indexes[group]])
            state.turnedTotal += Int(tables[offsets[group] + state.turnedIndexes[group]])
        }
        return max(state.total, state.turnedTotal)
    }

    /// Both bounds at every board. (Reading the turned board's only when the board's own bound
    /// did not already prune it was tried: 4% slower, its branch hard to foretell.)
    @inline(__always)
    mutating func moved(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>) -> Int {
        let group = groupOf[tile]
        let base = offsets[group]
        let before = Int(tables[base + state.indexes[group]])
        state.indexes[group] += (to - from) << shiftOf[tile]
        state.total += Int(tables[base + state.indexes[group]]) - before
        let turned = turnedTile[tile]
        let turnedGroup = groupOf[turned]
        let turnedBase = offsets[turnedGroup]
        let turnedBefore = Int(tables[turnedBase + state.turnedIndexes[turnedGroup]])
        state.turnedIndexes[turnedGroup] += (turnedCell[to] - turnedCell[from]) << shiftOf[turned]
        state.turnedTotal += Int(tables[turnedBase + state.turnedIndexes[turnedGroup]]) - turnedBefore
        return max(state.total, state.turnedTotal)
    }

    var saved: State { state }

    @inline(__always)
    mutating func undo(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>, saved: State) {
        state = saved
    }
}

/// `idastar-pdb`: IDA* with the 7-8 pattern databases where they are built, else 6-6-3; 4x4
/// boards only. Other sizes go to the fastest IDA* measured for them, and say so in their
/// result's reason: Manhattan distance up to 3x3 (3x faster than linear conflict on 1,000
/// random 8-puzzles: the bound is cheap and the searches short), linear conflict above.
public struct TilePatternDatabaseSolver: PuzzleSolver {
    public let name = "idastar-pdb"

    public init() {}

    public func solve(_ puzzle: TilePuzzle, options: SolveOptions) -> SolveResult {
        guard puzzle.width == 4, puzzle.height == 4 else {
            let fallback = TileIDAStarSolver(heuristic: puzzle.cellCount <= 9 ? .manhattan : .linearConflict)
            var result = fallback.solve(puzzle, options: options)
            result.reason = result.reason ?? "pattern databases are for 4x4 boards: solved by \(fallback.name)"
            result.solvedBy = fallback.name
            return result
        }
        if let early = TileSolverChecks.early(puzzle, needsPacking: false) { return early }
        let database = TilePatternDatabases.shared.database(for: puzzle.goal)
        return database.storage.withUnsafeBufferPointer { tables in
            var result = database.partition.isRanked
                ? TileIDAStar.run(puzzle, heuristic: RankedPatternDatabaseHeuristic(database: database, tables: tables.baseAddress!), options: options)
                : TileIDAStar.run(puzzle, heuristic: PatternDatabaseHeuristic(database: database, tables: tables.baseAddress!), options: options)
            result.statistics.memoryBytes += database.byteCount
            return result
        }
    }
}
