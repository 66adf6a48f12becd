// IDA* (Korf, 1985): depth-first searches bounded by f = g + h, each bound the smallest f that
// exceeded the last one. Memory is the path only, so it reaches the 15-puzzle's 80 moves and
// any board size; the heuristic decides the speed:
//
//   idastar-md    Manhattan distance, Korf's original: node counts comparable with his 1985 table
//   idastar       Manhattan distance plus linear conflict
//   idastar-pdb   additive pattern databases, 4x4 only (TilePatternDatabase.swift)
//
// The board lives in one array changed in place (slide, recurse, slide back); successors skip
// the move that undoes the last one. Statistics: `examined` counts nodes generated and
// `enqueued` nodes expanded; per iteration, in `examinedPerLevel` and `enqueuedPerLevel`, with
// each iteration's bound in `bounds`.

public struct TileIDAStarSolver: PuzzleSolver {
    public enum Heuristic: String, Sendable {
        case manhattan = "idastar-md"
        case linearConflict = "idastar"
    }

    public let heuristic: Heuristic
    public var name: String { heuristic.rawValue }

    public init(heuristic: Heuristic) {
        self.heuristic = heuristic
    }

    public func solve(_ puzzle: TilePuzzle, options: SolveOptions) -> SolveResult {
        if let early = TileSolverChecks.early(puzzle, needsPacking: false) { return early }
        let distances = TileDistances(width: puzzle.width, goal: puzzle.goalTiles)
        switch heuristic {
        case .manhattan:
            return TileIDAStar.run(puzzle, heuristic: ManhattanHeuristic(distances: distances), options: options)
        case .linearConflict:
            return TileIDAStar.run(
                puzzle, heuristic: LinearConflictHeuristic(distances: distances, height: puzzle.height), options: options)
        }
    }
}

enum TileIDAStar {
    static func run<H: TileHeuristic>(_ puzzle: TilePuzzle, heuristic: H, options: SolveOptions) -> SolveResult {
        let geometry = TileGeometry(width: puzzle.width, height: puzzle.height)
        var search = TileIDAStarSearch(geometry: geometry, goal: puzzle.goalTiles, heuristic: heuristic, options: options)
        return puzzle.tiles.withUnsafeBufferPointer { start in search.run(start) }
    }
}

struct TileIDAStarSearch<H: TileHeuristic> {
    let geometry: TileGeometry
    let goal: [UInt8]
    var heuristic: H
    let options: SolveOptions
    var tiles: UnsafeMutablePointer<UInt8>
    /// The solution's slides, last first, once the goal is found.
    var path: [(tile: UInt8, from: Int, to: Int)] = []
    var bound = 0
    var nextBound = Int.max
    var generated = 0
    var expanded = 0
    var cutoff: CutoffReason?
    /// Each cell's neighbours, flattened: `neighbours[cell * 4 ..< cell * 4 + count[cell]]`.
    let neighbours: [Int]
    let neighbourCount: [Int]

    init(geometry: TileGeometry, goal: [UInt8], heuristic: H, options: SolveOptions) {
        self.geometry = geometry
        self.goal = goal
        self.heuristic = heuristic
        self.options = options
        tiles = .allocate(capacity: goal.count)
        var neighbours = [Int](repeating: 0, count: goal.count * 4)
        var counts = [Int](repeating: 0, count: goal.count)
        for cell in 0..<goal.count {
            for (index, move) in geometry.moves[cell].enumerated() { neighbours[cell * 4 + index] = move.tile }
            counts[cell] = geometry.moves[cell].count
        }
        self.neighbours = neighbours
        neighbourCount = counts
    }

    mutating func run(_ start: UnsafeBufferPointer<UInt8>) -> SolveResult {
        defer { tiles.deallocate() }
        tiles.initialize(from: start.baseAddress!, count: start.count)
        let blank = start.firstIndex(of: 0)!
        let h = heuristic.reset(tiles)
        bound = h
        var statistics = SearchStatistics()
        var bounds: [Int] = []
        while true {
            nextBound = Int.max
            let before = (generated, expanded)
            bounds.append(bound)
            let found = search(blank: blank, previous: -1, g: 0, h: h)
            statistics.examinedPerLevel.append(generated - before.0)
            statistics.enqueuedPerLevel.append(expanded - before.1)
            if found || cutoff != nil || nextBound == Int.max { break }
            bound = nextBound
        }
        statistics.examined = generated
        statistics.enqueued = expanded
        statistics.bounds = bounds
        statistics.levelReached = bound
        statistics.maxQueue = path.count
        // The board and one slide per level of the recursion, which reaches the last bound.
        statistics.memoryBytes = goal.count + (bound + 1) * MemoryLayout<(UInt8, Int, Int)>.stride
        if let cutoff { return SolveResult(status: .cutoff, cutoffReason: cutoff, statistics: statistics) }
        guard Array(UnsafeBufferPointer(start: tiles, count: goal.count)) == goal else {
            return SolveResult(status: .unsolvable, statistics: statistics)
        }
        let moves = path.reversed().map { step in
            let direction = TileSearchMoves.direction(from: step.from, to: step.to, width: geometry.width)
            return geometry.solutionMove(tileValue: step.tile, from: step.from, to: step.to, direction: direction)
        }
        return SolveResult(status: .solved, solution: moves, statistics: statistics)
    }

    /// True when the goal is found (the board is left at the goal, the path holds the moves).
    mutating func search(blank: Int, previous: Int, g: Int, h: Int) -> Bool {
        let f = g + h
        if f > bound {
            if f < nextBound { nextBound = f }
            return false
        }
        if h == 0, isGoal() { return true }
        expanded &+= 1
        if expanded & 0xFFFF == 0 {
            if options.isCancelled() { cutoff = options.stopReason }
            if expanded > options.maxStates { cutoff = .maxStates }
            if cutoff != nil { return false }
        }
        for index in 0..<neighbourCount[blank] {
            let from = neighbours[blank * 4 + index]
            guard from != previous else { continue }
            generated &+= 1
            let tile = tiles[from]
            tiles[blank] = tile
            tiles[from] = 0
            let saved = heuristic.saved
            let childH = heuristic.moved(Int(tile), from: from, to: blank, tiles)
            if search(blank: from, previous: blank, g: g + 1, h: childH) {
                // The path is written only on the way back from the goal, last move first: kept
                // up to date at every node, the array's uniqueness check cost 3% of a search.
                path.append((tile, from, blank))
                return true
            }
            tiles[from] = tile
            tiles[blank] = 0
            heuristic.undo(Int(tile), from: from, to: blank, tiles, saved: saved)
            if cutoff != nil { return false }
        }
        return false
    }

    func isGoal() -> Bool {
        for cell in 0..<goal.count where tiles[cell] != goal[cell] { return false }
        return true
    }
}

enum TileSearchMoves {
    /// The direction of a slide between neighbouring cells.
    static func direction(from: Int, to: Int, width: Int) -> TileDirection {
        switch to - from {
        case -width: .up
        case width: .down
        case -1: .left
        default: .right
        }
    }
}
