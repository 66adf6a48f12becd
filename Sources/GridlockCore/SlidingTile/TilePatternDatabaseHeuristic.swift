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

    /// The goal's tables: installed, loaded, or built here (6-6-3) and installed.
    public func database(for goal: TileGoal) -> TilePatternDatabase {
        if let database = installed.withLock({ $0[goal] }) { return database }
        let load = loader.withLock { $0 }
        let database = load?(goal) ?? TilePatternDatabase.build(goal: goal, partition: .sixSixThree)
        install(database)
        return database
    }
}

struct PatternDatabaseHeuristic: TileHeuristic {
    let tables: UnsafePointer<UInt8>
    let offsets: [Int]
    /// Per tile: its group (-1 for the blank) and the shift of its cell in the group's index.
    let groupOf: [Int]
    let shiftOf: [Int]
    var indexes: [Int]
    var total = 0

    init(database: TilePatternDatabase, tables: UnsafePointer<UInt8>) {
        self.tables = tables
        offsets = database.offsets
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
        indexes = [Int](repeating: 0, count: database.groups.count)
    }

    mutating func reset(_ tiles: UnsafePointer<UInt8>) -> Int {
        for group in indexes.indices { indexes[group] = 0 }
        for cell in 0..<16 where tiles[cell] != 0 {
            let tile = Int(tiles[cell])
            indexes[groupOf[tile]] |= cell << shiftOf[tile]
        }
        total = 0
        for group in indexes.indices { total += Int(tables[offsets[group] + indexes[group]]) }
        return total
    }

    @inline(__always)
    mutating func moved(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>) -> Int {
        let group = groupOf[tile]
        let base = offsets[group]
        let before = Int(tables[base + indexes[group]])
        indexes[group] += (to - from) << shiftOf[tile]
        total += Int(tables[base + indexes[group]]) - before
        return total
    }
}

/// `idastar-pdb`: IDA* with the 6-6-3 pattern databases, 4x4 boards only. Other sizes go to the
/// fastest IDA* measured for them, and say so in their result's reason: Manhattan distance up
/// to 3x3 (3x faster than linear conflict on 1,000 random 8-puzzles: the bound is cheap and the
/// searches short), linear conflict above.
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
            var result = TileIDAStar.run(
                puzzle, heuristic: PatternDatabaseHeuristic(database: database, tables: tables.baseAddress!), options: options)
            result.statistics.memoryBytes += database.byteCount
            return result
        }
    }
}
