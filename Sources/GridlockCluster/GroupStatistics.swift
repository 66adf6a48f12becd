// One row of the report's main table as numbers, in fixed units (seconds, bytes, counts): what
// `report --format csv|json|jsonl` prints, and what the text table formats. Times describe the
// jobs that ran a solver (not invalid records, not failures that never ran); so do the means of
// states examined and memory, so a batch with unreadable lines is not averaged with zeros.
// nil where no job ran.
//
// Memory, three ways (issue 19): the solver's own peak (`memory`: a built-in search's accounting
// of its tables, or an outside solver's processes at their peak), which tells solvers apart;
// the worker's resident set above what it held idle (`rss_above_idle`); and the worker's whole
// resident set (`peak_rss`, mostly the worker's own baseline), kept for the exports only.
//
// Times, two ways (issue 43): wall time (`wall_*`: what a user waits, moved by whatever else
// the machine runs) and the solving thread's or outside solver tree's CPU time (`cpu_*`: the
// solve's own work), side by side, each named.

public struct GroupStatistics: Sendable, Hashable {
    public var kind: String
    public var solver: String
    public var band: String
    public var jobs: Int
    public var solved: Int
    public var unsolvable: Int
    public var cutoff: Int
    public var failed: Int
    public var invalid: Int
    public var wrong: Int
    /// Jobs that ran a solver: the sample the times and means describe.
    public var timedJobs: Int
    public var minSeconds: Double?
    public var meanSeconds: Double?
    /// The 95% confidence interval of the mean (Student's t): nil with fewer than two times.
    public var meanCI95: ClosedRange<Double>?
    public var medianSeconds: Double?
    public var p90Seconds: Double?
    public var p99Seconds: Double?
    public var maxSeconds: Double?
    /// The sample standard deviation; nil with fewer than two times.
    public var stddevSeconds: Double?
    public var examinedMean: Double?
    public var examinedMax: Int?
    public var peakRSSMeanBytes: Double?
    public var peakRSSMaxBytes: Int?
    /// The solver's own peak memory (JobResult.memoryBytes).
    public var memoryMeanBytes: Double?
    public var memoryMaxBytes: Int?
    /// The worker's peak resident set less what it held idle, before its first job.
    public var rssAboveIdleMeanBytes: Double?
    /// This solver's mean wall time over the first solver's of the same kind, in the same band.
    public var timeVsFirst: Double?
    /// The same of CPU time.
    public var cpuMeanSeconds: Double? = nil
    public var cpuMedianSeconds: Double? = nil
    public var cpuP90Seconds: Double? = nil
    public var cpuMaxSeconds: Double? = nil
    public var cpuVsFirst: Double? = nil

    /// The columns of the numeric formats, in order, with each row's value.
    public static let fields: [(name: String, value: @Sendable (GroupStatistics) -> ReportValue)] = [
        ("kind", { .text($0.kind) }), ("solver", { .text($0.solver) }), ("band", { .text($0.band) }),
        ("jobs", { .integer($0.jobs) }), ("solved", { .integer($0.solved) }), ("unsolvable", { .integer($0.unsolvable) }),
        ("cutoff", { .integer($0.cutoff) }), ("failed", { .integer($0.failed) }), ("invalid", { .integer($0.invalid) }),
        ("wrong", { .integer($0.wrong) }), ("timed_jobs", { .integer($0.timedJobs) }),
        ("wall_min_seconds", { .real($0.minSeconds) }), ("wall_mean_seconds", { .real($0.meanSeconds) }),
        ("wall_mean_ci95_low_seconds", { .real($0.meanCI95?.lowerBound) }), ("wall_mean_ci95_high_seconds", { .real($0.meanCI95?.upperBound) }),
        ("wall_median_seconds", { .real($0.medianSeconds) }), ("wall_p90_seconds", { .real($0.p90Seconds) }),
        ("wall_p99_seconds", { .real($0.p99Seconds) }), ("wall_max_seconds", { .real($0.maxSeconds) }),
        ("wall_stddev_seconds", { .real($0.stddevSeconds) }),
        ("cpu_mean_seconds", { .real($0.cpuMeanSeconds) }), ("cpu_median_seconds", { .real($0.cpuMedianSeconds) }),
        ("cpu_p90_seconds", { .real($0.cpuP90Seconds) }), ("cpu_max_seconds", { .real($0.cpuMaxSeconds) }),
        ("examined_mean", { .real($0.examinedMean) }),
        ("examined_max", { .integer($0.examinedMax) }), ("memory_mean_bytes", { .real($0.memoryMeanBytes) }),
        ("memory_max_bytes", { .integer($0.memoryMaxBytes) }), ("rss_above_idle_mean_bytes", { .real($0.rssAboveIdleMeanBytes) }),
        ("peak_rss_mean_bytes", { .real($0.peakRSSMeanBytes) }),
        ("peak_rss_max_bytes", { .integer($0.peakRSSMaxBytes) }), ("wall_vs_first", { .real($0.timeVsFirst) }),
        ("cpu_vs_first", { .real($0.cpuVsFirst) }),
    ]
}

/// A value of a numeric report: a number, a text, or nothing (JSON null, an empty CSV field).
public enum ReportValue: Sendable, Hashable {
    case integer(Int?)
    case real(Double?)
    case text(String?)
}

/// The mean's confidence interval from a sample's size, mean and standard deviation.
public enum ConfidenceInterval {
    /// Student's t at 97.5% (two-sided 95%) for 1 to 30 degrees of freedom; beyond, the normal
    /// quantile with the first terms of its expansion in 1/df, within 0.1% of the exact value.
    static let t975: [Double] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ]

    public static func tQuantile975(degreesOfFreedom df: Int) -> Double {
        precondition(df >= 1)
        if df <= t975.count { return t975[df - 1] }
        let z = 1.959964, n = Double(df)
        return z + (z * z * z + z) / (4 * n) + (5 * pow5(z) + 16 * z * z * z + 3 * z) / (96 * n * n)
    }

    private static func pow5(_ x: Double) -> Double { x * x * x * x * x }

    /// mean ± t · sd / √n; nil for fewer than two values.
    public static func ofMean(count: Int, mean: Double, standardDeviation: Double) -> ClosedRange<Double>? {
        guard count >= 2, standardDeviation.isFinite, mean.isFinite else { return nil }
        let half = tQuantile975(degreesOfFreedom: count - 1) * standardDeviation / Double(count).squareRoot()
        // No time is negative: on a skewed sample the normal interval would say so.
        return max(0, mean - half)...(mean + half)
    }
}
