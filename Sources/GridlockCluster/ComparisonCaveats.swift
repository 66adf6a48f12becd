// What makes a `compare` verdict doubtful before any figure is read (issue 43): a machine
// loaded past its cores (processes then wait for a CPU, and their times carry the wait), a
// different compiled code path (x86-64-v4 against portable: a change of code, not of speed),
// different limits or outside solver commands (other jobs), and a run-to-run spread wider than
// the threshold (two runs of one build already differ by more than a change would need).
// Each is found from the two batches' records alone; a verdict given under one is marked.

import Foundation
import GridlockCore
import GridlockWire

public struct ComparisonCaveat: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        case load
        case codePath = "code path"
        case limits
        case commands = "solver commands"
        case spread
    }

    public var reason: Reason
    /// What was found, with the figures: "baseline: load 3.10 at end on 2 cores".
    public var detail: String

    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// One batch as the caveats read it: its record, its machines, and its run-to-run spread.
    public struct Side: Sendable {
        public var role: String
        public var batch: BatchRecord
        public var machines: [MachineRecord]
        public var spread: RunSpread

        public init(role: String, batch: BatchRecord, machines: [MachineRecord], spread: RunSpread) {
            self.role = role
            self.batch = batch
            self.machines = machines
            self.spread = spread
        }
    }

    /// Every caveat that holds, in Reason's order. `threshold` is compare's, as a fraction.
    public static func find(_ baseline: Side, _ new: Side, threshold: Double) -> [ComparisonCaveat] {
        var caveats: [ComparisonCaveat] = []
        for side in [baseline, new] {
            if let detail = overload(side) { caveats.append(ComparisonCaveat(.load, "\(side.role): \(detail)")) }
        }
        let paths = { (side: Side) in Set(side.machines.map(\.codePath).filter { $0 != "unknown" }) }
        if !paths(baseline).isEmpty, !paths(new).isEmpty, paths(baseline) != paths(new) {
            caveats.append(ComparisonCaveat(
                .codePath, "the baseline ran \(paths(baseline).sorted().joined(separator: " + ")), the new batch \(paths(new).sorted().joined(separator: " + "))"))
        }
        if baseline.batch.limitsText != new.batch.limitsText {
            caveats.append(ComparisonCaveat(.limits, "the baseline's limits are \(baseline.batch.limitsText ?? "none"), the new batch's \(new.batch.limitsText ?? "none")"))
        }
        if let before = baseline.batch.recipe?.outsideSolvers, let after = new.batch.recipe?.outsideSolvers {
            // Versions only where both batches asked (a coordinator runs no solver, so never asks).
            let versions = Dictionary(before.map { ("\($0.kind):\($0.name)", $0.version) }, uniquingKeysWith: { first, _ in first })
            let bothAsked = Set(after.compactMap { solver in
                versions["\(solver.kind):\(solver.name)"].flatMap { $0 } != nil && solver.version != nil ? "\(solver.kind):\(solver.name)" : nil
            })
            let describe = { (solvers: [OutsideSolverRecord]) in
                Dictionary(solvers.map { solver in
                    let key = "\(solver.kind):\(solver.name)"
                    return (key, "\(solver.command)\(solver.serving ? " (serving)" : "")" + (bothAsked.contains(key) ? " version \(solver.version!)" : ""))
                }, uniquingKeysWith: { first, _ in first })
            }
            let (was, now) = (describe(before), describe(after))
            let changed = Set(was.keys).intersection(now.keys).filter { was[$0] != now[$0] }.sorted()
            if !changed.isEmpty {
                caveats.append(ComparisonCaveat(
                    .commands, changed.prefix(3).map { "\($0) was '\(was[$0]!)', now '\(now[$0]!)'" }.joined(separator: "; ")))
            }
        }
        for side in [baseline, new] {
            if let spread = side.spread.typical, spread > threshold {
                caveats.append(ComparisonCaveat(
                    .spread, "\(side.role): two runs of one job differ by \((spread * 100).formatted(decimals: 1))% (median over \(side.spread.pairs) repeated jobs), above the \((threshold * 100).formatted(decimals: 1))% threshold"))
            }
        }
        return caveats
    }

    /// "load 3.10 at end on 2 cores" where the batch's machine, or a worker's at its start, had
    /// more runnable processes than hardware threads, by more than `margin`: the coordinator
    /// and the sink of a batch with a worker per core add a few tenths of their own, and one
    /// whole extra process is where a worker starts to wait. The load average is the host's,
    /// so it is held against the host's hardware threads (a worker's record), not the CPUs a
    /// job allocation lets this process use.
    static func overload(_ side: Side) -> String? {
        let threads = max(side.batch.cores, side.machines.first { $0.host == side.batch.host }?.threads ?? 0)
        if let recipe = side.batch.recipe, threads > 0 {
            if recipe.loadAtStart > Double(threads) + margin {
                return "load \(recipe.loadAtStart.formatted(decimals: 2)) at start on \(threads) hardware threads"
            }
            if let end = recipe.loadAtEnd, end > Double(threads) + margin {
                return "load \(end.formatted(decimals: 2)) at end on \(threads) hardware threads"
            }
        }
        if let busy = side.machines.first(where: { $0.threads > 0 && $0.loadAverage > Double($0.threads) + margin }) {
            return "\(busy.host) had load \(busy.loadAverage.formatted(decimals: 2)) on \(busy.threads) threads as its workers started"
        }
        return nil
    }

    /// Runnable processes past the hardware threads before a load counts.
    static let margin = 1.0
}

/// How much two runs of one job differ within a batch (`--repeats`): each job's later runs
/// against its first, as |log(later / first)|, and their median. Nil without repeated jobs.
public struct RunSpread: Sendable {
    private var first: [UInt64: Double] = [:]
    private var logRatios: [Double] = []

    /// Which time the runs are compared by: wall or CPU.
    public let basis: TimeBasis

    public init(basis: TimeBasis = .wall) {
        self.basis = basis
    }

    /// A timed job (ResultStore.forEachTimedRow).
    public mutating func add(_ row: StoredRow) {
        let key = BatchComparison.key(row)
        if let earlier = first[key] {
            logRatios.append(abs(log(row.seconds(basis) / earlier)))
        } else {
            first[key] = row.seconds(basis)
        }
    }

    /// Repeated runs seen.
    public var pairs: Int { logRatios.count }

    /// The median run-to-run difference as a fraction (0.08: 8%).
    public var typical: Double? {
        guard !logRatios.isEmpty else { return nil }
        return exp(BatchComparison.median(logRatios)) - 1
    }
}
