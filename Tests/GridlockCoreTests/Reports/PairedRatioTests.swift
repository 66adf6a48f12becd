// The paired ratio: a geometric mean of per-puzzle ratios, and a seeded bootstrap interval.

import Foundation
import Testing
@testable import GridlockCore

@Suite struct PairedRatioTests {
    @Test("a solver exactly 1.2x slower on every puzzle gives 1.2 with no spread, however long the puzzles")
    func exactFactor() throws {
        let baseline = (1...50).map { Double($0) * 1e-4 }
        let ratio = try #require(PairedRatio(baseline: baseline, other: baseline.map { $0 * 1.2 }))
        #expect(abs(ratio.ratio - 1.2) < 1e-12 && abs(ratio.low - 1.2) < 1e-12 && abs(ratio.high - 1.2) < 1e-12)
        #expect(ratio.pairs == 50)
    }

    @Test("with noise, the interval holds the true factor, narrows with more puzzles, and is the same every run")
    func noisyFactor() throws {
        var generator = SplitMix64(seed: 7)
        func times(_ count: Int) -> ([Double], [Double]) {
            let baseline = (0..<count).map { _ in Double.random(in: 1e-4...1e-2, using: &generator) }
            // Each time off by up to ±10% at random, around a true factor of 1.25.
            return (baseline, baseline.map { $0 * 1.25 * Double.random(in: 0.9...1.1, using: &generator) })
        }
        let (small, smallOther) = times(30)
        let (large, largeOther) = times(3_000)
        let few = try #require(PairedRatio(baseline: small, other: smallOther))
        let many = try #require(PairedRatio(baseline: large, other: largeOther))
        #expect(few.low < 1.25 && 1.25 < few.high, "\(few)")
        #expect(many.low < 1.25 && 1.25 < many.high, "\(many)")
        #expect(many.high - many.low < few.high - few.low)
        #expect(PairedRatio(baseline: small, other: smallOther) == few)
    }

    @Test("puzzles either solver did not time (zero, infinite) are left out; none at all gives no ratio")
    func unpairable() {
        #expect(PairedRatio(baseline: [0, .infinity], other: [1, 1]) == nil)
        #expect(PairedRatio(baseline: [1, 0, 2], other: [2, 5, 4])?.pairs == 2)
    }

    @Test("clustered times: a shared shift per cluster widens the interval to cover it; repeats of a puzzle do not narrow it")
    func clusters() throws {
        var generator = SplitMix64(seed: 11)
        let baseline = (0..<600).map { _ in Double.random(in: 1e-4...1e-2, using: &generator) }
        // 12 clusters, each with its own shift of up to 10% around 1.2 (a process's own speed).
        let shifts = (0..<12).map { _ in Double.random(in: 0.9...1.1, using: &generator) }
        let other = baseline.indices.map { baseline[$0] * 1.2 * shifts[$0 % 12] * Double.random(in: 0.98...1.02, using: &generator) }
        let clusters = baseline.indices.map { $0 % 12 }
        let plain = try #require(PairedRatio(baseline: baseline, other: other))
        let clustered = try #require(PairedRatio(baseline: baseline, other: other, clusters: clusters))
        #expect(clustered.high - clustered.low > 2 * (plain.high - plain.low), "\(plain) \(clustered)")
        // Ten repeats of the same 20 pairs, clustered by pair: no narrower than the 20 alone.
        let few = Array(baseline.prefix(20)), fewOther = Array(other.prefix(20))
        let once = try #require(PairedRatio(baseline: few, other: fewOther, clusters: Array(0..<20)))
        let repeated = try #require(PairedRatio(
            baseline: Array(repeating: few, count: 10).flatMap { $0 }, other: Array(repeating: fewOther, count: 10).flatMap { $0 },
            clusters: Array(repeating: Array(0..<20), count: 10).flatMap { $0 }))
        #expect(repeated.high - repeated.low >= 0.9 * (once.high - once.low), "\(once) \(repeated)")
        // Overflowing ratios are left out, not turned into infinity.
        #expect(PairedRatio(baseline: [1e-310, 1], other: [1e300, 2])?.ratio.isFinite == true)
        // A lone pair whose ratio is past any Double is left out, leaving none.
        #expect(PairedRatio(baseline: [1e-310], other: [1e300]) == nil)
    }

    /// 50 pairs a cluster, each cluster's times `shift` times the baseline's, within 1%.
    static func clustered(shifts: [Double]) -> (baseline: [Double], other: [Double], clusters: [Int]) {
        var generator = SplitMix64(seed: 5)
        var baseline: [Double] = [], other: [Double] = [], clusters: [Int] = []
        for (cluster, shift) in shifts.enumerated() {
            for _ in 0..<50 {
                let time = Double.random(in: 1e-4...1e-2, using: &generator)
                baseline.append(time)
                other.append(time * shift * Double.random(in: 0.99...1.01, using: &generator))
                clusters.append(cluster)
            }
        }
        return (baseline, other, clusters)
    }

    @Test("two runs of one build: one worker process in twelve 37% slow is no change (compare-check saw it called slower)")
    func oneSlowProcessIsNoChange() throws {
        // The twelve pairs of processes of a real run of scripts/compare-check, same build.
        let run = Self.clustered(shifts: [1.37, 1.07, 0.99, 1.02, 1.01, 0.96, 1.04, 1.03, 1.00, 1.16, 1.06, 1.00])
        let ratio = try #require(PairedRatio(baseline: run.baseline, other: run.other, clusters: run.clusters))
        #expect(ratio.low <= 1 && ratio.high >= 1, "\(ratio)")
    }

    @Test("a solver slowed by 20%, measured through twelve pairs of processes: slower, and the interval holds 1.2")
    func slowedSolverHoldsItsFactor() throws {
        // A real run's twelve pairs: the processes' own speeds put the estimate at 1.18.
        let run = Self.clustered(shifts: [1.15, 1.21, 1.22, 1.18, 1.19, 1.21, 1.16, 1.19, 1.18, 1.10, 1.21, 1.19])
        let ratio = try #require(PairedRatio(baseline: run.baseline, other: run.other, clusters: run.clusters))
        #expect(ratio.low > 1.1 && ratio.low <= 1.2 && ratio.high >= 1.2, "\(ratio)")
    }

    @Test("Student's t at 95%: the table's values, and the normal's 1.96 far out")
    func studentT() {
        #expect(PairedRatio.studentT975(degreesOfFreedom: 1) == 12.706)
        #expect(PairedRatio.studentT975(degreesOfFreedom: 11) == 2.201)
        #expect(abs(PairedRatio.studentT975(degreesOfFreedom: 60) - 2.000) < 0.002)
        #expect(abs(PairedRatio.studentT975(degreesOfFreedom: 100_000) - 1.960) < 0.001)
    }
}
