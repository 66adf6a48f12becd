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
            StateGraph.explore(start: geometry.startKey, isGoal: geometry.isGoal, limit: maxStates) { key, sink in
                withoutActuallyEscaping(sink) { sink in
                    var collector = SuccessorCollector(sink: sink)
                    _ = tables.forEachSuccessor(of: key, &collector)
                }
            }
        }
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
    var knownBlock: Int { -1 }

    mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool {
        sink(successor)
        return true
    }

    mutating func skipKnown(_ count: Int) {}
}
