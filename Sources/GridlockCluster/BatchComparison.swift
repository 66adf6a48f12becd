// `gridlock compare`: how a batch's times changed from a baseline batch's, per kind, solver and
// band, puzzle by puzzle. Each puzzle timed in both batches (same kind, solver and puzzle text)
// gives one ratio, new over baseline; a group's change is their geometric mean with a seeded
// bootstrap interval (PairedRatio) over the pairs of worker processes that ran them, whose own
// speeds differ by several percent. A change counts only when its whole interval lies beyond the
// noise threshold: otherwise it is "no change", as criterion says "change within noise
// threshold". (The rule was once laxer: an interval that only excluded 1, with the estimate
// beyond the threshold. Under it, two runs of one build on a 2-vCPU machine were now and then
// called 5-9% apart in a few groups; docs/benchmarks.md has the runs under both rules.)
//
// Memory: the baseline's times by a 64-bit hash of (kind, solver, puzzle) and their band, about
// 40 bytes a job, then the new batch streams past.

import GridlockCore
import GridlockWire

public struct BatchComparison: Sendable {
    public enum Verdict: String, Sendable, Hashable {
        case faster, slower
        case noChange = "no change"
        /// Fewer than `minimumPairs` puzzles: one or two ratios give an interval of no width
        /// (a single puzzle "-29.8% (-29.8% to -29.8%) faster"), which says nothing of the rest.
        case tooFewPairs = "too few pairs"
    }

    /// The fewest pairs a group needs for a verdict.
    public static let minimumPairs = 3

    public struct Row: Sendable, Hashable {
        public var kind: String
        public var solver: String
        public var band: String
        public var pairs: Int
        public var baselineMedianSeconds: Double
        public var newMedianSeconds: Double
        /// New over baseline, with its 95% interval; nil with no pair.
        public var ratio: PairedRatio?
        public var verdict: Verdict
        /// Why the verdict is in doubt (ComparisonCaveat's reasons); empty: no reason known.
        public var caveats: [String] = []

        public static let fields: [(name: String, value: @Sendable (Row) -> ReportValue)] = [
            ("kind", { .text($0.kind) }), ("solver", { .text($0.solver) }), ("band", { .text($0.band) }), ("pairs", { .integer($0.pairs) }),
            ("baseline_median_seconds", { .real($0.baselineMedianSeconds) }), ("new_median_seconds", { .real($0.newMedianSeconds) }),
            ("ratio", { .real($0.ratio?.ratio) }), ("ratio_ci95_low", { .real($0.ratio?.low) }), ("ratio_ci95_high", { .real($0.ratio?.high) }),
            ("verdict", { .text($0.verdict.rawValue) }), ("caveats", { .text($0.caveats.joined(separator: "; ")) }),
        ]
    }

    /// What pairs a job across the batches: its kind, solver and puzzle.
    static func key(_ row: StoredRow) -> UInt64 {
        var hash = Hasher64()
        hash.add(row.kind.rawValue)
        hash.add(row.solver)
        hash.add(row.puzzle)
        return hash.value
    }

    struct GroupKey: Hashable {
        var kind: String
        var solver: String
        var band: String
    }

    private var baseline: [UInt64: (seconds: Double, band: String, worker: Int)] = [:]
    private var pairs: [GroupKey: (baseline: [Double], new: [Double], clusters: [Int])] = [:]
    private var order: [GroupKey] = []
    /// Worker names as numbers, and each (baseline worker, new worker) pair as a cluster.
    private var workers: [String: Int] = [:]
    private var clusterNumbers: [Int: Int] = [:]

    private mutating func number(_ worker: String) -> Int {
        if let known = workers[worker] { return known }
        workers[worker] = workers.count
        return workers.count - 1
    }

    /// Which time the jobs are compared by: wall or CPU.
    public let basis: TimeBasis

    public init(basis: TimeBasis = .wall) {
        self.basis = basis
    }

    /// A timed job of the baseline batch (ResultStore.forEachTimedRow; the first of a puzzle counts).
    public mutating func addBaseline(_ row: StoredRow) {
        let key = Self.key(row)
        if baseline[key] == nil { baseline[key] = (row.seconds(basis), BatchReport.band(row), number(row.worker)) }
    }

