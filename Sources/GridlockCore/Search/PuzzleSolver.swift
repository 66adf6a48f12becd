// One solver signature for every puzzle kind and algorithm, so the CLI, the benchmark and the
// workers can hold a list of solvers and treat them alike.

/// Limits and requests for one solve. Time limits are the caller's: it passes `isCancelled`,
/// which solvers poll every few thousand states, so the core needs no clock of its own.
public struct SolveOptions: Sendable {
    /// The search stops with `cutoff` once it holds more states than this.
    public var maxStates: Int
    /// Keep exploring after the goal until the whole cluster is known, to report its size.
    public var exploreWholeCluster: Bool
    /// Count solutions up to this many (2 proves a Sudoku unique); 1 stops at the first.
    public var solutionLimit: Int
    /// A depth-first search stops with `cutoff` after this many search nodes (SudokuAI's
    /// "No Solution" after 2,000 steps); nil for no cap.
    public var maxSteps: Int?
    /// Searches that store states stop with `cutoff`, reason `memory-budget`, before their
    /// tables would pass this many bytes (MemoryBudget.swift).
    public var memoryBudgetBytes: Int
    public var isCancelled: @Sendable () -> Bool
    /// What a search cut off by `isCancelled` reports: `timeout` when it is a deadline.
    public var stopReason: CutoffReason = .cancelled

    /// A quarter of the memory this process may use (the machine's, or its control group's).
    public static let defaultMemoryBudgetBytes = quarterOfAvailableMemory

    public static let defaultMaxStates = 50_000_000

    public init(
        maxStates: Int = defaultMaxStates,
        exploreWholeCluster: Bool = false,
        solutionLimit: Int = 1,
        maxSteps: Int? = nil,
        memoryBudgetBytes: Int = defaultMemoryBudgetBytes,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) {
        precondition(solutionLimit >= 1, "a solve looks for at least one solution")
        self.maxStates = min(maxStates, StateTable.maximumCount)
        self.exploreWholeCluster = exploreWholeCluster
        self.solutionLimit = solutionLimit
        self.maxSteps = maxSteps
        self.memoryBudgetBytes = memoryBudgetBytes
        self.isCancelled = isCancelled
    }

    /// Options that stop the search at `deadline` (none: never), reported as a timeout.
    public static func until(_ deadline: ContinuousClock.Instant?, _ options: SolveOptions = SolveOptions()) -> SolveOptions {
        var options = options
        options.isCancelled = { deadline.map { ContinuousClock.now >= $0 } ?? false }
        options.stopReason = .timeout
        return options
    }

    /// How many states to expand between two polls of `isCancelled`.
    public static let cancellationInterval = 1024
}

/// A solver of one puzzle kind.
public protocol PuzzleSolver<Puzzle>: Sendable {
    associatedtype Puzzle
    /// The name users pick it by (`--solver bfs`).
    var name: String { get }
    /// Solves, leaving `statistics.seconds` to the caller's clock.
    func solve(_ puzzle: Puzzle, options: SolveOptions) -> SolveResult
}

extension Double {
    /// Seconds in a Duration, as a Double.
    public init(seconds duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = Double(seconds) + Double(attoseconds) * 1e-18
    }
}
