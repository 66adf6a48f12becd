// The Rush Hour solvers by the names users pick them with (`--solver bfs,bidirectional`).

public enum RushHourSolvers {
    /// Every solver, the default first.
    public static let all: [any PuzzleSolver<RushHourPuzzle>] = [
        RushHourBFSSolver(), RushHourBidirectionalSolver(), RushHourReferenceSolver(),
    ]

    public static let names = all.map(\.name)

    public static func named(_ name: String) -> (any PuzzleSolver<RushHourPuzzle>)? {
        all.first { $0.name == name }
    }
}
