// The fallback measure of an outside solver's process tree, where no control group can be
// made: the tree sampled from /proc every 20 ms or so (every descendant of the watchdog, and
// the orphans the worker adopted as their reaper: a process that leaves the group with setsid
// stays in the tree), for CPU time (each one's own and its waited-for children's) and resident
// memory (their sum). A peak between two samples is missed; the shell's own usage at the end
// (reported by the watchdog) makes up what the samples could not see.

import Foundation
import GridlockCore

struct ProcessGroupSample: Sendable, Hashable {
    var cpuSeconds = 0.0
    var residentBytes = 0

    private static let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    private static let pageSize = sysconf(Int32(_SC_PAGESIZE))

    /// The tree under `root` now, `root` itself left out, with the trees of `reaper`'s other
    /// children (a solver's orphans, which the reaper adopted: setsid does not take a process
    /// out of its parent's tree).
    static func take(tree root: pid_t, orphansOf reaper: pid_t?) -> ProcessGroupSample {
        var processes: [pid_t: StatFields] = [:]
        var children: [pid_t: [pid_t]] = [:]
        forEachProcess { pid, fields in
            processes[pid] = fields
            children[fields.parent, default: []].append(pid)
        }
        var queue = children[root] ?? []
        if let reaper { queue += (children[reaper] ?? []).filter { $0 != root } }
        var seen: Set<pid_t> = [root]
        var sample = ProcessGroupSample()
        while let pid = queue.popLast() {
            guard seen.insert(pid).inserted, let fields = processes[pid] else { continue }
            sample.cpuSeconds += fields.cpuTicks / ticks
            sample.residentBytes += fields.residentPages * pageSize
            queue += children[pid] ?? []
        }
        return sample
    }

    /// The processes of the tree under `root` now, `root` itself left out.
    static func members(tree root: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        forEachProcess { pid, fields in children[fields.parent, default: []].append(pid) }
        var members: [pid_t] = []
        var queue = children[root] ?? []
        while let pid = queue.popLast() {
            members.append(pid)
            queue += children[pid] ?? []
        }
        return members
    }

    /// The CPU ticks (its own and its waited-for children's) and resident bytes of one process,
    /// from its stat; nil once it has ended.
    static func usage(of pid: pid_t) -> (cpuSeconds: Double, residentBytes: Int)? {
        guard let stat = KernelFile.text("/proc/\(pid)/stat"), let fields = fields(ofStat: stat) else { return nil }
        return (fields.cpuTicks / ticks, fields.residentPages * pageSize)
    }

    /// The processes whose parent is `parent`, from /proc.
    static func children(of parent: pid_t) -> [pid_t] {
        var children: [pid_t] = []
        forEachProcess { pid, fields in
            if fields.parent == parent { children.append(pid) }
        }
        return children
    }

    /// Each process in /proc with its stat's fields (one that ends meanwhile is passed over).
    private static func forEachProcess(_ body: (pid_t, StatFields) -> Void) {
        guard let directory = opendir("/proc") else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), let stat = KernelFile.text("/proc/\(name)/stat"),
                  let fields = Self.fields(ofStat: stat)
            else { continue }
            body(pid, fields)
        }
    }

    struct StatFields: Hashable {
        var parent: pid_t
        var group: pid_t
        var cpuTicks: Double
        var residentPages: Int
    }

    /// From /proc/PID/stat: the parent, the process group, the CPU ticks of the process and of its
    /// waited-for children, and the resident pages. The command name (field 2) may hold spaces
    /// and parentheses, so the fields are counted from the last ')'.
    static func fields(ofStat text: String) -> StatFields? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let rest = text[text.index(after: close)...].split(separator: " ")
        // rest[0] is field 3 (state): field N is rest[N - 3].
        guard rest.count > 21, let parent = pid_t(rest[1]), let group = pid_t(rest[2]) else { return nil }
        let ticks = [11, 12, 13, 14].compactMap { Double(rest[$0]) }.reduce(0, +)
        return StatFields(parent: parent, group: group, cpuTicks: ticks, residentPages: Int(rest[21]) ?? 0)
    }
}
