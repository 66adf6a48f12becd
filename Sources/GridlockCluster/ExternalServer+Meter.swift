// What a serving solver's tree uses over one answer. With control groups: the group's CPU
// time read before and after; its memory where the group holds memory and its peak can be
// started over (v1's `memory.max_usage_in_bytes`, v2's `memory.peak` from kernel 6.12): reset
// before, so that the peak is the tree's during the puzzle, what the server held already
// included; the kernel holds the memory limit wherever the group holds memory. Otherwise the
// memory (and without a group, the CPU time too) is read from /proc: the processes' CPU ticks
// (their own and their waited-for children's) and VmHWM (reset through `clear_refs`). The
// processes are the group's where there is one; else the tree is looked for again at the
// start of a job after one of 20 ms or more, or every 256 jobs (a look at all of /proc costs
// about a millisecond), and at each look while a limit is set and at the end of a long job,
// so that a child the server starts for one puzzle is counted and held to the limits.

import Foundation
import GridlockCore
import GridlockWire

extension ExternalServer {
    struct Meter {
        let limits: JobLimits
        /// The server's group, for its CPU time and its OOM kills.
        let cgroup: SolverCgroup?
        /// The group again where its peak is the job's own.
        let peakGroup: SolverCgroup?
        let watchdog: pid_t
        /// The processes whose memory (and, without a group, CPU time) is read from /proc.
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
            peakGroup = cgroup.flatMap { $0.keepsPeak && $0.peakResets ? $0 : nil }
            if let peakGroup {
                peakGroup.resetPeak()
                members = []
            } else if let cgroup {
                members = cgroup.members()
            } else {
                if server.members.isEmpty || server.lastJobWasLong || server.jobsSinceLook >= 256 {
                    server.members = ProcessGroupSample.members(tree: server.watchdog)
                    server.jobsSinceLook = 0
                }
                server.jobsSinceLook += 1
                members = server.members
            }
            for member in members { Self.resetPeak(of: member) }
            oomKillsAtStart = limits.memoryBytes == nil ? 0 : cgroup?.oomKills ?? 0
            cpuAtStart = cgroup?.cpuSeconds ?? members.compactMap { ProcessGroupSample.usage(of: $0)?.cpuSeconds }.reduce(0, +)
        }

        var oomKilled: Bool { hit == .memory }

        /// Looked at every 20 ms while the server works.
        mutating func overLimit() -> Bool {
            if hit != nil { return true }
            guard !limits.isEmpty else { return false }
            if let cgroup, limits.memoryBytes != nil, cgroup.oomKills > oomKillsAtStart { hit = .memory }
            if hit == nil {
                let (cpu, resident) = sample()
                if let memory = limits.memoryBytes, let resident, resident >= memory { hit = .memory }
                if hit == nil, let limit = limits.cpuSeconds, cpu >= limit { hit = .cpu }
            }
            return hit != nil
        }

        /// The job's CPU seconds and peak bytes, once it ended after `wall` seconds.
        mutating func finish(wall: Double) -> (cpu: Double, peak: Int) {
            if let cgroup, limits.memoryBytes != nil, cgroup.oomKills > oomKillsAtStart { hit = .memory }
            // A long job may have started processes the list at its start does not hold.
            if peakGroup == nil, wall >= 0.02 || !limits.isEmpty { _ = sample() }
            let cpu: Double
            if let cgroup {
                cpu = cgroup.cpuSeconds - cpuAtStart
            } else {
                let usages = members.compactMap(ProcessGroupSample.usage(of:))
                cpu = max(cpuSampled, usages.map(\.cpuSeconds).reduce(0, +) - cpuAtStart)
            }
            let peak = peakGroup?.peakBytes ?? max(members.map(Self.highWaterMark(of:)).reduce(0, +), peakSampled)
            return (max(0, cpu), peak)
        }

        /// The CPU seconds since the job began, and the resident bytes now where the kernel does
        /// not keep the peak (nil where it does), the largest of each kept.
        private mutating func sample() -> (cpu: Double, resident: Int?) {
            let cpu: Double
            var resident: Int?
            if let cgroup {
                cpu = cgroup.cpuSeconds - cpuAtStart
                if peakGroup == nil {
                    // Every process in the group now, a child started for this puzzle included.
                    resident = cgroup.residentBytes()
                }
            } else {
                let tree = ProcessGroupSample.take(tree: watchdog, orphansOf: nil)
                (cpu, resident) = (tree.cpuSeconds - cpuAtStart, tree.residentBytes)
            }
            cpuSampled = max(cpuSampled, cpu)
            peakSampled = max(peakSampled, resident ?? 0)
            return (cpu, resident)
        }

        private static func resetPeak(of pid: pid_t) {
            let descriptor = open("/proc/\(pid)/clear_refs", O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            _ = write(descriptor, "5", 1)
            close(descriptor)
        }

        /// A process's VmHWM, in bytes; 0 once it has ended.
        private static func highWaterMark(of pid: pid_t) -> Int {
            guard let status = KernelFile.text("/proc/\(pid)/status"),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
    }
}
