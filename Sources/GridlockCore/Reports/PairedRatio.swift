// How much slower or faster one solver is than another on the same puzzles: a paired statistic.
// Each puzzle gives one ratio of times; the summary is their geometric mean (a ratio of means
// would let a few long puzzles decide it), with a percentile bootstrap interval over puzzles.
// The bootstrap's generator is seeded, so a report prints the same interval every time.

import Foundation

public struct PairedRatio: Sendable, Hashable {
    /// The geometric mean of the per-puzzle ratios (other / baseline).
    public var ratio: Double
    /// The 95% interval (2.5th and 97.5th percentiles of the bootstrap's geometric means).
    public var low: Double
    public var high: Double
    /// Puzzles that both solvers timed (above zero).
    public var pairs: Int

    public static let seed: UInt64 = 0x6772_6964_6C6F_636B  // "gridlock"

    /// nil when no puzzle was timed by both. `clusters`, one per pair, names what a pair's
    /// times share besides the puzzle: the worker processes that ran them. A process's own speed
    /// (where it landed in memory and on the machine, what else ran beside it) moves all its
    /// times alike, by several percent, and now and then one process is 20-40% off. So the
    /// interval is the wider of the puzzles' own bootstrap and one that treats each cluster as
    /// a single draw: from five clusters, the cluster-robust interval with Student's t (k - 1
    /// degrees of freedom; a percentile bootstrap of a dozen clusters was too narrow, and one
    /// slow process in twelve made two runs of one build differ); from two to four, too few to
    /// estimate a spread, a bootstrap of the clusters; with one, only the puzzles'.
    public init?(baseline: [Double], other: [Double], clusters: [Int]? = nil, resamples: Int? = nil) {
        var logs: [Double] = []
        var owners: [Int] = []
        logs.reserveCapacity(min(baseline.count, other.count))
        for (index, (base, time)) in zip(baseline, other).enumerated() where base > 0 && time > 0 && base.isFinite && time.isFinite {
            // A difference of logs: time / base could overflow (1e300 over 1e-310), and a log
            // past 700 would make the ratio itself infinite, so such a pair is left out.
            let log = Foundation.log(time) - Foundation.log(base)
            guard log.isFinite, abs(log) <= 700 else { continue }
            logs.append(log)
            owners.append(clusters.flatMap { index < $0.count ? $0[index] : nil } ?? 0)
        }
        guard !logs.isEmpty else { return nil }
        pairs = logs.count
        let mean = logs.reduce(0, +) / Double(logs.count)
        ratio = Foundation.exp(mean)
        // No spread (a solver against itself, the first row of every `bench` table): every
        // resample is the same mean, so the interval is the ratio; the bootstrap took a fifth
        // of a Sudoku bench's whole process to find that out.
        if logs.allSatisfy({ $0 == logs[0] }) {
            (low, high) = (ratio, ratio)
            return
        }
        // Each cluster's sum and size: a resample of clusters adds these.
        var sums: [Int: (sum: Double, count: Int)] = [:]
        for (log, owner) in zip(logs, owners) { sums[owner, default: (0, 0)].sum += log; sums[owner, default: (0, 0)].count += 1 }
        let groups = sums.keys.sorted().map { sums[$0]! }
        let perPair = Self.interval(units: logs.map { ($0, 1) }, resamples: resamples)
        // Few clusters resample into a handful of means, too narrow or too wide alike, and
        // ignore the spread within each: the interval is then the wider of the two.
        let perCluster = groups.count >= Self.fewestClustersForT ? Self.clusterRobustInterval(groups, mean: mean, pairs: logs.count)
            : groups.count >= 2 ? Self.interval(units: groups, resamples: resamples) : perPair
        low = min(perPair.low, perCluster.low)
        high = max(perPair.high, perCluster.high)
    }

    static let fewestClustersForT = 5

    /// The mean log ratio's 95% interval with each cluster one draw (CR1, as Cameron and Miller
    /// give it): the variance from each cluster's sum of deviations from the mean, times
    /// k / (k - 1), and Student's t with k - 1 degrees of freedom.
    static func clusterRobustInterval(_ groups: [(sum: Double, count: Int)], mean: Double, pairs: Int) -> (low: Double, high: Double) {
        let k = Double(groups.count), n = Double(pairs)
        var squares = 0.0
        for group in groups {
            let deviation = group.sum - Double(group.count) * mean
            squares += deviation * deviation
        }
        let standardError = (squares / (n * n) * k / (k - 1)).squareRoot()
        let half = studentT975(degreesOfFreedom: groups.count - 1) * standardError
        return (Foundation.exp(mean - half), Foundation.exp(mean + half))
    }

    /// Student's t, two-sided 95% (the 0.975 quantile): the table to 30 degrees of freedom,
    /// then the expansion 1.959964 + 2.3723 / df + 2.8225 / df², within 0.0001 from there on.
    static func studentT975(degreesOfFreedom df: Int) -> Double {
        let table: [Double] = [
            12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
            2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
        ]
        guard df >= 1 else { return .infinity }
        let d = Double(df)
        return df <= table.count ? table[df - 1] : 1.959964 + 2.3723 / d + 2.8225 / (d * d)
    }

    /// The percentile bootstrap of the mean log ratio over `units` (each a sum of logs and how
    /// many), as ratios.
    private static func interval(units: [(sum: Double, count: Int)], resamples: Int?) -> (low: Double, high: Double) {
        // About 20 million additions at most: 2,000 resamples up to 10,000 units, fewer above.
        let rounds = max(40, resamples ?? max(200, min(2_000, 20_000_000 / units.count)))
        var generator = SplitMix64(seed: seed)
        var means: [Double] = []
        means.reserveCapacity(rounds)
        for _ in 0..<rounds {
            var sum = 0.0
            var count = 0
            for _ in 0..<units.count {
                let unit = units[Int(generator.next() % UInt64(units.count))]
                sum += unit.sum
                count += unit.count
            }
            means.append(sum / Double(count))
        }
        means.sort()
        return (Foundation.exp(means[Int(Double(rounds - 1) * 0.025)]), Foundation.exp(means[Int((Double(rounds - 1) * 0.975).rounded(.up))]))
    }
}
