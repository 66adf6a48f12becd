// The tables of a results database: per puzzle kind, solver variant and difficulty band, counts
// by status, time percentiles, states examined (search nodes for Sudoku), peak memory, and each
// variant's mean time as a ratio to the first variant of the same kind; then throughput per
// worker and per host.
//
// Rows stream in and fold into one `Group` per (kind, solver, band): counts and sums, and an
// HdrHistogram of times in microseconds (3 significant digits), so a table over millions of jobs
// needs memory for the groups only, not the rows. Bands are the Unblocker guide's Unblock Me
// categories, by optimal moves (the solve's own answer, or the file's when the solve gave none).
// Sudoku has two: solved by propagation alone (one search node), or needing guesses. Tiles are
// banded by optimal moves in steps that split Korf's 100 (41 to 66 moves) into thirds.

import GridlockCore
import Histogram

public struct BatchReport: Sendable {
    public static let bands: [(name: String, range: ClosedRange<Int>)] = [
        ("14 or fewer", 0...14), ("Beginner 15-20", 15...20), ("Intermediate 21-25", 21...25),
        ("Advanced 26-30", 26...30), ("Expert 31+", 31...Int.max),
    ]
    static let sudokuBands = ["no guess", "guessed"]
    public static let tileBands: [(name: String, range: ClosedRange<Int>)] = [
        ("0-30 moves", 0...30), ("31-50 moves", 31...50), ("51-55 moves", 51...55), ("56+ moves", 56...Int.max),
    ]
    static let bandOrder = bands.map(\.name) + sudokuBands + tileBands.map(\.name) + ["unsolvable", "unknown", "invalid", "all"]

    public static let columns = [
        "kind", "solver", "band", "count", "solved", "unsolvable", "cutoff", "failed", "invalid", "wrong", "mean", "p50", "p90",
        "p99", "max", "examined mean", "examined max", "peak RSS mean", "peak RSS max", "time vs first",
    ]
    public static let throughputColumns = ["by", "name", "jobs", "busy", "jobs per busy second"]

    /// Everything known about one (solver, band) group.
    struct Group {
        var count = 0
        /// Jobs by status, indexed by the status's wire code: the tables' pass adds millions.
        var byStatus = [Int](repeating: 0, count: JobStatus.allCases.count)
        /// Answers that disagree with the input's expected answer.
        var wrong = 0
        /// Times of the jobs that ran (not invalid or failed), in microseconds.
        var times = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var timed = 0
        var seconds = 0.0
        var examinedSum = 0
        var examinedMax = 0
        var memorySum = 0
        var memoryMax = 0

        mutating func add(_ job: JobSummary) {
            count += 1
            byStatus[Int(job.status.wireCode)] += 1
            if job.contradictsExpected { wrong += 1 }
            if job.status.ranSolver {
                // A time out of range (a hostile worker's, or another program's row) is
                // clamped, never converted unchecked: the tables must not trap.
                let time = JobSummary.plausibleSeconds.clamping(job.seconds)
                _ = times.record(UInt64((time * 1e6).rounded()))
                timed += 1
                seconds += time
            }
            examinedSum = examinedSum.saturatingSum(max(0, job.examined))
            examinedMax = max(examinedMax, job.examined)
            memorySum = memorySum.saturatingSum(max(0, job.peakRSSBytes))
            memoryMax = max(memoryMax, job.peakRSSBytes)
        }

        var meanSeconds: Double { timed == 0 ? 0 : seconds / Double(timed) }

        func quantile(_ percentile: Double) -> Double {
            timed == 0 ? 0 : Double(times.valueAtPercentile(percentile)) * 1e-6
        }
    }

    struct Load {
        var jobs = 0
        var busy = 0.0

        mutating func add(seconds: Double) {
            jobs += 1
            busy += JobSummary.plausibleSeconds.clamping(seconds)
        }
    }

    /// (kind, solver) pairs in the order first seen.
    var variants: [Variant] = []
    var groups: [Variant: [String: Group]] = [:]
    var hosts: [String: Load] = [:]
    var workers: [String: Load] = [:]

    public init() {}

    /// The solvers of the rows folded, each once.
    public var solvers: [String] { Array(Set(variants.map(\.solver))) }

    struct Variant: Hashable {
        var kind: PuzzleKind
        var solver: String
    }

