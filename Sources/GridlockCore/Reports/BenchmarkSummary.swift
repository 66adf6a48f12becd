// What `gridlock bench` reports for one solver: time per puzzle and its spread, throughput,
// memory, and how the solver's results compare with the expected answers.

public struct BenchmarkSummary: Sendable {
    public var solver: String
    /// Seconds per puzzle, parsing included.
    public private(set) var seconds: [Double] = []
    public private(set) var statesStored = 0
    public private(set) var examined = 0
    public private(set) var memoryBytes = 0
    public private(set) var maxMemoryBytes = 0
    /// States and bytes of the solves that stored at least `largeSolve` states: a solver's fixed
    /// overhead (a first table of 64 KiB, say) says little about how big a cluster fits in RAM.
    public private(set) var largeStates = 0
    public private(set) var largeMemoryBytes = 0
    public static let largeSolve = 10_000
    /// Depth-first solvers (Sudoku): search nodes and guesses, summed.
    public private(set) var searchNodes: Int?
    public private(set) var guesses: Int?
    public private(set) var wrong = 0
    public private(set) var cutoff = 0

    public init(solver: String) {
        self.solver = solver
    }

    public mutating func add(seconds: Double, result: SolveResult, correct: Bool) {
        self.seconds.append(seconds)
        statesStored += result.statistics.statesStored
        examined += result.statistics.examined
        memoryBytes += result.statistics.memoryBytes
        maxMemoryBytes = max(maxMemoryBytes, result.statistics.memoryBytes)
        if result.statistics.statesStored >= Self.largeSolve {
            largeStates += result.statistics.statesStored
            largeMemoryBytes += result.statistics.memoryBytes
        }
        if let nodes = result.statistics.searchNodes { searchNodes = (searchNodes ?? 0) + nodes }
        if let tried = result.statistics.guesses { guesses = (guesses ?? 0) + tried }
        if result.status == .cutoff { cutoff += 1 } else if !correct { wrong += 1 }
    }

    public var count: Int { seconds.count }
    public var totalSeconds: Double { seconds.reduce(0, +) }
    public var mean: Double { count == 0 ? 0 : totalSeconds / Double(count) }
    public var puzzlesPerSecond: Double { totalSeconds == 0 ? 0 : Double(count) / totalSeconds }
    public var statesPerSecond: Double { totalSeconds == 0 ? 0 : Double(statesStored) / totalSeconds }
    public var bytesPerState: Double { statesStored == 0 ? 0 : Double(memoryBytes) / Double(statesStored) }
    public var bytesPerStateOfLargeSolves: Double? {
        largeStates == 0 ? nil : Double(largeMemoryBytes) / Double(largeStates)
    }

    /// The q-quantile (0...1) of the times, nearest rank.
    public func quantile(_ q: Double) -> Double {
        guard !seconds.isEmpty else { return 0 }
        let sorted = seconds.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

/// Renders summaries side by side, each solver's mean time as a ratio to the first's. Breadth-
/// first solvers get state and memory columns; depth-first ones (no stored states) get search
/// nodes and guesses per puzzle instead.
public enum BenchmarkTable {
    static let timeColumns = ["solver", "puzzles", "puzzles/s", "mean", "median", "p95", "max"]
    static let outcomeColumns = ["max memory", "wrong", "cut off", "time vs first"]
    public static let columns = timeColumns + ["states/s", "bytes/state", "bytes/state ≥10k"] + outcomeColumns
    public static let depthFirstColumns = timeColumns + ["nodes/puzzle", "guesses/puzzle"] + outcomeColumns

    static func isDepthFirst(_ summaries: [BenchmarkSummary]) -> Bool {
        summaries.allSatisfy { $0.searchNodes != nil }
    }

    public static func rows(_ summaries: [BenchmarkSummary]) -> [[String]] {
        let baseline = summaries.first?.mean ?? 0
        let depthFirst = isDepthFirst(summaries)
        return summaries.map { summary in
            let perPuzzle = { (total: Int?) in (Double(total ?? 0) / Double(max(1, summary.count))).formatted(decimals: 1) }
            let work = depthFirst
                ? [perPuzzle(summary.searchNodes), perPuzzle(summary.guesses)]
                : [
                    Int(summary.statesPerSecond.rounded()).grouped, summary.bytesPerState.formatted(decimals: 1),
                    summary.bytesPerStateOfLargeSolves.map { $0.formatted(decimals: 1) } ?? "-",
                ]
            return [
                summary.solver, summary.count.grouped, Int(summary.puzzlesPerSecond.rounded()).grouped,
                summary.mean.milliseconds, summary.quantile(0.5).milliseconds, summary.quantile(0.95).milliseconds,
                summary.quantile(1).milliseconds,
            ] + work + [
                summary.maxMemoryBytes.bytes, summary.wrong.grouped, summary.cutoff.grouped,
                baseline == 0 ? "-" : (summary.mean / baseline).formatted(decimals: 2) + "x",
            ]
        }
    }

    static func header(_ summaries: [BenchmarkSummary]) -> [String] {
        isDepthFirst(summaries) ? depthFirstColumns : columns
    }

    public static func text(_ summaries: [BenchmarkSummary]) -> String {
        TextTable.aligned(header: header(summaries), rows: rows(summaries))
    }

    public static func markdown(_ summaries: [BenchmarkSummary]) -> String {
        TextTable.markdown(header: header(summaries), rows: rows(summaries))
    }
}
