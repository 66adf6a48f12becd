// What the Sudoku solvers count and when they stop, kept in one place so their statistics
// mean the same thing:
//   search node   one visit of the depth-first search (the root included); `maxSteps` caps these
//   guess         one value tried at a branching cell
//   propagation   one candidate removed by propagation (Norvig), one digit placed (bitset) or
//                 one sweep of every rule over the grid (bands)
// The search stops at `solutionLimit` solutions, at the step cap, or when cancelled.

@usableFromInline
struct SudokuSearchTally {
    @usableFromInline let solutionLimit: Int
    @usableFromInline let maxSteps: Int
    @usableFromInline let isCancelled: @Sendable () -> Bool
    @usableFromInline let stopReason: CutoffReason
    @usableFromInline var nodes = 0
    @usableFromInline var guesses = 0
    @usableFromInline var propagations = 0
    @usableFromInline var solutions = 0
    @usableFromInline var firstSolution: [UInt8]?
    @usableFromInline var cutoff: CutoffReason?

    @usableFromInline
    init(_ options: SolveOptions) {
        solutionLimit = options.solutionLimit
        maxSteps = options.maxSteps ?? .max
        isCancelled = options.isCancelled
        stopReason = options.stopReason
    }

    @inlinable var isDone: Bool { cutoff != nil || solutions >= solutionLimit }

    /// Counts a node; false when a limit says to stop instead.
    @inlinable
    mutating func enterNode() -> Bool {
        // At the cap, the next node is not entered: `--max-steps 5` reports 5 nodes, not 6.
        guard nodes < maxSteps else {
            cutoff = .maxSteps
            return false
        }
        nodes += 1
        if nodes % SolveOptions.cancellationInterval == 0, isCancelled() {
            cutoff = stopReason
        }
        return cutoff == nil
    }

    /// Counts a solution; `cells` is only kept for the first.
    @inlinable
    mutating func found(_ cells: [UInt8]) {
        solutions += 1
        if firstSolution == nil { firstSolution = cells }
    }

    /// The result: solved with the first solution, unsolvable when the search ran out, or cut
    /// off (a count interrupted by a limit proves nothing, so it is a cutoff too).
    @usableFromInline
    func result(memoryBytes: Int) -> SolveResult {
        var statistics = SearchStatistics()
        statistics.searchNodes = nodes
        statistics.guesses = guesses
        statistics.propagations = propagations
        statistics.memoryBytes = memoryBytes
        statistics.examined = nodes
        let status: SolveStatus = cutoff != nil ? .cutoff : solutions > 0 ? .solved : .unsolvable
        var result = SolveResult(status: status, cutoffReason: cutoff, statistics: statistics)
        result.solvedPosition = firstSolution.map(SudokuPuzzle.lineText)
        if solutionLimit > 1 { result.solutionCount = solutions }
        return result
    }
}
