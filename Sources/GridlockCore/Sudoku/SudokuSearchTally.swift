// What both Sudoku solvers count and when they stop, kept in one place so their statistics
// mean the same thing:
//   search node   one visit of the depth-first search (the root included); `maxSteps` caps these
//   guess         one value tried at a branching cell
//   propagation   one candidate removed by propagation (Norvig) or one digit placed (bitset)
// The search stops at `solutionLimit` solutions, at the step cap, or when cancelled.

struct SudokuSearchTally {
    let solutionLimit: Int
    let maxSteps: Int
    let isCancelled: @Sendable () -> Bool
    let stopReason: CutoffReason
    var nodes = 0
    var guesses = 0
    var propagations = 0
    var solutions = 0
    var firstSolution: [UInt8]?
    var cutoff: CutoffReason?

    init(_ options: SolveOptions) {
        solutionLimit = options.solutionLimit
        maxSteps = options.maxSteps ?? .max
        isCancelled = options.isCancelled
        stopReason = options.stopReason
    }

    var isDone: Bool { cutoff != nil || solutions >= solutionLimit }

    /// Counts a node; false when a limit says to stop instead.
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
    mutating func found(_ cells: [UInt8]) {
        solutions += 1
        if firstSolution == nil { firstSolution = cells }
    }

    /// The result: solved with the first solution, unsolvable when the search ran out, or cut
    /// off (a count interrupted by a limit proves nothing, so it is a cutoff too).
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
