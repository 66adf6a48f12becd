// The tile solvers by the names users pick them with; the default (fastest optimal) first.

public enum TileSolvers {
    public static let all: [any PuzzleSolver<TilePuzzle>] = [
        TilePatternDatabaseSolver(), TileIDAStarSolver(heuristic: .linearConflict), TileIDAStarSolver(heuristic: .manhattan),
        TileAStarSolver(), TileBidirectionalSolver(), TileBFSSolver(),
    ]

    public static let names = all.map(\.name)

    public static func named(_ name: String) -> (any PuzzleSolver<TilePuzzle>)? {
        all.first { $0.name == name }
    }
}
