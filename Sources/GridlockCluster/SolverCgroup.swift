// An outside solver's own control groups (cgroup v1 `memory` and `cpuacct`, which these
// machines mount writable for root), made for one run under the worker's own: the kernel
// counts every process the solver starts, however it escapes its process group, holds their
// memory under the limit (killing the largest when it would pass it), and reports the tree's
// CPU time and peak memory. Where they cannot be made (no root, cgroup v2 only, no such
// hierarchy), ExternalProcess samples /proc instead (ProcessGroupSample).

import Foundation
import Synchronization

final class SolverCgroup {
    /// The two directories this run made, and their `cgroup.procs`, open for the solver's
    /// shell to join before it runs anything.
    let memory: String
    let cpuacct: String
    private(set) var procs: [Int32] = []
    let memoryLimitBytes: Int?

    /// The hierarchies' directories for this process's own groups; nil where either is missing,
    /// or where GRIDLOCK_MEASURE=proc asks for the fallback (to test it where groups work).
    static let parents: (memory: String, cpuacct: String)? = {
        if getenv("GRIDLOCK_MEASURE").map({ String(cString: $0) }) == "proc" { return nil }
        let cgroups = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        let mounts = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        guard let memory = directory(of: "memory", cgroups: cgroups, mountinfo: mounts),
              let cpuacct = directory(of: "cpuacct", cgroups: cgroups, mountinfo: mounts),
              access(memory, W_OK) == 0, access(cpuacct, W_OK) == 0
        else { return nil }
        return (memory, cpuacct)
    }()

    /// Whether runs here are measured by control groups (one made and removed: a directory
    /// that access(2) calls writable may still refuse mkdir). The worker says which in its
    /// machine record.
    static let available: Bool = {
        guard let parents else { return false }
        for parent in [parents.memory, parents.cpuacct] { removeAbandoned(in: parent) }
        return SolverCgroup(memoryLimitBytes: nil) != nil
    }()

    /// Groups a worker made and could not remove (it was killed mid-run: its watchdog killed the
    /// solver, but nobody removed the directories), removed by the next worker to look.
    static func removeAbandoned(in parent: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names {
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0] == "gridlock", let owner = pid_t(parts[1]), kill(owner, 0) != 0, errno == ESRCH else { continue }
            let directory = parent + "/" + name
            for pid in pids(in: directory) { kill(pid, SIGKILL) }
            for _ in 0..<50 where rmdir(directory) != 0 && errno == EBUSY { usleep(2_000) }
        }
    }

    private static let counter = Mutex(0)

    init?(memoryLimitBytes: Int?) {
        guard let parents = Self.parents else { return nil }
        let number = Self.counter.withLock { value in
            value += 1
            return value
        }
        let name = "gridlock-\(getpid())-\(number)"
        memory = parents.memory + "/" + name
        cpuacct = parents.cpuacct + "/" + name
        self.memoryLimitBytes = memoryLimitBytes
        // Never one that exists: another process's (a reused pid's) figures would be taken as ours.
        guard mkdir(memory, 0o755) == 0 else { return nil }
        guard mkdir(cpuacct, 0o755) == 0 else {
            rmdir(memory)
            return nil
        }
        if let memoryLimitBytes {
            // The swap limit, where the kernel has one, after the memory limit (it may not be
            // below it): a solver must not get past its limit by swapping.
            guard Self.write("\(memoryLimitBytes)", to: memory + "/memory.limit_in_bytes") else {
                remove()
                return nil
            }
            _ = Self.write("\(memoryLimitBytes)", to: memory + "/memory.memsw.limit_in_bytes")
        }
        for directory in [memory, cpuacct] {
            let descriptor = open(directory + "/cgroup.procs", O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                remove()
                return nil
            }
            procs.append(descriptor)
        }
    }

    deinit { remove() }

    /// CPU seconds of every process that was in the group.
    var cpuSeconds: Double { Double(Self.number(in: cpuacct + "/cpuacct.usage") ?? 0) / 1e9 }

    /// The most memory the group held at once.
    var peakBytes: Int { Self.number(in: memory + "/memory.max_usage_in_bytes") ?? 0 }

    /// Starts the peak over: a serving solver's group lives for many jobs, and each job's peak
    /// is its own (ExternalServer).
    func resetPeak() { _ = Self.write("0", to: memory + "/memory.max_usage_in_bytes") }

    /// How many processes of the group the kernel killed for its memory limit. (memory.failcnt
    /// also counts the page cache reclaimed at the limit, which a solver that reads files meets
    /// without running out of memory.)
    var oomKills: Int {
        let control = (try? String(contentsOfFile: memory + "/memory.oom_control", encoding: .utf8)) ?? ""
        return control.split(separator: "\n").first { $0.hasPrefix("oom_kill ") }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// Kills what is left in the groups and removes them (a group with a process in it cannot be).
    func remove() {
        for descriptor in procs { close(descriptor) }
        procs = []
        for directory in [memory, cpuacct] {
            for _ in 0..<50 {
                if rmdir(directory) == 0 || errno == ENOENT { break }
                for pid in Self.pids(in: directory) { kill(pid, SIGKILL) }
                usleep(2_000)
            }
        }
    }

    static func pids(in directory: String) -> [pid_t] {
        ((try? String(contentsOfFile: directory + "/cgroup.procs", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    private static func number(in path: String) -> Int? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func write(_ text: String, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return Glibc.write(descriptor, text, text.utf8.count) == text.utf8.count
    }

    /// Where `controller`'s hierarchy keeps this process's group: its v1 mount (from
    /// mountinfo: fstype cgroup, the controller among the super options) joined with the
    /// group's path (from /proc/self/cgroup), less the mount's own root within the hierarchy.
    static func directory(of controller: String, cgroups: String, mountinfo: String) -> String? {
        guard let path = cgroups.split(separator: "\n").lazy.compactMap({ line -> Substring? in
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            return parts.count == 3 && parts[1].split(separator: ",").contains(Substring(controller)) ? parts[2] : nil
        }).first else { return nil }
        for line in mountinfo.split(separator: "\n") {
            let halves = line.components(separatingCharacters: " - ")
            guard halves.count == 2 else { continue }
            let fields = halves[0].split(separator: " "), tail = halves[1].split(separator: " ")
            guard fields.count >= 5, tail.count >= 3, tail[0] == "cgroup", tail[2].split(separator: ",").contains(Substring(controller)) else { continue }
            let root = String(fields[3]), mount = String(fields[4])
            var inside = String(path)
            if root != "/", inside.hasPrefix(root) { inside.removeFirst(root.count) }
            return inside == "/" || inside.isEmpty ? mount : mount + (inside.hasPrefix("/") ? inside : "/" + inside)
        }
        return nil
    }
}

private extension Substring {
    func components(separatingCharacters separator: String) -> [Substring] {
        guard let range = range(of: separator) else { return [self] }
        return [self[..<range.lowerBound], self[range.upperBound...]]
    }
}
