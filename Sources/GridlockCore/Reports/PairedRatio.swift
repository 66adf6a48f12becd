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
    /// interval covers that too; with one, it can only resample puzzles.
    public init?(baseline: [Double], other: [Double], clusters: [Int]? = nil, resamples: Int? = nil) {
        var logs: [Double] = []
        var owners: [Int] = []
        logs.reserveCapacity(min(baseline.count, other.count))
        for (index, (base, time)) in zip(baseline, other).enumerated() where base > 0 && time > 0 && base.isFinite && time.isFinite {
            logs.append(Foundation.log(time / base))
            owners.append(clusters?[index] ?? 0)
        }
        guard !logs.isEmpty else { return nil }
        pairs = logs.count
        let mean = logs.reduce(0, +) / Double(logs.count)
        ratio = Foundation.exp(mean)
        // Each cluster's sum and size: a resample of clusters adds these.
        var sums: [Int: (sum: Double, count: Int)] = [:]
        for (log, owner) in zip(logs, owners) { sums[owner, default: (0, 0)].sum += log; sums[owner, default: (0, 0)].count += 1 }
        let groups = sums.keys.sorted().map { sums[$0]! }
        // About 20 million additions at most: 2,000 resamples up to 10,000 pairs, fewer above.
        let units = groups.count >= 2 ? groups.count : logs.count
        let rounds = resamples ?? max(200, min(2_000, 20_000_000 / units))
        var generator = SplitMix64(seed: Self.seed)
        var means: [Double] = []
        means.reserveCapacity(rounds)
        for _ in 0..<rounds {
            var sum = 0.0
            var count = 0
            if groups.count >= 2 {
                for _ in 0..<groups.count {
                    let group = groups[Int(generator.next() % UInt64(groups.count))]
                    sum += group.sum
                    count += group.count
                }
            } else {
                for _ in 0..<logs.count { sum += logs[Int(generator.next() % UInt64(logs.count))] }
                count = logs.count
            }
            means.append(sum / Double(count))
        }
        means.sort()
        low = Foundation.exp(means[Int(Double(rounds - 1) * 0.025)])
        high = Foundation.exp(means[Int((Double(rounds - 1) * 0.975).rounded(.up))])
    }
}
