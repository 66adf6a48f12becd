// `bidirectional` for tiles: breadth-first from the start and from the goal at once, always
// expanding the smaller frontier by a whole layer, until a state generated on one side is
// already known to the other.
//
// Why the first meeting is optimal: before a layer is expanded, every state within F moves of
// the start and B of the goal is known, and none is on both sides, so no path is shorter than
// F + B + 1. A meeting while expanding (say) the forward layer F joins F + 1 and some depth
// b <= B behind it; b < B would make a path shorter than that bound, so b = B and the length
// is exactly F + B + 1.
//
// On the 15-puzzle each side stores about 2.13^(d/2) states for a d-move solution: ~8 million
// for 40 moves, ~350 million for 50. The memory budget (a quarter of the available memory unless given) stops the search
// with `cutoff`, reason `memory-budget`, before the tables outgrow it, rather than swap.

public struct TileBidirectionalSolver: PuzzleSolver {
    public let name = "bidirectional"

    public init() {}

    public func solve(_ puzzle: TilePuzzle, options: SolveOptions) -> SolveResult {
        if let early = TileSolverChecks.early(puzzle, needsPacking: true) { return early }
        let geometry = TileGeometry(width: puzzle.width, height: puzzle.height)
        let start = TileGeometry.pack(puzzle.tiles), goal = TileGeometry.pack(puzzle.goalTiles)
        var forward = TileLayers(geometry: geometry, start: start)
        var backward = TileLayers(geometry: geometry, start: goal)
        var statistics = SearchStatistics()
        statistics.countExamined(atLevel: 0)
        statistics.countEnqueued(atLevel: 0, start == goal ? 1 : 2)
        var meeting: UInt64? = start == goal ? start : nil
        var cutoff: CutoffReason?
        while meeting == nil, !forward.frontier.isEmpty, !backward.frontier.isEmpty {
            if options.isCancelled() { cutoff = options.stopReason; break }
            let expandForward = forward.frontier.count <= backward.frontier.count
            var added = 0
            var cancelled = false
            let (examined, overBudget) = expandForward
                ? Self.expand(&forward, meeting: &meeting, cancelled: &cancelled, added: &added, other: backward, options: options)
                : Self.expand(&backward, meeting: &meeting, cancelled: &cancelled, added: &added, other: forward, options: options)
            if cancelled, meeting == nil { cutoff = options.stopReason }
            if overBudget, meeting == nil { cutoff = .memoryBudget }
            if forward.table.count + backward.table.count > options.maxStates, meeting == nil { cutoff = .maxStates }
            let level = forward.depth + backward.depth
            statistics.countExamined(atLevel: level, examined)
            statistics.countEnqueued(atLevel: level, added)
            statistics.maxQueue = max(statistics.maxQueue, forward.frontier.count + backward.frontier.count)
            if cutoff != nil { break }
            if forward.depth > 60 || backward.depth > 60 { cutoff = .maxStates; break }
        }
        statistics.levelReached = forward.depth + backward.depth
        statistics.finalQueue = forward.frontier.count + backward.frontier.count
        statistics.statesStored = forward.table.count + backward.table.count
        statistics.memoryBytes = forward.memoryBytes + backward.memoryBytes
        guard let meeting else {
            var result = SolveResult(status: cutoff == nil ? .unsolvable : .cutoff, cutoffReason: cutoff, statistics: statistics)
            if cutoff == .memoryBudget {
                result.reason = "the two searches reached depths \(forward.depth) and \(backward.depth) within the \(options.memoryBudgetBytes.bytes) memory budget"
            }
            return result
        }
        let toGoal = backward.path(to: meeting).reversed().map { move in
            geometry.solutionMove(
                tileValue: UInt8(move.piece)!, from: geometry.cellIndex(move.to!), to: geometry.cellIndex(move.from!),
                direction: TileSearchMoves.direction(from: geometry.cellIndex(move.to!), to: geometry.cellIndex(move.from!), width: geometry.width))
        }
        return SolveResult(status: .solved, solution: forward.path(to: meeting) + toGoal, statistics: statistics)
    }
}

extension TileBidirectionalSolver {
    /// Expands one side's layer, watching for states the other side knows, and for a stop
    /// request within the layer too: a 15-puzzle's deeper layers take seconds each, and a
    /// check between layers only let a 50 ms CPU limit run 63 ms.
    static func expand(
        _ side: inout TileLayers, meeting: inout UInt64?, cancelled: inout Bool, added: inout Int, other: borrowing TileLayers,
        options: SolveOptions
    ) -> (examined: Int, overBudget: Bool) {
        let (examined, _, overBudget) = side.expandLayer(budgetBytes: options.memoryBudgetBytes - other.memoryBytes) { state in
            added += 1
            if other.table.contains(other.key(state)) { meeting = state; return false }
            if added % SolveOptions.cancellationInterval == 0, options.isCancelled() { cancelled = true; return false }
            return true
        }
        side.advance()
        return (examined, overBudget)
    }
}

extension TileGeometry {
    func cellIndex(_ cell: BoardCell) -> Int { cell.row * width + cell.column }
}
