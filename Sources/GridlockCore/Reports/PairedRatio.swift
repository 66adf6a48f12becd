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
    /// (where it landed in memory and on the machine) moves all its times alike, by several
    /// percent, so with two clusters or more the bootstrap resamples whole clusters, and the
    /// interval covers that too (with fewer than ten, it is the wider of that and the puzzles'
    /// own); with one, it can only resample puzzles.
    public init?(baseline: [Double], other: [Double], clusters: [Int]? = nil, resamples: Int? = nil) {
        var logs: [Double] = []
        var owners: [Int] = []
        logs.reserveCapacity(min(baseline.count, other.count))
        for (index, (base, time)) in zip(baseline, other).enumerated() where base > 0 && time > 0 && base.isFinite && time.isFinite {
            // A difference of logs: time / base could overflow (1e300 over 1e-310).
            let log = Foundation.log(time) - Foundation.log(base)
            guard log.isFinite else { continue }
            logs.append(log)
            owners.append(clusters.flatMap { index < $0.count ? $0[index] : nil } ?? 0)
        }
        guard !logs.isEmpty else { return nil }
        pairs = logs.count
        let mean = logs.reduce(0, +) / Double(logs.count)
        ratio = Foundation.exp(mean)
        // Each cluster's sum and size: a resample of clusters adds these.
        var sums: [Int: (sum: Double, count: Int)] = [:]
        for (log, owner) in zip(logs, owners) { sums[owner, default: (0, 0)].sum += log; sums[owner, default: (0, 0)].count += 1 }
        let groups = sums.keys.sorted().map { sums[$0]! }
        let perPair = Self.interval(units: logs.map { ($0, 1) }, resamples: resamples)
        // Few clusters resample into a handful of means, too narrow or too wide alike, and
        // ignore the spread within each: the interval is then the wider of the two.
        let perCluster = groups.count >= 2 ? Self.interval(units: groups, resamples: resamples) : perPair
        low = groups.count >= 10 ? perCluster.low : min(perPair.low, perCluster.low)
        high = groups.count >= 10 ? perCluster.high : max(perPair.high, perCluster.high)
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
