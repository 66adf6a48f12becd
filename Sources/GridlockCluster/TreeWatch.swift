// What ExternalProcess looks at every 20 ms while an outside solver runs, and once more at the
// end: whether its tree has passed a limit. With control groups the kernel counts the CPU time,
// and holds the memory limit where the group holds memory (an OOM kill in the group makes the
// whole run a memout: the tree is killed, as BenchExec does); where it does not (v2 without
// the memory controller), the group's processes are sampled from /proc for memory. Without a
// group, the tree is sampled from /proc (only when a limit is set: a scan costs about a
// millisecond). The largest figures sampled are kept.

import Foundation
import GridlockWire

struct TreeWatch {
    let limits: JobLimits
    /// The watchdog that leads the solver's process group: the tree's root, not its part.
    let watchdog: pid_t
    let cgroup: SolverCgroup?
    /// The limit that was passed, once one was.
    private(set) var hit: ExternalProcess.LimitKind?
    /// The largest CPU time and resident set seen in the samples (none with a control group
    /// that keeps its peak).
    private(set) var sampled = ProcessGroupSample()

    init(limits: JobLimits, watchdog: pid_t, cgroup: SolverCgroup?) {
        self.limits = limits
        self.watchdog = watchdog
        self.cgroup = cgroup
    }

    mutating func overLimit() -> Bool {
        if hit != nil { return true }
        guard !limits.isEmpty else { return false }
        if let cgroup {
            var resident: Int?
            if !cgroup.keepsPeak, limits.memoryBytes != nil {
                // Every process in the group, escaped from the tree or not.
                let bytes = cgroup.residentBytes()
                sampled.residentBytes = max(sampled.residentBytes, bytes)
                resident = bytes
            }
            judge(cpuSeconds: cgroup.cpuSeconds, peakBytes: resident)
        } else {
            // The watchdog's descendants, and what escaped it to this process as their reaper.
            let reaper = ExternalProcess.reapsEveryChild.load(ordering: .relaxed) ? getpid() : nil
            let sample = ProcessGroupSample.take(tree: watchdog, orphansOf: reaper)
            sampled.cpuSeconds = max(sampled.cpuSeconds, sample.cpuSeconds)
            sampled.residentBytes = max(sampled.residentBytes, sample.residentBytes)
            judge(cpuSeconds: sample.cpuSeconds, peakBytes: sample.residentBytes)
        }
        return hit != nil
    }

    /// The run's final CPU time, judged: a tree may pass its CPU limit and end between two
    /// looks. Not its final peak: with a control group the kernel held the memory limit (only
    /// its OOM kill says it was met: the peak reaches the limit whenever the kernel reclaims
    /// the page cache); without one, the kernel's peak of the shell includes the pages it had
    /// before exec, as a fork of the worker (megabytes a `cat` never used), so only what the
    /// samples saw resident is held against the limit.
    mutating func judgeFinal(cpuSeconds: Double) {
        guard hit == nil else { return }
        judge(cpuSeconds: cpuSeconds, peakBytes: nil)
    }

    private mutating func judge(cpuSeconds: Double, peakBytes: Int?) {
        if let cgroup, limits.memoryBytes != nil, cgroup.oomKills > 0 { hit = .memory }
        if let memory = limits.memoryBytes, let peakBytes, peakBytes >= memory { hit = .memory }
        if hit == nil, let limit = limits.cpuSeconds, cpuSeconds >= limit { hit = .cpu }
    }
}
