// What `gridlock bench` reports for one solver: time per puzzle and its spread, throughput,
// memory, and how the solver's results compare with the expected answers.

public struct BenchmarkSummary: Sendable {
    public var solver: String
    /// Wall seconds per puzzle, parsing included.
    public private(set) var seconds: [Double] = []
    /// CPU seconds per puzzle, in the same order: the solving thread's, or an outside solver's
    /// process tree's.
    public private(set) var cpuSeconds: [Double] = []
    /// Which measured solve each time is (pass × puzzles + puzzle): what pairs it with the
    /// other solvers' time on the same puzzle in the same pass.
    public private(set) var keys: [Int] = []
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
    /// The keys of wrong and cut-off solves: left out of the ratios, on both sides.
    public private(set) var unusableKeys: Set<Int> = []
    /// Solves that another solver ran instead (a fallback), by that solver's name.
    public private(set) var ranInstead: [String: Int] = [:]

    /// Puzzles in a pass: a key's puzzle is the key modulo this.
    public var puzzles: Int

    public init(solver: String, puzzles: Int = 0) {
        self.solver = solver
        self.puzzles = puzzles
    }

    public mutating func add(seconds: Double, cpuSeconds: Double = 0, key: Int, result: SolveResult, correct: Bool) {
        self.seconds.append(seconds)
        self.cpuSeconds.append(max(0, cpuSeconds))
        keys.append(key)
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
        if result.status == .cutoff || !correct { unusableKeys.insert(key) }
        if let other = result.solvedBy { ranInstead[other, default: 0] += 1 }
    }

    /// The solver's name, and what ran instead when it fell back: `idastar-pdb (ran
    /// idastar-md)`, or `(ran idastar-md on 3 of 5)` when only some solves did.
    public var label: String {
        guard !ranInstead.isEmpty else { return solver }
        let ran = ranInstead.sorted { $0.key < $1.key }.map { name, solves in
            solves == count ? name : "\(name) on \(solves) of \(count)"
        }
        return "\(solver) (ran \(ran.joined(separator: ", ")))"
    }

    public var count: Int { seconds.count }
    public var totalSeconds: Double { seconds.reduce(0, +) }
    public var mean: Double { count == 0 ? 0 : totalSeconds / Double(count) }
    public var cpuMean: Double { count == 0 ? 0 : cpuSeconds.reduce(0, +) / Double(count) }
    public var puzzlesPerSecond: Double { totalSeconds == 0 ? 0 : Double(count) / totalSeconds }
    public var statesPerSecond: Double { totalSeconds == 0 ? 0 : Double(statesStored) / totalSeconds }
    public var bytesPerState: Double { statesStored == 0 ? 0 : Double(memoryBytes) / Double(statesStored) }
    public var bytesPerStateOfLargeSolves: Double? {
        largeStates == 0 ? nil : Double(largeMemoryBytes) / Double(largeStates)
    }

    /// Whether the solver keeps a table of states (breadth-first and A*): IDA* and the Sudoku
    /// solvers keep none, and their states per second and bytes per state mean nothing.
    public var storesStates: Bool { statesStored > 0 }

    /// The sample standard deviation of the times; nil for fewer than two.
    public var standardDeviation: Double? {
        guard count >= 2 else { return nil }
        let mean = self.mean
        return (seconds.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(count - 1)).squareRoot()
    }

