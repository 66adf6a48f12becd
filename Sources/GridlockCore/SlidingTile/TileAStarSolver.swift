// `astar` for tiles: best-first on f = g + h with Manhattan distance plus linear conflict.
//
//   open     one stack of (state, g) per f value: integer costs make a bucket queue exact
//            and O(1), and a stack prefers the deepest entries of a bucket
//   best     each state's best g so far and the direction of its last slide (the parent link)
//
// Linear conflict can fall by 3 in one move (one Manhattan step and one conflict of 2), so it
// is not consistent: a state can be reached again more cheaply after it was expanded. It is
// then reopened; entries in the open stacks whose g is worse than the best are skipped. The
// answer stays optimal because the heuristic is admissible.

public struct TileAStarSolver: PuzzleSolver {
    public let name = "astar"

    public init() {}

    public func solve(_ puzzle: TilePuzzle, options: SolveOptions) -> SolveResult {
        if let early = TileSolverChecks.early(puzzle, needsPacking: true) { return early }
        let geometry = TileGeometry(width: puzzle.width, height: puzzle.height)
        let start = TileGeometry.pack(puzzle.tiles), goal = TileGeometry.pack(puzzle.goalTiles)
        var heuristic = LinearConflictHeuristic(
            distances: TileDistances(width: puzzle.width, goal: puzzle.goalTiles), height: puzzle.height)
        let tiles = UnsafeMutablePointer<UInt8>.allocate(capacity: puzzle.cellCount)
        defer { tiles.deallocate() }
        tiles.initialize(from: puzzle.tiles, count: puzzle.cellCount)
        var open: [[(state: UInt64, g: UInt8)]] = []
        func push(_ state: UInt64, g: Int, f: Int) {
            while open.count <= f { open.append([]) }
            open[f].append((state, UInt8(g)))
        }
        /// g in the low byte, the direction of the last slide in the next.
        var best: [UInt64: UInt16] = [start: 0]
        push(start, g: 0, f: heuristic.reset(tiles))
        var statistics = SearchStatistics()
        var openCount = 1
        var cutoff: CutoffReason?
        var bucket = 0
        var found = false
        search: while bucket < open.count {
            guard let (state, g) = open[bucket].popLast() else {
                bucket += 1
                continue
            }
            openCount -= 1
            guard let known = best[state], UInt8(known & 0xFF) == g else { continue }
            if state == goal { found = true; break }
            statistics.enqueued += 1
            if statistics.enqueued & 0x3FFF == 0 {
                if options.isCancelled() { cutoff = options.stopReason; break search }
                if best.count > options.maxStates { cutoff = .maxStates; break search }
                if best.count * 40 > options.memoryBudgetBytes { cutoff = .memoryBudget; break search }
            }
            for cell in 0..<puzzle.cellCount { tiles[cell] = UInt8((state >> UInt64(4 * cell)) & 15) }
            let h = heuristic.reset(tiles)
            let blank = TileGeometry.blank(of: state)
            for move in geometry.moves[blank] {
                statistics.examined += 1
                let child = TileGeometry.slide(state, tile: move.tile, blank: blank)
                let childG = Int(g) + 1
                if let known = best[child], Int(known & 0xFF) <= childG { continue }
                let tile = tiles[move.tile]
                tiles[blank] = tile
                tiles[move.tile] = 0
                let childH = heuristic.moved(Int(tile), from: move.tile, to: blank, tiles)
                tiles[move.tile] = tile
                tiles[blank] = 0
                _ = heuristic.moved(Int(tile), from: blank, to: move.tile, tiles)
                best[child] = UInt16(childG) | UInt16(move.direction.rawValue) << 8
                push(child, g: childG, f: childG + childH)
                openCount += 1
                statistics.maxQueue = max(statistics.maxQueue, openCount)
                // A child's f is never below its parent's minus 2 (see above): step back to it.
                bucket = min(bucket, childG + childH)
            }
            _ = h
        }
        statistics.statesStored = best.count
        statistics.finalQueue = openCount
        statistics.levelReached = bucket
        // A dictionary entry costs its key, value and hash-table slack; the open stacks 16 bytes.
        statistics.memoryBytes = best.capacity * 10 + open.reduce(0) { $0 + $1.capacity * 16 }
        guard found else {
            return SolveResult(status: cutoff == nil ? .unsolvable : .cutoff, cutoffReason: cutoff, statistics: statistics)
        }
        let moves = geometry.path(from: start, to: goal) { TileDirection(rawValue: UInt8(best[$0]! >> 8))! }
        return SolveResult(status: .solved, solution: moves, statistics: statistics)
    }
}
