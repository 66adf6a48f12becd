// How much faster one solver is than another within one batch, puzzle by puzzle, from runs that
// were paired (`--paired`: both solvers' runs of a puzzle back to back on one worker) and
// repeated (`--repeats N`). Folded one puzzle at a time, in constant memory, so a batch of
// millions of puzzles costs a few numbers per pair of solvers.
//
// A puzzle gives one log ratio: the mean, over its repeats, of log(other) - log(baseline) for
// the runs with the same repeat number (run back to back, so what slowed the machine then
// slowed both). The estimate is the geometric mean over puzzles. Two intervals, since they
// answer two questions:
// - measurement: how far the estimate for *these* puzzles could move if the batch ran again.
//   Its variance is the sum over puzzles of the spread of their repeats (s² / r), over the
//   number of puzzles squared: it needs at least two repeats of every puzzle.
// - puzzles: how far it could move with other puzzles like these (the spread of the
//   per-puzzle ratios themselves, which no number of repeats narrows).
// Both use Student's t on the log scale and are given as ratios.

import Foundation

public struct RepeatedPairedRatio: Sendable, Hashable {
    public struct Estimate: Sendable, Hashable {
        /// other / baseline: the geometric mean of the puzzles' ratios.
        public var ratio: Double
        /// Puzzles with a timed pair, and timed pairs in all.
        public var puzzles: Int
        public var pairs: Int
        /// The 95% interval for these puzzles run again: nil unless every puzzle had two
        /// timed pairs or more.
        public var measurement: ClosedRange<Double>?
        /// The 95% interval for other puzzles like these: nil with fewer than two puzzles.
        public var acrossPuzzles: ClosedRange<Double>?

        /// The same estimate the other way round (baseline / other).
        public var inverted: Estimate {
            Estimate(
                ratio: 1 / ratio, puzzles: puzzles, pairs: pairs, measurement: measurement.map { (1 / $0.upperBound)...(1 / $0.lowerBound) },
                acrossPuzzles: acrossPuzzles.map { (1 / $0.upperBound)...(1 / $0.lowerBound) })
        }
    }

    private var puzzles = 0
    private var pairs = 0
    /// Welford's running mean and sum of squared deviations of the puzzles' mean log ratios.
    private var mean = 0.0
    private var squares = 0.0
    /// Σ s² / r over puzzles, and Σ (r - 1): the measurement's variance times n², and its
    /// degrees of freedom.
    private var noise = 0.0
    private var noiseDegrees = 0
    /// Puzzles timed once only: their noise is unknown.
    private var unrepeated = 0

    public init() {}

    /// One puzzle: each solver's times by repeat number. Repeats that only one solver timed, and
    /// times that are not positive and finite, are left out.
    public mutating func add(baseline: [Int: Double], other: [Int: Double]) {
        var logs: [Double] = []
        for (repetition, base) in baseline {
            guard let time = other[repetition], base > 0, time > 0, base.isFinite, time.isFinite else { continue }
            let log = Foundation.log(time) - Foundation.log(base)
            if log.isFinite { logs.append(log) }
        }
        guard !logs.isEmpty else { return }
        let count = Double(logs.count)
        let puzzleMean = logs.reduce(0, +) / count
        puzzles += 1
        pairs += logs.count
        let delta = puzzleMean - mean
        mean += delta / Double(puzzles)
        squares += delta * (puzzleMean - mean)
        if logs.count >= 2 {
            let variance = logs.reduce(0) { $0 + ($1 - puzzleMean) * ($1 - puzzleMean) } / (count - 1)
            noise += variance / count
            noiseDegrees += logs.count - 1
        } else {
            unrepeated += 1
        }
    }

    /// The estimate; nil before any puzzle had a timed pair.
    public var estimate: Estimate? {
        guard puzzles > 0 else { return nil }
        let n = Double(puzzles)
        func interval(half: Double) -> ClosedRange<Double> { Foundation.exp(mean - half)...Foundation.exp(mean + half) }
        let measurement = unrepeated == 0 && noiseDegrees > 0
            ? interval(half: PairedRatio.studentT975(degreesOfFreedom: noiseDegrees) * noise.squareRoot() / n) : nil
        let acrossPuzzles = puzzles >= 2
            ? interval(half: PairedRatio.studentT975(degreesOfFreedom: puzzles - 1) * (squares / (n - 1) / n).squareRoot()) : nil
        return Estimate(ratio: Foundation.exp(mean), puzzles: puzzles, pairs: pairs, measurement: measurement, acrossPuzzles: acrossPuzzles)
    }
}

extension ClosedRange<Double> {
    /// "0.866-0.874 (±0.5%)": the bounds, and their half-width as a share of `estimate`.
    public func describedAround(_ estimate: Double) -> String {
        let digits = upperBound - lowerBound < 0.02 ? 3 : 2
        let half = (upperBound - lowerBound) / 2 / estimate * 100
        return lowerBound.formatted(decimals: digits) + "-" + upperBound.formatted(decimals: digits) + " (±" + half.formatted(decimals: half < 10 ? 1 : 0) + "%)"
    }
}
