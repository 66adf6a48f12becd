// The comparison of two batches on made-up times: pairing by puzzle, bands, and verdicts.

import Foundation
import GridlockCore
import GridlockWire
import Testing
@testable import GridlockCluster

@Suite struct BatchComparisonTests {
    /// Timed rows: even ones in the band of 15-20 moves, odd ones in the band of 31 or more.
    static func timings(_ count: Int, factor: Double, noise: Double, seed: UInt64, solver: String = "bfs") -> [StoredRow] {
        var generator = SplitMix64(seed: seed)
        var base = SplitMix64(seed: 99)
        return (0..<count).map { index in
            let seconds = Double.random(in: 1e-4...1e-2, using: &base)
            let moves = index % 2 == 0 ? 17 : 35
            return StoredRow(
                kind: .rushhour, puzzle: "p\(index)", solver: solver, status: .solved, moves: moves, expectedMoves: moves,
                seconds: seconds * factor * Double.random(in: (1 - noise)...(1 + noise), using: &generator))
        }
    }

    @Test("the same times with noise: no change; 1.2x slower: slower, the interval holding 1.2; 0.8x: faster")
    func verdicts() throws {
        for (factor, verdict) in [(1.0, BatchComparison.Verdict.noChange), (1.2, .slower), (0.8, .faster)] {
            var comparison = BatchComparison()
            for timing in Self.timings(400, factor: 1, noise: 0.05, seed: 1) { comparison.addBaseline(timing) }
            for timing in Self.timings(400, factor: factor, noise: 0.05, seed: 2) { comparison.addNew(timing) }
            let rows = comparison.rows(threshold: 0.05)
            #expect(rows.map(\.band) == ["Beginner 15-20", "Expert 31+", "all"])
            let all = try #require(rows.last)
            #expect(all.pairs == 400 && all.verdict == verdict, "factor \(factor): \(all)")
            let ratio = try #require(all.ratio)
            #expect(ratio.low <= factor && factor <= ratio.high, "factor \(factor): \(ratio)")
        }
    }

    @Test("only puzzles in both batches pair, by kind, solver and puzzle; a change inside the threshold is no change")
    func pairing() throws {
        var comparison = BatchComparison()
        for timing in Self.timings(10, factor: 1, noise: 0, seed: 1) { comparison.addBaseline(timing) }
        // Another solver's times, and puzzles the baseline never had, pair with nothing.
        for timing in Self.timings(10, factor: 1.03, noise: 0, seed: 1, solver: "bidirectional") { comparison.addNew(timing) }
        #expect(comparison.rows(threshold: 0.05).isEmpty)
        for timing in Self.timings(5, factor: 1.03, noise: 0, seed: 1) { comparison.addNew(timing) }
        let all = try #require(comparison.rows(threshold: 0.05).last)
        #expect(all.pairs == 5 && all.verdict == .noChange)
        #expect(abs(try #require(all.ratio).ratio - 1.03) < 1e-9)
    }

    @Test("a change counts only when its whole interval lies beyond the threshold, as criterion decides")
    func verdictNeedsTheWholeInterval() {
        func ratio(_ ratio: Double, _ low: Double, _ high: Double) -> PairedRatio {
            var paired = PairedRatio(baseline: [1], other: [ratio])!
            (paired.low, paired.high, paired.pairs) = (low, high, 10)
            return paired
        }
        // One or two puzzles give no verdict however far their ratio lies (their interval has
        // no width): too few pairs.
        var two = ratio(0.7, 0.7, 0.7)
        two.pairs = BatchComparison.minimumPairs - 1
        #expect(BatchComparison.verdict(two, threshold: 0.05) == .tooFewPairs)
        // Nor do they fail --fail-above's gate: 1.5x on two puzzles is no regression of a group.
        var slowTwo = ratio(1.5, 1.5, 1.5)
        slowTwo.pairs = BatchComparison.minimumPairs - 1
        #expect(!BatchComparison.failsGate(slowTwo, above: 0.10))
        slowTwo.pairs = BatchComparison.minimumPairs
        #expect(BatchComparison.failsGate(slowTwo, above: 0.10))
        // Beyond the threshold, but the interval reaches back inside it: no change.
        #expect(BatchComparison.verdict(ratio(1.07, 1.03, 1.11), threshold: 0.05) == .noChange)
        #expect(BatchComparison.verdict(ratio(1 / 1.07, 1 / 1.11, 1 / 1.03), threshold: 0.05) == .noChange)
        // The whole interval beyond it, on either side.
        #expect(BatchComparison.verdict(ratio(1.2, 1.08, 1.33), threshold: 0.05) == .slower)
        #expect(BatchComparison.verdict(ratio(0.8, 0.75, 0.9), threshold: 0.05) == .faster)
        #expect(BatchComparison.verdict(nil, threshold: 0.05) == .noChange)
        // --fail-above's gate: an 18% regression with a wide interval fails it, though its
        // verdict is no change; one whose interval holds no change does not.
        #expect(BatchComparison.verdict(ratio(1.18, 1.03, 1.36), threshold: 0.05) == .noChange)
        #expect(BatchComparison.failsGate(ratio(1.18, 1.03, 1.36), above: 0.10))
        #expect(!BatchComparison.failsGate(ratio(1.18, 0.97, 1.36), above: 0.10))
        #expect(!BatchComparison.failsGate(ratio(1.07, 1.03, 1.11), above: 0.10))
    }
}
