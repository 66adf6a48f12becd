// `bfs` for tiles: breadth-first from the start until the goal is generated (optimal), or,
// with `exploreWholeCluster`, until every reachable state is known: the census of the 8-puzzle
// (181,440 states, 31 moves at most, two states that far) comes from this.

public struct TileBFSSolver: PuzzleSolver {
    public let name = "bfs"

    public init() {}

    public func solve(_ puzzle: TilePuzzle, options: SolveOptions) -> SolveResult {
        if let early = TileSolverChecks.early(puzzle, needsPacking: true) { return early }
        let geometry = TileGeometry(width: puzzle.width, height: puzzle.height)
        let goal = TileGeometry.pack(puzzle.goalTiles)
        var layers = TileLayers(geometry: geometry, start: TileGeometry.pack(puzzle.tiles))
        var statistics = SearchStatistics()
        statistics.countEnqueued(atLevel: 0)
        statistics.countExamined(atLevel: 0)
        var found = layers.start == goal
        var cutoff: CutoffReason?
        while !layers.frontier.isEmpty, !found || options.exploreWholeCluster {
            if options.isCancelled() { cutoff = options.stopReason; break }
            if layers.table.count > options.maxStates { cutoff = .maxStates; break }
            var added = 0
            var cancelled = false
            let (examined, _, overBudget) = layers.expandLayer(budgetBytes: options.memoryBudgetBytes) { state in
                added += 1
                if state == goal { found = true }
                // Within a level too: the 15-puzzle's levels take seconds, and a deadline or a
                // CPU limit checked only between them was passed by a second.
                if added % SolveOptions.cancellationInterval == 0, options.isCancelled() {
                    cancelled = true
                    return false
                }
                return true
            }
            if overBudget, !found { cutoff = .memoryBudget }
            if cancelled { cutoff = options.stopReason }
            statistics.countExamined(atLevel: layers.depth + 1, examined)
            if added > 0 { statistics.countEnqueued(atLevel: layers.depth + 1, added) }
            statistics.maxQueue = max(statistics.maxQueue, layers.next.count)
            layers.advance()
            if cutoff != nil { break }
        }
        statistics.levelReached = statistics.enqueuedPerLevel.count - 1
        statistics.finalQueue = layers.frontier.count
        statistics.statesStored = layers.table.count
        statistics.memoryBytes = layers.memoryBytes
        let explored = cutoff == nil && (layers.frontier.isEmpty || !found)
        if !found {
            var result = SolveResult(status: cutoff == nil ? .unsolvable : .cutoff, cutoffReason: cutoff, statistics: statistics)
            if cutoff == .memoryBudget {
                // The layer being generated when the budget ran out is partial: the one before is whole.
                result.reason = "every state up to depth \(layers.depth - 1) is known and none is the goal; depth \(layers.depth) passed the \(options.memoryBudgetBytes.bytes) memory budget"
            }
            return result
        }
        return SolveResult(
            status: .solved, solution: layers.path(to: goal), cluster: explored ? layers.table.count : nil, statistics: statistics)
    }
}