    /// This solver's time over `baseline`'s, puzzle by puzzle (PairedRatio), over the solves
    /// both answered right (issue 43: a wrong solver's 755x was a ratio of nothing).
    /// `basis` picks wall or CPU time.
    public func ratio(to baseline: BenchmarkSummary, basis: TimeBasis = .wall) -> PairedRatio? {
        let (theirs, ours) = basis == .wall ? (baseline.seconds, seconds) : (baseline.cpuSeconds, cpuSeconds)
        var byKey: [Int: Double] = [:]
        for (key, time) in zip(baseline.keys, theirs) where !baseline.unusableKeys.contains(key) { byKey[key] = time }
        var base: [Double] = [], mine: [Double] = [], puzzle: [Int] = []
        for (key, time) in zip(keys, ours) where !unusableKeys.contains(key) {
            guard let other = byKey[key] else { continue }
            base.append(other)
            mine.append(time)
            puzzle.append(puzzles > 0 ? key % puzzles : key)
        }
        // Clustered by puzzle: repeats measure the same puzzles again, not more puzzles, and
        // must not narrow the interval as if they were.
        return PairedRatio(baseline: base, other: mine, clusters: puzzle)
    }

    /// The q-quantile (0...1) of the wall (or CPU) times, nearest rank.
    public func quantile(_ q: Double, basis: TimeBasis = .wall) -> Double {
        let times = basis == .wall ? seconds : cpuSeconds
        guard !times.isEmpty else { return 0 }
        let sorted = times.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

/// Renders summaries side by side, each solver's time as a paired ratio to the first's, puzzle by
/// puzzle, with its interval. Breadth-first solvers get state and memory columns; depth-first
/// ones (no stored states) get search nodes and guesses per puzzle instead.
public enum BenchmarkTable {
    static let timeColumns = ["solver", "puzzles", "puzzles/s", "wall mean", "wall median", "wall p95", "wall max", "CPU mean", "CPU median"]
    static let outcomeColumns = ["max memory", "wrong", "cut off", "wall vs first (95% CI)", "CPU vs first (95% CI)"]
    public static let columns = timeColumns + ["states/s", "bytes/state", "bytes/state ≥10k"] + outcomeColumns
    public static let depthFirstColumns = timeColumns + ["nodes/puzzle", "guesses/puzzle"] + outcomeColumns

    static func isDepthFirst(_ summaries: [BenchmarkSummary]) -> Bool {
        summaries.allSatisfy { $0.searchNodes != nil }
    }

    public static func rows(_ summaries: [BenchmarkSummary]) -> [[String]] {
        let depthFirst = isDepthFirst(summaries)
        return summaries.map { summary in
            let perPuzzle = { (total: Int?) in (Double(total ?? 0) / Double(max(1, summary.count))).formatted(decimals: 1) }
            let work = depthFirst
                ? [perPuzzle(summary.searchNodes), perPuzzle(summary.guesses)]
                : summary.storesStates ? [
                    Int(summary.statesPerSecond.rounded()).grouped, summary.bytesPerState.formatted(decimals: 1),
                    summary.bytesPerStateOfLargeSolves.map { $0.formatted(decimals: 1) } ?? "-",
                ] : ["-", "-", "-"]
            let ratio = summaries.first.flatMap { summary.ratio(to: $0) }
            let cpuRatio = summaries.first.flatMap { summary.ratio(to: $0, basis: .cpu) }
            return [
                summary.label, summary.count.grouped, Int(summary.puzzlesPerSecond.rounded()).grouped,
                summary.mean.milliseconds, summary.quantile(0.5).milliseconds, summary.quantile(0.95).milliseconds,
                summary.quantile(1).milliseconds, summary.cpuMean.milliseconds, summary.quantile(0.5, basis: .cpu).milliseconds,
            ] + work + [
                summary.maxMemoryBytes.bytes, summary.wrong.grouped, summary.cutoff.grouped,
                ratio.map { Self.describe($0) } ?? "-", cpuRatio.map { Self.describe($0) } ?? "-",
            ]
        }
    }

    /// "1.59x (1.55-1.63)": the geometric mean of the per-puzzle ratios and its 95% interval.
    public static func describe(_ ratio: PairedRatio) -> String {
        let digits = ratio.high - ratio.low < 0.02 ? 3 : 2
        return ratio.ratio.formatted(decimals: 2) + "x (" + ratio.low.formatted(decimals: digits) + "-" + ratio.high.formatted(decimals: digits) + ")"
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
