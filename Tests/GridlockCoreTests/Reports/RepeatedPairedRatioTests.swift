// The paired ratio over repeats against small examples worked out by hand.

import Foundation
import Testing
@testable import GridlockCore

@Suite struct RepeatedPairedRatioTests {
    static func close(_ value: Double?, _ expected: Double, within tolerance: Double = 1e-9) -> Bool {
        value.map { abs($0 - expected) < tolerance } ?? false
    }

    /// Puzzle 1: the other solver takes as long in every repeat (logs 0, 0, 0). Puzzle 2: its
    /// logs are 0.1, 0.2 and 0.3 (mean 0.2, variance 0.01). The estimate: exp(0.1). Measured:
    /// variance (0 + 0.01 / 3) / 2², 4 degrees of freedom (t 2.776). Across puzzles: the means
    /// 0 and 0.2, standard error 0.1, 1 degree of freedom (t 12.706).
    @Test("the estimate and both intervals of two puzzles run three times each, as worked out by hand")
    func handExample() throws {
        var fold = RepeatedPairedRatio()
        fold.add(baseline: [0: 1, 1: 2, 2: 4], other: [0: 1, 1: 2, 2: 4])
        fold.add(baseline: [0: 1, 1: 1, 2: 1], other: [0: exp(0.1), 1: exp(0.2), 2: exp(0.3)])
        let estimate = try #require(fold.estimate)
        #expect(estimate.puzzles == 2 && estimate.pairs == 6)
        #expect(Self.close(estimate.ratio, exp(0.1)))
        let measuredHalf = 2.776 * (0.01 / 3).squareRoot() / 2
        #expect(Self.close(estimate.measurement?.lowerBound, exp(0.1 - measuredHalf)) && Self.close(estimate.measurement?.upperBound, exp(0.1 + measuredHalf)))
        #expect(Self.close(estimate.acrossPuzzles?.lowerBound, exp(0.1 - 1.2706)) && Self.close(estimate.acrossPuzzles?.upperBound, exp(0.1 + 1.2706)))
        // The other way round: the reciprocals.
        let inverted = estimate.inverted
        #expect(Self.close(inverted.ratio, exp(-0.1)) && Self.close(inverted.measurement?.upperBound, exp(-0.1 + measuredHalf)))
    }

    @Test("runs are paired by repeat number: a slow moment that slowed both solvers cancels out")
    func pairedByRepeat() throws {
        var fold = RepeatedPairedRatio()
        // The second repeat ran four times slower for both: each pair's ratio is exactly 2.
        fold.add(baseline: [0: 1, 1: 4], other: [0: 2, 1: 8])
        fold.add(baseline: [0: 3, 1: 3], other: [0: 6, 1: 6])
        let estimate = try #require(fold.estimate)
        #expect(Self.close(estimate.ratio, 2))
        #expect(Self.close(estimate.measurement?.lowerBound, 2) && Self.close(estimate.measurement?.upperBound, 2))
    }

    @Test("a repeat only one solver timed, or a time that is not positive, is no pair; a puzzle run once leaves the measured interval unknown")
    func unpaired() throws {
        var fold = RepeatedPairedRatio()
        fold.add(baseline: [0: 1, 1: 1], other: [0: 2, 2: 5])
        fold.add(baseline: [0: 0, 1: 1], other: [0: 3, 1: 2])
        fold.add(baseline: [0: 1], other: [1: 2])
        let estimate = try #require(fold.estimate)
        #expect(estimate.puzzles == 2 && estimate.pairs == 2 && Self.close(estimate.ratio, 2))
        #expect(estimate.measurement == nil)
        #expect(RepeatedPairedRatio().estimate == nil)
    }

    @Test("the interval as the table shows it: bounds and half-width as a share of the estimate")
    func described() {
        #expect((0.98...1.02).describedAround(1) == "0.98-1.02 (±2.0%)")
        #expect((1.99...2.01).describedAround(2) == "1.990-2.010 (±0.5%)")
    }
}
