// What ExternalProcess looks at every 20 ms while an outside solver runs: whether its tree has
// passed a limit. With control groups the kernel holds the memory limit and counts the CPU
// time; without, the process group is sampled from /proc (only when a limit is set: a scan of
// /proc costs about a millisecond), and its largest figures kept for the measurement.

import Foundation
import GridlockWire

struct TreeWatch {
    let limits: JobLimits
    let group: pid_t
    let cgroup: SolverCgroup?
    /// The limit that was passed, once one was.
    private(set) var hit: ExternalProcess.LimitKind?
    /// The largest CPU time and resident set seen in the samples (none with a control group).
    private(set) var sampled = ProcessGroupSample()

    init(limits: JobLimits, group: pid_t, cgroup: SolverCgroup?) {
        self.limits = limits
        self.group = group
        self.cgroup = cgroup
    }

    mutating func overLimit() -> Bool {
        if hit != nil { return true }
        guard !limits.isEmpty else { return false }
        let cpu: Double
        if let cgroup {
            cpu = cgroup.cpuSeconds
        } else {
            let sample = ProcessGroupSample.take(group: group)
            sampled.cpuSeconds = max(sampled.cpuSeconds, sample.cpuSeconds)
            sampled.residentBytes = max(sampled.residentBytes, sample.residentBytes)
            cpu = sample.cpuSeconds
            if let memory = limits.memoryBytes, sample.residentBytes >= memory { hit = .memory }
        }
        if let limit = limits.cpuSeconds, cpu >= limit { hit = .cpu }
        return hit != nil
    }
}