    public static func band(_ job: JobSummary) -> String {
        if job.kind == .tiles, let moves = job.moves ?? job.expectedMoves, moves >= 0 {
            return tileBands.first { $0.range.contains(moves) }!.name
        }
        guard job.kind == .sudoku, job.status == .solved else {
            return band(moves: job.moves, expectedMoves: job.expectedMoves, status: job.status)
        }
        return job.examined <= 1 ? sudokuBands[0] : sudokuBands[1]
    }

    public static func band(moves: Int?, expectedMoves: Int?, status: JobStatus) -> String {
        guard let moves = moves ?? expectedMoves else { return status == .invalid ? "invalid" : "unknown" }
        if moves < 0 { return "unsolvable" }
        return bands.first { $0.range.contains(moves) }?.name ?? "unknown"
    }

    public mutating func add(_ job: JobSummary) {
        // One lookup of the variant a row, its groups changed in place: this runs for every row
        // of a batch, millions of them.
        let variant = Variant(kind: job.kind, solver: job.solver)
        let index: [Variant: [String: Group]].Index
        if let found = groups.index(forKey: variant) {
            index = found
        } else {
            variants.append(variant)
            groups[variant] = [:]
            index = groups.index(forKey: variant)!
        }
        groups.values[index][Self.band(job), default: Group()].add(job)
        groups.values[index]["all", default: Group()].add(job)
        // Jobs the coordinator reported itself (invalid, or failed without running) ran nowhere.
        guard job.status != .invalid, !(job.status == .failed && job.examined == 0) else { return }
        hosts[job.host, default: Load()].add(seconds: job.seconds)
        workers[job.worker, default: Load()].add(seconds: job.seconds)
    }

    /// One row per kind, solver and band: kinds and solvers in the order first seen, bands in
    /// the guide's order. Ratios compare solvers of the same kind only.
    public var rows: [[String]] {
        var baselineMean: [String: Double] = [:]
        var rows: [[String]] = []
        let kinds = variants.map(\.kind).reduce(into: [PuzzleKind]()) { if !$0.contains($1) { $0.append($1) } }
        for variant in kinds.flatMap({ kind in variants.filter { $0.kind == kind } }) {
            let isBaseline = variant == variants.first { $0.kind == variant.kind }
            for band in Self.bandOrder {
                guard let group = groups[variant]?[band] else { continue }
                let mean = group.meanSeconds
                if isBaseline { baselineMean[variant.kind.rawValue + "/" + band] = mean }
                let ratio = baselineMean[variant.kind.rawValue + "/" + band].flatMap { $0 > 0 ? (mean / $0).formatted(decimals: 2) + "x" : nil } ?? "-"
                let count = { (status: JobStatus) in group.byStatus[Int(status.wireCode)].grouped }
                rows.append([
                    variant.kind.rawValue, variant.solver, band, group.count.grouped, count(.solved), count(.unsolvable), count(.cutoff),
                    count(.failed), count(.invalid), group.wrong.grouped, mean.milliseconds, group.quantile(50).milliseconds,
                    group.quantile(90).milliseconds, group.quantile(99).milliseconds, group.quantile(100).milliseconds,
                    (group.examinedSum / max(1, group.count)).grouped, group.examinedMax.grouped,
                    (group.memorySum / max(1, group.count)).bytes, group.memoryMax.bytes, ratio,
                ])
            }
        }
        return rows
    }

    /// Jobs and jobs per second of solving time, per host and per worker.
    public var throughputRows: [[String]] {
        func rows(_ loads: [String: Load], kind: String) -> [[String]] {
            loads.sorted { $0.key < $1.key }.map { name, load in
                [kind, name, load.jobs.grouped, load.busy.milliseconds,
                 load.busy > 0 ? (Double(load.jobs) / load.busy).formatted(decimals: 0) : "-"]
            }
        }
        return rows(hosts, kind: "host") + rows(workers, kind: "worker")
    }
}

extension Int {
    /// The sum, or the largest Int where it would overflow: millions of rows of another
    /// program's Int.max add up to a table, not a trap.
    func saturatingSum(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}

extension ClosedRange where Bound == Double {
    /// The value within the range; NaN is the lower bound.
    func clamping(_ value: Double) -> Double {
        value.isNaN ? lowerBound : Swift.min(Swift.max(value, lowerBound), upperBound)
    }
}
