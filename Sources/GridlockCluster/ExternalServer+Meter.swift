// What a serving solver's tree uses over one answer. With control groups: `cpuacct.usage` read
// before and after, and `memory.max_usage_in_bytes` reset before (so the peak is the tree's
// during the puzzle, what the server held already included); the kernel holds the memory limit.
// Without: the tree's processes from /proc, their CPU ticks (their own and their waited-for
// children's) and VmHWM (reset through `clear_refs`). The tree is looked for again at the
// start of a job after one of 20 ms or more, or every 256 jobs (a look at all of /proc costs
// about a millisecond), and at each look while a limit is set and at the end of a long job,
// so that a child the server starts for one puzzle is counted and held to the limits.

import Foundation
import GridlockWire

extension ExternalServer {
    struct Meter {
        let limits: JobLimits
        let cgroup: SolverCgroup?
        let watchdog: pid_t
        let members: [pid_t]
        let cpuAtStart: Double
        let oomKillsAtStart: Int
        private(set) var hit: ExternalProcess.LimitKind?
        private var peakSampled = 0
        private var cpuSampled = 0.0

        init(server: ExternalServer, limits: JobLimits) {
            self.limits = limits
            cgroup = server.cgroup
            watchdog = server.watchdog
            if let cgroup {
                cgroup.resetPeak()
                members = []
                cpuAtStart = cgroup.cpuSeconds
                oomKillsAtStart = limits.memoryBytes == nil ? 0 : cgroup.oomKills
            } else {
                if server.members.isEmpty || server.lastJobWasLong || server.jobsSinceLook >= 256 {
                    server.members = ProcessGroupSample.members(tree: server.watchdog)
                    server.jobsSinceLook = 0
                }
                server.jobsSinceLook += 1
                members = server.members
                for member in members { Self.resetPeak(of: member) }
                cpuAtStart = members.compactMap { ProcessGroupSample.usage(of: $0)?.cpuSeconds }.reduce(0, +)
                oomKillsAtStart = 0
            }
        }

        var oomKilled: Bool { hit == .memory }

        /// Looked at every 20 ms while the server works.
        mutating func overLimit() -> Bool {
            if hit != nil { return true }
            guard !limits.isEmpty else { return false }
            if let cgroup {
                if limits.memoryBytes != nil, cgroup.oomKills > oomKillsAtStart { hit = .memory }
                if hit == nil, let limit = limits.cpuSeconds, cgroup.cpuSeconds - cpuAtStart >= limit { hit = .cpu }
                return hit != nil
            }
            let (cpu, resident) = sampleTree()
            if let memory = limits.memoryBytes, resident >= memory { hit = .memory }
            if hit == nil, let limit = limits.cpuSeconds, cpu >= limit { hit = .cpu }
            return hit != nil
        }

        /// The job's CPU seconds and peak bytes, once it ended after `wall` seconds.
        mutating func finish(wall: Double) -> (cpu: Double, peak: Int) {
            if let cgroup {
                if limits.memoryBytes != nil, cgroup.oomKills > oomKillsAtStart { hit = .memory }
                return (max(0, cgroup.cpuSeconds - cpuAtStart), cgroup.peakBytes)
            }
            // A long job may have started processes the list at its start does not hold.
            if wall >= 0.02 || !limits.isEmpty { _ = sampleTree() }
            let usages = members.compactMap(ProcessGroupSample.usage(of:))
            let cpu = max(cpuSampled, usages.map(\.cpuSeconds).reduce(0, +) - cpuAtStart)
            let marks = members.map(Self.highWaterMark(of:)).reduce(0, +)
            return (max(0, cpu), max(marks, peakSampled))
        }

        /// The whole tree now: its CPU seconds since the job began and its resident bytes, the
        /// largest of each kept.
        private mutating func sampleTree() -> (cpu: Double, resident: Int) {
            let sample = ProcessGroupSample.take(tree: watchdog, orphansOf: nil)
            cpuSampled = max(cpuSampled, sample.cpuSeconds - cpuAtStart)
            peakSampled = max(peakSampled, sample.residentBytes)
            return (sample.cpuSeconds - cpuAtStart, sample.residentBytes)
        }

        private static func resetPeak(of pid: pid_t) {
            let descriptor = open("/proc/\(pid)/clear_refs", O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            _ = write(descriptor, "5", 1)
            close(descriptor)
        }

        /// A process's VmHWM, in bytes; 0 once it has ended.
        private static func highWaterMark(of pid: pid_t) -> Int {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
    }
}
