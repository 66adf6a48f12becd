// `bfs` for tilt puzzles: breadth-first over board states until one where every colour is a
// single unit. Tilts are not reversible, so there is no bidirectional variant; the state
// spaces are small (thousands to a few million), so a dictionary of states is enough.

public struct TiltBFSSolver: PuzzleSolver {
    public let name = "bfs"

    public init() {}

    public func solve(_ puzzle: TiltPuzzle, options: SolveOptions) -> SolveResult {
        var statistics = SearchStatistics()
        var states = [puzzle.start]
        /// Each state's parent index and the tilt that made it.
        var parents: [(parent: Int, direction: TiltDirection?)] = [(-1, nil)]
        var index: [TiltState: Int] = [puzzle.start: 0]
        statistics.countEnqueued(atLevel: 0)
        var goal: Int? = puzzle.isSolved(puzzle.start) ? 0 : nil
        var layerStart = 0
        var depth = 0
        var cutoff: CutoffReason?
        while goal == nil, layerStart < states.count {
            let layerEnd = states.count
            depth += 1
            for position in layerStart..<layerEnd where goal == nil {
                if states.count > options.maxStates { cutoff = .maxStates; break }
                if position % SolveOptions.cancellationInterval == 0, options.isCancelled() { cutoff = .cancelled; break }
                // At every expansion, with room for its 4 tilts. Each state: its slot in the
                // states array, the parents array and the index, and its own heap array of
                // colour boards.
                let held = states.bytesHeld(afterAdding: 4) + parents.bytesHeld(afterAdding: 4)
                    + index.bytesHeld(afterAdding: 4, bytesPerEntry: MemoryLayout<TiltState>.stride + 8)
                    + (states.count + 4) * (32 + 8 * puzzle.colourNames.count)
                if options.overBudget(held) { cutoff = .memoryBudget; break }
                for direction in TiltDirection.allCases {
                    guard let next = puzzle.tilted(states[position], direction) else { continue }
                    statistics.countExamined(atLevel: depth)
                    guard index[next] == nil else { continue }
                    index[next] = states.count
                    states.append(next)
                    parents.append((position, direction))
                    statistics.countEnqueued(atLevel: depth)
                    if puzzle.isSolved(next) { goal = states.count - 1; break }
                }
            }
            if cutoff != nil { break }
            statistics.maxQueue = max(statistics.maxQueue, states.count - layerEnd)
            layerStart = layerEnd
        }
        statistics.levelReached = depth
        statistics.statesStored = states.count
        statistics.memoryBytes = states.count * (MemoryLayout<TiltState>.stride + 8 * (puzzle.colourNames.count + 1) + 24)
        guard let goal else {
            return SolveResult(status: cutoff == nil ? .unsolvable : .cutoff, cutoffReason: cutoff, cluster: cutoff == nil ? states.count : nil, statistics: statistics)
        }
        var moves: [SolutionMove] = []
        var current = goal
        while let direction = parents[current].direction {
            moves.append(SolutionMove(piece: direction.name, from: nil, to: nil, text: direction.name))
            current = parents[current].parent
        }
        return SolveResult(status: .solved, solution: moves.reversed(), statistics: statistics)
    }
}

public enum TiltSolvers {
    public static let all: [any PuzzleSolver<TiltPuzzle>] = [TiltBFSSolver()]
    public static let names = all.map(\.name)
    public static func named(_ name: String) -> (any PuzzleSolver<TiltPuzzle>)? { all.first { $0.name == name } }
}
