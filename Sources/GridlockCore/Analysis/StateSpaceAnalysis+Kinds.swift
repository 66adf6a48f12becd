// Each kind's explorer for the analysis: Rush Hour on its bitboard keys and move generator,
// tiles on packed states (boards up to 16 cells), tilt boards on their per-colour bitboards.
// Sudoku has no move graph and is not analysed.

extension StateSpaceAnalysis {
    /// Analyses everything reachable from the puzzle, or says why it cannot.
    public static func analyze(_ puzzle: ParsedPuzzle, maxStates: Int) -> Result<StateSpaceAnalysis, AnalysisRefusal> {
        let graph: StateGraph?
        if let rushHour = puzzle.rushHour {
            graph = rushHourGraph(RushHourGeometry(rushHour), maxStates: maxStates)
        } else if let tiles = puzzle.tiles {
            guard tiles.cellCount <= TilePuzzle.maximumPackedCells else { return .failure(.tooLarge) }
            let geometry = TileGeometry(width: tiles.width, height: tiles.height)
            let goal = TileGeometry.pack(tiles.goalTiles)
            graph = StateGraph.explore(start: TileGeometry.pack(tiles.tiles), isGoal: { $0 == goal }, limit: maxStates) { state, sink in
                let blank = TileGeometry.blank(of: state)
                for move in geometry.moves[blank] { sink(TileGeometry.slide(state, tile: move.tile, blank: blank)) }
            }
        } else if let tilt = puzzle.tilt {
            graph = StateGraph.explore(start: tilt.start, isGoal: tilt.isSolved, limit: maxStates) { state in
                TiltDirection.allCases.compactMap { tilt.tilted(state, $0) }
            }
        } else {
            return .failure(.noMoveGraph)
        }
        guard let graph else { return .failure(.overLimit(maxStates)) }
        return .success(of(graph))
    }
}

extension StateSpaceAnalysis {
    /// A Rush Hour cluster as a graph, or nil past `maxStates`.
    static func rushHourGraph(_ geometry: RushHourGeometry, maxStates: Int) -> StateGraph? {
        geometry.withTables { tables in
            var builder = RushHourGraphBuilder(start: geometry.startKey)
            var position = 0
            var goals: [Bool] = []
            while position < builder.keys.count {
                if builder.keys.count > maxStates { return nil }
                let key = builder.keys[position]
                goals.append(geometry.isGoal(key))
                builder.depth = builder.depths[position] + 1
                _ = tables.forEachSuccessor(of: key, &builder)
                builder.offsets.append(Int32(builder.targets.count))
                position += 1
            }
            return builder.graph(goals: goals)
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

    public var description: String {
        switch self {
        case .noMoveGraph: "this kind has no moves between positions to analyse (Sudoku)"
        case .tooLarge: "tile boards of more than 16 cells are too large to explore whole"
        case .overLimit(let limit): "more than \(limit) states are reachable: raise --max-states to analyse it whole"
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
