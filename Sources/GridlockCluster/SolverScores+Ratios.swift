// The paired ratios of a batch's solvers (RepeatedPairedRatio), folded beside the scores: a
// puzzle's runs are complete at the same moment for both. Only right answers are timed: a
// cut-off's time is its limit, and a wrong answer's is no solver's.

import GridlockCore
import GridlockWire

extension SolverScores {
    struct RatioKey: Hashable {
        var batch: String
        var kind: PuzzleKind
        /// first < second, by name.
        var first: String
        var second: String
    }

    /// One row of the ratios table: `solver`'s time over `baseline`'s.
    public struct RatioRow: Sendable, Hashable {
        public var batch: String
        public var kind: PuzzleKind
        public var solver: String
        public var baseline: String
        public var estimate: RepeatedPairedRatio.Estimate
        /// The time it is a ratio of.
        public var basis = TimeBasis.cpu
    }

    /// Every pair of the puzzle's solvers, its right answers' times by repeat number.
    mutating func foldRatios(_ runs: [Job]) {
        var times: [String: [Int: Double]] = [:]
        for run in runs where run.solved {
            times[run.solver, default: [:]][run.repetition] = run.seconds
        }
        guard times.count >= 2, let kind = runs.first?.kind, let batch = runs.first?.batch else { return }
        let solvers = times.keys.sorted()
        for (index, first) in solvers.enumerated() {
            for second in solvers[(index + 1)...] {
                ratios[RatioKey(batch: batch, kind: kind, first: first, second: second), default: RepeatedPairedRatio()].add(baseline: times[first]!, other: times[second]!)
            }
        }
    }

    /// Per batch, each solver of a kind against `baselines[kind]` (the first of the kind's
    /// solvers in the tables that the batch ran), in `order`; none for a kind with one solver.
    public func ratioRows(order: [(kind: PuzzleKind, solver: String)]) -> [RatioRow] {
        var rows: [RatioRow] = []
        for batch in batches {
            var baselines: [PuzzleKind: String] = [:]
            for (kind, solver) in order where ranSolvers[BatchKind(batch: batch, kind: kind), default: []].contains(solver) {
                guard let baseline = baselines[kind] else {
                    baselines[kind] = solver
                    continue
                }
                let forward = RatioKey(batch: batch, kind: kind, first: baseline, second: solver)
                let backward = RatioKey(batch: batch, kind: kind, first: solver, second: baseline)
                guard let estimate = ratios[forward]?.estimate ?? ratios[backward]?.estimate.map(\.inverted) else { continue }
                rows.append(RatioRow(batch: batch, kind: kind, solver: solver, baseline: baseline, estimate: estimate, basis: basis))
            }
        }
        return rows
    }
}
