// Each kind's explorer for the analysis: Rush Hour on its bitboard keys and move generator,
// tiles on packed states (boards up to 16 cells), tilt boards on their per-colour bitboards.
// Sudoku has no move graph and is not analysed.

extension StateSpaceAnalysis {
    /// Analyses everything reachable from the puzzle, or says why it cannot.
    public static func analyze(
        _ puzzle: ParsedPuzzle, maxStates: Int, memoryBudgetBytes: Int = SolveOptions.defaultMemoryBudgetBytes,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) -> Result<StateSpaceAnalysis, AnalysisRefusal> {
        let limits = ExplorationLimits(maxStates: maxStates, memoryBudgetBytes: memoryBudgetBytes, isCancelled: isCancelled)
        let graph: Result<StateGraph, AnalysisRefusal>
        if let rushHour = puzzle.rushHour {
            graph = rushHourGraph(RushHourGeometry(rushHour), limits: limits)
        } else if let tiles = puzzle.tiles {
            guard tiles.cellCount <= TilePuzzle.maximumPackedCells else { return .failure(.tooLarge) }
            // Exactly half the arrangements of a board's tiles are reachable: refused at once
            // when that is past the limit (a 15-puzzle's 10^13), not after gigabytes.
            let reachable = tiles.cellCount.halfFactorial
            guard reachable <= maxStates else { return .failure(.overLimitKnown(maxStates, reachable: reachable)) }
            let geometry = TileGeometry(width: tiles.width, height: tiles.height)
            let goal = TileGeometry.pack(tiles.goalTiles)
            graph = StateGraph.explore(start: TileGeometry.pack(tiles.tiles), isGoal: { $0 == goal }, limits: limits) { state, sink in
                let blank = TileGeometry.blank(of: state)
                for move in geometry.moves[blank] { sink(TileGeometry.slide(state, tile: move.tile, blank: blank)) }
            }
        } else if let tilt = puzzle.tilt {
            graph = StateGraph.explore(start: tilt.start, isGoal: tilt.isSolved, limits: limits, heapBytes: 32 + 8 * tilt.colourNames.count) { state in
                TiltDirection.allCases.compactMap { tilt.tilted(state, $0) }
            }
        } else {
            return .failure(.noMoveGraph)
        }
        return graph.map(of)
    }
}

extension Int {
    /// n!/2, or Int.max when that does not fit.
    var halfFactorial: Int {
        var product = 1
        for factor in Swift.stride(from: 3, through: self, by: 1) {
            let (next, overflow) = product.multipliedReportingOverflow(by: factor)
            if overflow { return .max }
            product = next
        }
        return self >= 2 ? product : 1
    }
}

extension StateSpaceAnalysis {
    /// A Rush Hour cluster as a graph, or why not (past a limit).
    static func rushHourGraph(_ geometry: RushHourGeometry, limits: ExplorationLimits) -> Result<StateGraph, AnalysisRefusal> {
        geometry.withTables { tables in
            var builder = RushHourGraphBuilder(start: geometry.startKey)
            var position = 0
            var goals: [Bool] = []
            while position < builder.keys.count {
                if position % SolveOptions.cancellationInterval == 0 {
                    let margin = ExplorationLimits.margin
                    let bytes = builder.map.bytesHeld(afterAdding: margin) + StateGraph.bytesHeld(
                        offsets: builder.offsets, targets: builder.targets, goals: goals, depths: builder.depths, keys: builder.keys, adding: margin)
                    if let refusal = limits.refusal(states: builder.keys.count, bytes: bytes) { return .failure(refusal) }
                }
                if builder.keys.count > limits.maxStates { return .failure(.overLimit(limits.maxStates)) }
                let key = builder.keys[position]
                goals.append(geometry.isGoal(key))
                builder.depth = builder.depths[position] + 1
                _ = tables.forEachSuccessor(of: key, &builder)
                builder.offsets.append(Int32(builder.targets.count))
                position += 1
            }
            return .success(builder.graph(goals: goals))
        }
    }
}

/// Builds a cluster's graph as the move generator hands it successors. A struct visitor rather
/// than a closure: the closure's captured arrays were boxed, and exploring ran at 1.6M states/s.
/// Every slide is an edge, so no slide is skipped (`entering` is `.none`).
struct RushHourGraphBuilder: SuccessorVisitor, ~Copyable {
    var map = KeyIndexMap()
    var keys: [UInt64]
    var depths: [Int32] = [0]
    var offsets: [Int32] = [0]
    var targets: [Int32] = []
    /// The depth of the states the current expansion discovers.
    var depth: Int32 = 0
    var entering: EnteringSlide { .none }

    init(start: UInt64) {
        keys = [start]
        _ = map.index(of: start, orInsert: 0)
    }

    @inline(__always)
    mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool {
        let (index, isNew) = map.index(of: successor, orInsert: Int32(keys.count))
        if isNew {
            keys.append(successor)
            depths.append(depth)
        }
        targets.append(index)
        return true
    }

    mutating func skipKnown(_ count: Int) {}

    consuming func graph(goals: [Bool]) -> StateGraph {
        StateGraph(reversibleOffsets: offsets, targets: targets, goals: goals, depths: depths, keys: keys)
    }
}

public enum AnalysisRefusal: Error, Sendable, CustomStringConvertible {
    case noMoveGraph
    case tooLarge
    case overLimit(Int)
    /// Known before exploring: the board's reachable count, past the limit.
    case overLimitKnown(Int, reachable: Int)
    /// The exploration's tables would pass the budget, with this many states found.
    case overBudget(Int, states: Int)
    /// The caller's time limit passed, with this many states found.
    case timedOut(states: Int)

    public var description: String {
        switch self {
        case .noMoveGraph: "this kind has no moves between positions to analyse (Sudoku)"
        case .tooLarge: "tile boards of more than 16 cells are too large to explore whole"
        case .overLimit(let limit): "more than \(limit) states are reachable: raise --max-states to analyse it whole"
        case .overLimitKnown(let limit, let reachable):
            "\(reachable == .max ? "more than \(Int.max)" : "\(reachable)") states are reachable (half the arrangements of its tiles), more than --max-states \(limit): refused before exploring"
        case .timedOut(let states): "the time limit passed after \(states) states: raise --timeout to analyse it whole"
        case .overBudget(let budget, let states):
            "its tables would pass the memory budget of \(budget / (1 << 20)) MiB after \(states) states: raise --memory-budget to analyse it whole"
        }
    }
}

/// Hands every successor to a closure, for the analysis (the solvers' visitors do more).
struct SuccessorCollector: SuccessorVisitor {
    let sink: (UInt64) -> Void
    var entering: EnteringSlide { .none }

    mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool {
        sink(successor)
        return true
    }

    mutating func skipKnown(_ count: Int) {}
}