    /// A job of the new batch, paired with the baseline's time for the same puzzle if there is
    /// one, in the baseline's band (so both times of a pair sit in one group) and in "all".
    public mutating func addNew(_ row: StoredRow) {
        guard let base = baseline.removeValue(forKey: Self.key(row)) else { return }
        let combination = base.worker << 32 | number(row.worker)
        let cluster = clusterNumbers[combination] ?? clusterNumbers.count
        clusterNumbers[combination] = cluster
        for band in [base.band, "all"] {
            let group = GroupKey(kind: row.kind.rawValue, solver: row.solver, band: band)
            if pairs[group] == nil { order.append(group) }
            pairs[group, default: ([], [], [])].baseline.append(base.seconds)
            pairs[group, default: ([], [], [])].new.append(row.seconds(basis))
            pairs[group, default: ([], [], [])].clusters.append(cluster)
        }
    }

    /// One row per group: kinds and solvers as first met, bands in the report's order.
    public func rows(threshold: Double) -> [Row] {
        let bandRank = Dictionary(BatchReport.bandOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var variantRank: [String: Int] = [:]
        for group in order where variantRank[group.kind + "\u{0}" + group.solver] == nil {
            variantRank[group.kind + "\u{0}" + group.solver] = variantRank.count
        }
        let sorted = order.sorted { a, b in
            let (x, y) = (variantRank[a.kind + "\u{0}" + a.solver]!, variantRank[b.kind + "\u{0}" + b.solver]!)
            return x != y ? x < y : (bandRank[a.band] ?? .max) < (bandRank[b.band] ?? .max)
        }
        return sorted.map { group in
            let (base, new, clusters) = pairs[group]!
            let ratio = PairedRatio(baseline: base, other: new, clusters: clusters)
            return Row(
                kind: group.kind, solver: group.solver, band: group.band, pairs: base.count, baselineMedianSeconds: Self.median(base),
                newMedianSeconds: Self.median(new), ratio: ratio, verdict: Self.verdict(ratio, threshold: threshold))
        }
    }

    /// As criterion decides (its `compare_to_threshold`): a change counts when the whole
    /// interval lies beyond the noise threshold, on one side; anything else is no change.
    /// (criterion's threshold is on the change, ±t; here it is on the ratio's log, so faster
    /// means below 1 / (1 + t), as far below no change as slower is above it.)
    static func verdict(_ ratio: PairedRatio?, threshold: Double) -> Verdict {
        guard let ratio else { return .noChange }
        guard ratio.pairs >= minimumPairs else { return .tooFewPairs }
        if ratio.low > 1 + threshold { return .slower }
        if ratio.high < 1 / (1 + threshold) { return .faster }
        return .noChange
    }

    /// `--fail-above`'s gate: slower by more than `limit` (a fraction), and the interval above
    /// no change. Laxer than the verdict on purpose: a gate must not pass a regression only
    /// because its interval is wide.
    public static func failsGate(_ ratio: PairedRatio?, above limit: Double) -> Bool {
        // One or two puzzles' ratio is no regression of the group (their interval has no width).
        guard let ratio, ratio.pairs >= minimumPairs else { return false }
        return ratio.low > 1 && ratio.ratio > 1 + limit
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// FNV-1a over strings, each ended by a zero byte: a stable 64-bit key, the same in every
/// process (Swift's Hasher is seeded per process).
struct Hasher64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        value = (value ^ 0) &* 0x0000_0100_0000_01B3
    }
}

extension ResultStore {
    /// The timed jobs of `batch`, for `gridlock compare`, in job order, streamed: those that
    /// finished (a cut-off's time is its limit, not the solver's) with a right or unchecked
    /// answer and a time by `basis`. A row that does not decode is left out.
    public func forEachTimedRow(batch: String, basis: TimeBasis, _ body: (StoredRow) throws -> Void) throws {
        try forEachRow(batch: batch, reading: .timing, undecodable: { _ in }) { row in
            guard row.status == .solved || row.status == .unsolvable, !row.isWrong, row.seconds(basis) > 0 else { return }
            try body(row)
        }
    }
}
