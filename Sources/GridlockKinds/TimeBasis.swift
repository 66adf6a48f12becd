// Which time a figure is of (issue 43). One batch's ratio used to read 86.8x in the ratios
// table (CPU time, because the batch had a CPU limit), about 271x in the HTML chart (wall
// time) and 134.9x in "time vs first" (a ratio of wall means), none saying which. A report now
// takes one basis for every score, ratio and chart, and names it in each.

public enum TimeBasis: String, Sendable, Hashable, CaseIterable, Codable {
    /// The solver's CPU time: its solving thread's, or an outside solver's whole process
    /// tree's. It moves less than wall time when the machine is loaded.
    case cpu
    /// Wall-clock time, from the job's start to its answer.
    case wall

    /// What a report prints beside a figure of this basis: "CPU", "wall".
    public var label: String {
        switch self {
        case .cpu: "CPU"
        case .wall: "wall"
        }
    }

    /// The limit of this basis that PAR-2 doubles for an unsolved puzzle: the CPU limit (else
    /// the wall limit) for CPU time, the wall limit (else the one a CPU limit implies) for wall.
    public func limit(cpuSeconds: Double?, wallSeconds: Double?) -> Double? {
        switch self {
        case .cpu: cpuSeconds ?? wallSeconds
        case .wall: wallSeconds ?? cpuSeconds.map(Self.impliedWallSeconds)
        }
    }

    /// The wall-time limit a CPU limit implies when none is given, as BenchExec sets it: twice
    /// the CPU limit plus a second. Without it a solver that sleeps or waits uses no CPU and is
    /// never stopped. At most 1e9 s, the most any time flag takes: a limit from the wire is only
    /// known to be finite, and a deadline past Duration's range traps.
    public static func impliedWallSeconds(_ cpuSeconds: Double) -> Double { min(2 * cpuSeconds + 1, 1e9) }
}
