// What every tile solver settles before it searches, so each answers alike: an unsolvable
// board by its parity (no search), a board too big for packed states by saying so.

/// What every tile solver settles before searching.
enum TileSolverChecks {
    /// Unsolvable by parity (no search), already solved, or too big to pack.
    static func early(_ puzzle: TilePuzzle, needsPacking: Bool) -> SolveResult? {
        if let reason = puzzle.unsolvableReason {
            var result = SolveResult(status: .unsolvable, statistics: SearchStatistics())
            result.reason = reason
            return result
        }
        if needsPacking, puzzle.cellCount > TilePuzzle.maximumPackedCells {
            var result = SolveResult(status: .cutoff, cutoffReason: .tooLarge, statistics: SearchStatistics())
            result.reason = "this solver packs boards of at most \(TilePuzzle.maximumPackedCells) cells; use idastar"
            return result
        }
        return nil
    }
}
