// One result shape for every solver of every puzzle kind, so tests, benchmarks, the CLI and the
// cluster treat them alike. Unsolvable and cut off are results, not errors.

/// How a solve ended.
public enum SolveStatus: String, Sendable, Hashable, Codable {
    /// A solution was found; it is optimal for the optimal solvers.
    case solved
    /// The search proved there is no solution (the whole reachable space was explored).
    case unsolvable
    /// A limit (states, time, cancellation) stopped the search first.
    case cutoff
}

/// Why a search was cut off.
public enum CutoffReason: String, Sendable, Hashable, Codable {
    case maxStates = "max-states"
    case maxSteps = "max-steps"
    case cancelled
    /// A time limit (`--timeout`, a job's limit) ran out.
    case timeout
    case memoryBudget = "memory-budget"
    /// The solver cannot represent the puzzle (a board too big for its packed states).
    case tooLarge = "too-large"
}

/// One move of a solution, in the puzzle's own words and in coordinates a viewer can animate.
public struct SolutionMove: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The piece that moves: a block's letter, a tile's number, a tilt direction...
    public var piece: String
    /// Where the piece's anchor cell (top or left end) was before and after the move.
    public var from: BoardCell?
    public var to: BoardCell?
    /// The move as people say it: `B down 2`.
    public var text: String

    public init(piece: String, from: BoardCell?, to: BoardCell?, text: String) {
        self.piece = piece
        self.from = from
        self.to = to
        self.text = text
    }

    public var description: String { text }
}

/// What a search did, at least all that the Unblocker guide's `Solution` holds.
public struct SearchStatistics: Sendable, Hashable, Codable {
    /// The start, then every board generated from an expanded board, duplicates included (the
    /// guide's "examined", whose solver counts the start too).
    public var examined = 0
    /// Distinct boards stored for expansion (the guide's "enqueued"); the start counts.
    public var enqueued = 0
    /// `examined` and `enqueued` by level (moves from the start); level 0 is the start.
    public var examinedPerLevel: [Int] = []
    public var enqueuedPerLevel: [Int] = []
    public var maxQueue = 0
    public var finalQueue = 0
    /// Distinct states held when the search ended (both directions for bidirectional).
    public var statesStored = 0
    /// Bytes the solver's state storage had allocated when it ended.
    public var memoryBytes = 0
    /// The deepest level the search reached (the guide's "Halted at level N" when unsolvable).
    public var levelReached = 0
    /// Wall-clock seconds of the solve, measured by the caller's clock.
    public var seconds = 0.0
    /// Depth-first searches (Sudoku): nodes of the search tree, values tried at branching
    /// cells, and candidates removed by propagation. Nil for breadth-first searches.
    public var searchNodes: Int?
    public var guesses: Int?
    public var propagations: Int?
    /// Iterative deepening (IDA*): the f bound of each iteration; the per-level counts are
    /// then per iteration.
    public var bounds: [Int]?

    public init() {}

    /// Adds a board examined at `level`, growing the per-level tables as levels appear.
    @inlinable
    public mutating func countExamined(atLevel level: Int, _ count: Int = 1) {
        while examinedPerLevel.count <= level { examinedPerLevel.append(0) }
        examinedPerLevel[level] += count
        examined += count
    }

    @inlinable
    public mutating func countEnqueued(atLevel level: Int, _ count: Int = 1) {
        while enqueuedPerLevel.count <= level { enqueuedPerLevel.append(0) }
        enqueuedPerLevel[level] += count
        enqueued += count
    }
}

/// The result of one solve.
public struct SolveResult: Sendable, Hashable {
    public var status: SolveStatus
    public var cutoffReason: CutoffReason?
    /// The moves from the start to a goal, when solved.
    public var solution: [SolutionMove]
    /// States in the start's connected component, when the whole of it was explored.
    public var cluster: Int?
    /// For puzzles whose answer is a position rather than moves (Sudoku): that position, in
    /// the puzzle's one-line form.
    public var solvedPosition: String?
    /// Solutions found, when the caller asked to count them (`SolveOptions.solutionLimit` > 1).
    public var solutionCount: Int?
    /// Why, in words, when the status needs explaining: an unsolvable tile board's parity, a
    /// solver's size limit.
    public var reason: String?
    /// The solver that actually ran, when another than the one asked for (`idastar-pdb` on a
    /// board its tables do not cover runs an IDA* without them): reports name both.
    public var solvedBy: String?
    public var statistics: SearchStatistics

    public init(
        status: SolveStatus, cutoffReason: CutoffReason? = nil, solution: [SolutionMove] = [],
        cluster: Int? = nil, statistics: SearchStatistics
    ) {
        self.status = status
        self.cutoffReason = cutoffReason
        self.solution = solution
        self.cluster = cluster
        self.statistics = statistics
    }

    /// The number of moves, when solved (none for puzzles answered by a position).
    public var moves: Int? { status == .solved && solvedPosition == nil ? solution.count : nil }
}
