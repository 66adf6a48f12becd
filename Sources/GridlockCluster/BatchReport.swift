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
    public static let bandOrder = bands.map(\.name) + sudokuBands + tileBands.map(\.name) + ["unsolvable", "unknown", "invalid", "all"]

    /// The text table's columns (the numeric formats name theirs in GroupStatistics.fields).
    public static let columns = [
        "kind", "solver", "band", "count", "solved", "unsolvable", "cutoff", "failed", "invalid", "wrong", "wall min", "wall mean", "95% CI",
        "wall p50", "wall p90", "wall p99", "wall max", "wall sd", "CPU mean", "CPU p50", "CPU p90", "CPU max", "examined mean", "examined max",
        "memory mean", "memory max", "RSS over idle", "wall vs first", "CPU vs first",
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
        /// Sum of squared deviations from the running mean (Welford): the variance without
        /// the cancellation of a plain sum of squares.
        var squaredDeviations = 0.0
        var minSeconds = Double.infinity
        var maxSeconds = 0.0
        /// The same jobs' CPU times (a row stored without one counts 0).
        var cpuTimes = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var cpuSeconds = 0.0
        var cpuMinSeconds = Double.infinity
        var cpuMaxSeconds = 0.0
        // Over the jobs that ran a solver only: an invalid line examined nothing and used no
        // memory, and counting it as 0 would pull the means down.
        var examinedSum = 0
        var examinedMax = 0
        var peakRSSSum = 0
        var peakRSSMax = 0
        var memorySum = 0
        var memoryMax = 0
        /// Over the jobs whose worker said what it held idle (rows stored before it did: none).
        var aboveIdleSum = 0
        var aboveIdleJobs = 0

        mutating func add(_ job: StoredRow) {
            count += 1
            byStatus[Int(job.status.wireCode)] += 1
            if job.isWrong { wrong += 1 }
            guard job.status.ranSolver else { return }
            // A time out of range (a hostile worker's, or another program's row) is
            // clamped, never converted unchecked: the tables must not trap.
            let time = StoredRow.plausibleSeconds.clamping(job.seconds)
            _ = times.record(UInt64((time * 1e6).rounded()))
            let before = meanSeconds
            timed += 1
            seconds += time
            squaredDeviations += (time - before) * (time - meanSeconds)
            minSeconds = min(minSeconds, time)
            maxSeconds = max(maxSeconds, time)
            let cpu = StoredRow.plausibleSeconds.clamping(job.cpuSeconds)
            _ = cpuTimes.record(UInt64((cpu * 1e6).rounded()))
            cpuSeconds += cpu
            cpuMinSeconds = min(cpuMinSeconds, cpu)
            cpuMaxSeconds = max(cpuMaxSeconds, cpu)
            examinedSum = examinedSum.saturatingSum(max(0, job.examined))
            examinedMax = max(examinedMax, job.examined)
            peakRSSSum = peakRSSSum.saturatingSum(max(0, job.peakRSSBytes))
            peakRSSMax = max(peakRSSMax, job.peakRSSBytes)
            memorySum = memorySum.saturatingSum(max(0, job.memoryBytes))
            memoryMax = max(memoryMax, job.memoryBytes)
            if job.workerIdleRSSBytes > 0 {
                // Both clamped at 0 first, so another program's extreme values cannot overflow.
                aboveIdleSum = aboveIdleSum.saturatingSum(max(0, max(0, job.peakRSSBytes) - job.workerIdleRSSBytes))
                aboveIdleJobs += 1
            }
        }

        var meanSeconds: Double { timed == 0 ? 0 : seconds / Double(timed) }

        var standardDeviation: Double? { timed < 2 ? nil : (max(0, squaredDeviations) / Double(timed - 1)).squareRoot() }

        /// From the histogram (3 significant digits), kept within the exact least and greatest
        /// times, so that a p99 never reads above the max.
        func quantile(_ percentile: Double) -> Double {
            timed == 0 ? 0 : min(max(Double(times.valueAtPercentile(percentile)) * 1e-6, minSeconds), maxSeconds)
        }

        func cpuQuantile(_ percentile: Double) -> Double {
            timed == 0 ? 0 : min(max(Double(cpuTimes.valueAtPercentile(percentile)) * 1e-6, cpuMinSeconds), cpuMaxSeconds)
        }
    }

    struct Load {
        var jobs = 0
        var busy = 0.0

        mutating func add(seconds: Double) {
            jobs += 1
            busy += StoredRow.plausibleSeconds.clamping(seconds)
        }
    }

    /// (kind, solver) pairs in the order first seen.
    var variants: [Variant] = []
    var groups: [Variant: [String: Group]] = [:]
    var hosts: [String: Load] = [:]
    var workers: [String: Load] = [:]
    /// PAR-2, the VBS and the rest of the competitions' scores (SolverScores): set its limit
    /// before the first job is added.
    public var scores = SolverScores()

    public init() {}

    /// The solvers of the rows folded, each once.
    public var solvers: [String] { Array(Set(variants.map(\.solver))) }

    struct Variant: Hashable {
        var kind: PuzzleKind
        var solver: String
    }

    public static func band(_ job: StoredRow) -> String {
        band(moves: job.moves, expectedMoves: job.expectedMoves, status: job.status, kind: job.kind, examined: job.examined)
    }

    /// The band of a job of any kind (the tables' rule, for readers of rows other than theirs).
    public static func band(moves: Int?, expectedMoves: Int?, status: JobStatus, kind: PuzzleKind, examined: Int) -> String {
        if kind == .tiles, let moves = moves ?? expectedMoves, moves >= 0 {
            return tileBands.first { $0.range.contains(moves) }!.name
        }
        guard kind == .sudoku, status == .solved else {
            return band(moves: moves, expectedMoves: expectedMoves, status: status)
        }
        return examined <= 1 ? sudokuBands[0] : sudokuBands[1]
    }

    public static func band(moves: Int?, expectedMoves: Int?, status: JobStatus) -> String {
        guard let moves = moves ?? expectedMoves else { return status == .invalid ? "invalid" : "unknown" }
        if moves < 0 { return "unsolvable" }
        return bands.first { $0.range.contains(moves) }?.name ?? "unknown"
    }

    public mutating func add(_ job: StoredRow) {
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
        if scores.enabled { scores.add(job) }
        // Jobs the coordinator reported itself (invalid, or failed without running) ran nowhere.
        guard job.status != .invalid, !(job.status == .failed && job.examined == 0) else { return }
        hosts[job.host, default: Load()].add(seconds: job.seconds)
        workers[job.worker, default: Load()].add(seconds: job.seconds)
    }

    /// The scores, when a batch has something to score: a limit, or two solvers of a kind.
    public var scoreRows: [SolverScores.Row]? {
        guard scores.enabled, !scores.gaveUp else { return nil }
        let kinds = variants.map(\.kind)
        guard scores.hasLimit || Set(kinds).count < kinds.count else { return nil }
        var finished = scores
        finished.finish()
        // In the tables' order (batches as met, solvers by their first job), whatever order the jobs came in.
        let rank = Dictionary(variants.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
        let batchRank = Dictionary(finished.batches.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
        return finished.rows.sorted { first, second in
            if first.batch != second.batch { return batchRank[first.batch] ?? .max < batchRank[second.batch] ?? .max }
            let (a, b) = (rank[Variant(kind: first.kind, solver: first.solver)], rank[Variant(kind: second.kind, solver: second.solver)])
            let (kindA, kindB) = (variants.firstIndex { $0.kind == first.kind } ?? .max, variants.firstIndex { $0.kind == second.kind } ?? .max)
            if kindA != kindB { return kindA < kindB }
            // The VBS (no variant) last in its kind.
            return (a ?? .max) < (b ?? .max)
        }
    }

    /// Each solver's time over its kind's first solver's, paired by puzzle and repeat, when a
    /// kind has two solvers or more.
    public var ratioRows: [SolverScores.RatioRow]? {
        guard scores.enabled, !scores.gaveUp else { return nil }
        var finished = scores
        finished.finish()
        let rows = finished.ratioRows(order: variants.map { ($0.kind, $0.solver) })
        return rows.isEmpty ? nil : rows
    }

    /// The ratios table's columns, naming the time they are of.
    public static func ratioColumns(_ basis: TimeBasis) -> [String] {
        ["batch", "kind", "solver", "over", "puzzles", "runs", "ratio (\(basis.label))", "95% CI, measured", "95% CI, puzzles"]
    }

    /// The ratios as the text table shows them: the measured interval needs every puzzle run
    /// twice or more (`--repeats`).
    public static func ratioText(_ rows: [SolverScores.RatioRow]) -> [[String]] {
        rows.map { row in
            let estimate = row.estimate
            return [
                row.batch, row.kind.rawValue, row.solver, row.baseline, estimate.puzzles.grouped, estimate.pairs.grouped,
                estimate.ratio.formatted(decimals: 3) + "x", estimate.measurement?.describedAround(estimate.ratio) ?? "- (needs --repeats)",
                estimate.acrossPuzzles?.describedAround(estimate.ratio) ?? "-",
            ]
        }
    }

    /// The scores table's columns, naming the time PAR-2 and the VBS are of.
    public static func scoreColumns(_ basis: TimeBasis) -> [String] {
        ["batch", "kind", "solver", "puzzles", "solved", "wrong", "timeouts", "memouts", "PAR-2 (\(basis.label))", "fastest", "VBS share"]
    }

    /// Scores as the text table shows them.
    public static func scoreText(_ rows: [SolverScores.Row]) -> [[String]] {
        rows.map { row in
            [row.batch, row.kind.rawValue, row.solver, row.puzzles.grouped, row.solved.grouped, row.wrong.grouped, row.timeouts.grouped,
             row.memouts.grouped, row.par2Seconds?.milliseconds ?? "-", row.fastest.grouped,
             row.vbsShare.map { ($0 * 100).formatted(decimals: 1) + "%" } ?? "-"]
        }
    }

    /// One row per kind, solver and band, as numbers: kinds and solvers in the order first seen,
    /// bands in the guide's order. Ratios compare solvers of the same kind only.
    public var statistics: [GroupStatistics] {
        var baselineMean: [String: Double] = [:]
        var baselineCPUMean: [String: Double] = [:]
        var rows: [GroupStatistics] = []
        let kinds = variants.map(\.kind).reduce(into: [PuzzleKind]()) { if !$0.contains($1) { $0.append($1) } }
        for variant in kinds.flatMap({ kind in variants.filter { $0.kind == kind } }) {
            let isBaseline = variant == variants.first { $0.kind == variant.kind }
            for band in Self.bandOrder {
                guard let group = groups[variant]?[band] else { continue }
                let ran = group.timed > 0
                let mean = ran ? group.meanSeconds : nil
                let key = variant.kind.rawValue + "/" + band
                let cpuMean = ran ? group.cpuSeconds / Double(group.timed) : nil
                if isBaseline, let mean { baselineMean[key] = mean }
                if isBaseline, let cpuMean { baselineCPUMean[key] = cpuMean }
                let count = { (status: JobStatus) in group.byStatus[Int(status.wireCode)] }
                let sd = group.standardDeviation
                var row = GroupStatistics(
                    kind: variant.kind.rawValue, solver: variant.solver, band: band, jobs: group.count, solved: count(.solved),
                    unsolvable: count(.unsolvable), cutoff: count(.cutoff), failed: count(.failed), invalid: count(.invalid),
                    wrong: group.wrong, timedJobs: group.timed, minSeconds: ran ? group.minSeconds : nil, meanSeconds: mean,
                    meanCI95: sd.flatMap { ConfidenceInterval.ofMean(count: group.timed, mean: group.meanSeconds, standardDeviation: $0) },
                    medianSeconds: ran ? group.quantile(50) : nil, p90Seconds: ran ? group.quantile(90) : nil,
                    p99Seconds: ran ? group.quantile(99) : nil, maxSeconds: ran ? group.maxSeconds : nil, stddevSeconds: sd,
                    examinedMean: ran ? Double(group.examinedSum) / Double(group.timed) : nil, examinedMax: ran ? group.examinedMax : nil,
                    peakRSSMeanBytes: ran ? Double(group.peakRSSSum) / Double(group.timed) : nil, peakRSSMaxBytes: ran ? group.peakRSSMax : nil,
                    memoryMeanBytes: ran ? Double(group.memorySum) / Double(group.timed) : nil, memoryMaxBytes: ran ? group.memoryMax : nil,
                    rssAboveIdleMeanBytes: group.aboveIdleJobs > 0 ? Double(group.aboveIdleSum) / Double(group.aboveIdleJobs) : nil,
                    timeVsFirst: mean.flatMap { mean in baselineMean[key].flatMap { $0 > 0 ? mean / $0 : nil } })
                row.cpuMeanSeconds = cpuMean
                row.cpuMedianSeconds = ran ? group.cpuQuantile(50) : nil
                row.cpuP90Seconds = ran ? group.cpuQuantile(90) : nil
                row.cpuMaxSeconds = ran ? group.cpuMaxSeconds : nil
                row.cpuVsFirst = cpuMean.flatMap { mean in baselineCPUMean[key].flatMap { $0 > 0 ? mean / $0 : nil } }
                rows.append(row)
            }
        }
        return rows
    }

    /// The text table's rows: the statistics formatted, `-` where there is no value.
    public var rows: [[String]] {
        statistics.map { row in
            let time = { (seconds: Double?) in seconds?.milliseconds ?? "-" }
            let interval = row.meanCI95.map { "±" + (($0.upperBound - $0.lowerBound) / 2).milliseconds } ?? "-"
            return [
                row.kind, row.solver, row.band, row.jobs.grouped, row.solved.grouped, row.unsolvable.grouped, row.cutoff.grouped,
                row.failed.grouped, row.invalid.grouped, row.wrong.grouped, time(row.minSeconds), time(row.meanSeconds), interval,
                time(row.medianSeconds), time(row.p90Seconds), time(row.p99Seconds), time(row.maxSeconds), time(row.stddevSeconds),
                time(row.cpuMeanSeconds), time(row.cpuMedianSeconds), time(row.cpuP90Seconds), time(row.cpuMaxSeconds),
                row.examinedMean.map { Self.saturatingInt($0).grouped } ?? "-", row.examinedMax?.grouped ?? "-",
                row.memoryMeanBytes.map { Self.saturatingInt($0).bytes } ?? "-", row.memoryMaxBytes?.bytes ?? "-",
                row.rssAboveIdleMeanBytes.map { Self.saturatingInt($0).bytes } ?? "-",
                row.timeVsFirst.map { $0.formatted(decimals: 2) + "x" } ?? "-", row.cpuVsFirst.map { $0.formatted(decimals: 2) + "x" } ?? "-",
            ]
        }
    }

    /// The nearest Int, or the largest where a mean of saturated sums rounds past it.
    static func saturatingInt(_ value: Double) -> Int {
        value >= 9.2e18 ? .max : value <= 0 ? 0 : Int(value.rounded())
    }

    /// Jobs and solving time per host, then per worker, as numbers.
    public var throughput: [ThroughputRow] {
        func rows(_ loads: [String: Load], by: String) -> [ThroughputRow] {
            loads.sorted { $0.key < $1.key }.map { ThroughputRow(by: by, name: $0.key, jobs: $0.value.jobs, busySeconds: $0.value.busy) }
        }
        return rows(hosts, by: "host") + rows(workers, by: "worker")
    }

    /// A rate grouped like the counts beside it (717,556); past what an Int holds exactly, as
    /// a float (1e+20).
    static func rate(_ value: Double) -> String {
        value.isFinite && abs(value) < 1e15 ? Int(value.rounded()).grouped : value.formatted(decimals: 0)
    }

    /// Jobs and jobs per second of solving time, per host and per worker.
    public var throughputRows: [[String]] {
        throughput.map { row in
            [row.by, row.name, row.jobs.grouped, row.busySeconds.milliseconds, row.jobsPerBusySecond.map(Self.rate) ?? "-"]
        }
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

/// One row of the throughput table, as numbers.
public struct ThroughputRow: Sendable, Hashable {
    public var by: String
    public var name: String
    public var jobs: Int
    public var busySeconds: Double

    public var jobsPerBusySecond: Double? { busySeconds > 0 ? Double(jobs) / busySeconds : nil }

    public static let fields: [(name: String, value: @Sendable (ThroughputRow) -> ReportValue)] = [
        ("by", { .text($0.by) }), ("name", { .text($0.name) }), ("jobs", { .integer($0.jobs) }),
        ("busy_seconds", { .real($0.busySeconds) }), ("jobs_per_busy_second", { .real($0.jobsPerBusySecond) }),
    ]
}
