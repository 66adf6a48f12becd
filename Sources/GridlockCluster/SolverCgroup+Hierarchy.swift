// Where a worker makes its solvers' control groups: under its own group in v1's memory and
// cpuacct hierarchies (where both are mounted and writable), else under its own group in the
// v2 hierarchy (a systemd machine, most containers). GRIDLOCK_MEASURE picks one where a host
// has both (cgroup1, cgroup2), or the /proc fallback (proc), so that each path is tested on a
// machine where the others work.
//
// v2 lends its memory controller to a child only through the parent's cgroup.subtree_control,
// and a group other than the root may not both hold processes and lend it. A worker alone in
// its group (one per container or per systemd service with Delegate=yes) therefore moves
// itself into a leaf of its own, `gridlock-PID-0`, and lends memory from the group it left;
// a worker beside other processes leaves the group alone and measures memory from /proc.

import CProcessControl
import Foundation
import GridlockCore

extension SolverCgroup {
    enum Hierarchy {
        enum Version: Equatable, Sendable { case v1, v2 }

        struct Parents: Sendable {
            let version: Version
            let directories: [String]
        }

        enum Asked: String { case auto, proc, cgroup1, cgroup2 }

        /// The parents of this process's solver groups; nil where none can be made.
        static let parents: Parents? = {
            let text = getenv("GRIDLOCK_MEASURE").map { String(cString: $0) } ?? "auto"
            let asked = Asked(rawValue: text.isEmpty ? "auto" : text) ?? {
                FileHandle.standardError.write(Data("gridlock: GRIDLOCK_MEASURE=\(text) is none of proc, cgroup1, cgroup2: choosing as if unset\n".utf8))
                return .auto
            }()
            let cgroups = KernelFile.text("/proc/self/cgroup") ?? ""
            let mounts = KernelFile.text("/proc/self/mountinfo") ?? ""
            return find(asked: asked, cgroups: cgroups, mountinfo: mounts)
        }()

        static func find(asked: Asked, cgroups: String, mountinfo: String) -> Parents? {
            if asked == .proc { return nil }
            if asked != .cgroup2,
               let memory = directory(of: "memory", cgroups: cgroups, mountinfo: mountinfo),
               let cpuacct = directory(of: "cpuacct", cgroups: cgroups, mountinfo: mountinfo),
               access(memory, W_OK) == 0, access(cpuacct, W_OK) == 0 {
                return Parents(version: .v1, directories: [memory, cpuacct])
            }
            guard asked != .cgroup1, let unified = directory(of: nil, cgroups: cgroups, mountinfo: mountinfo), access(unified, W_OK) == 0
            else { return nil }
            lendMemory(from: unified, namespaceRoot: cgroups.split(separator: "\n").contains("0::/"))
            return Parents(version: .v2, directories: [unified])
        }

        /// Lends `group`'s children the memory controller where the group has it and does not
        /// lend it yet: at once where the kernel lets it (the root group, or one with no
        /// processes), else after moving this process into a leaf where it is the group's only one.
        /// Only in a group that is this process's to manage: a namespace's root (a container's
        /// own), or one systemd delegated (marked so since systemd 251): in another, systemd may
        /// take the controller back when it next applies the unit, and the limits with it.
        private static func lendMemory(from group: String, namespaceRoot: Bool) {
            let read = { (name: String) in ((try? String(contentsOfFile: group + "/" + name, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace) }
            guard read("cgroup.controllers").contains("memory"), !read("cgroup.subtree_control").contains("memory"),
                  namespaceRoot || isDelegated(group)
            else { return }
            if SolverCgroup.write("+memory", to: group + "/cgroup.subtree_control") { return }
            guard SolverCgroup.pids(in: group) == [getpid()] else { return }
            // Number 0: never a solver's (theirs count from 1), and removed as abandoned by the
            // next worker once this one has ended.
            let leaf = group + "/gridlock-\(getpid())-0"
            guard mkdir(leaf, 0o755) == 0 || errno == EEXIST, SolverCgroup.write("\(getpid())", to: leaf + "/cgroup.procs") else { return }
            _ = SolverCgroup.write("+memory", to: group + "/cgroup.subtree_control")
        }

        private static func isDelegated(_ group: String) -> Bool {
            var value: UInt8 = 0
            for name in ["trusted.delegate", "user.delegate"] where getxattr(group, name, &value, 1) > 0 && value == UInt8(ascii: "1") {
                return true
            }
            return false
        }

        /// Where a hierarchy keeps this process's group: `controller`'s v1 mount, or the v2
        /// mount where `controller` is nil (from mountinfo: fstype cgroup with the controller
        /// among the super options, or fstype cgroup2), joined with the group's path (from
        /// /proc/self/cgroup), less the mount's own root within the hierarchy.
        static func directory(of controller: String?, cgroups: String, mountinfo: String) -> String? {
            guard let path = cgroups.split(separator: "\n").lazy.compactMap({ line -> Substring? in
                let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3 else { return nil }
                if let controller { return parts[1].split(separator: ",").contains(Substring(controller)) ? parts[2] : nil }
                return parts[0] == "0" && parts[1].isEmpty ? parts[2] : nil
            }).first else { return nil }
            for line in mountinfo.split(separator: "\n") {
                let halves = line.components(separatingCharacters: " - ")
                guard halves.count == 2 else { continue }
                let fields = halves[0].split(separator: " "), tail = halves[1].split(separator: " ")
                guard fields.count >= 5, tail.count >= 3 else { continue }
                if let controller {
                    guard tail[0] == "cgroup", tail[2].split(separator: ",").contains(Substring(controller)) else { continue }
                } else {
                    guard tail[0] == "cgroup2" else { continue }
                }
                let root = String(fields[3]), mount = String(fields[4])
                var inside = String(path)
                if root != "/", inside.hasPrefix(root) { inside.removeFirst(root.count) }
                return inside == "/" || inside.isEmpty ? mount : mount + (inside.hasPrefix("/") ? inside : "/" + inside)
            }
            return nil
        }
    }

    /// Groups a worker made and could not remove (it was killed mid-run: its watchdog killed the
    /// solver, but nobody removed the directories), removed by the next worker to look.
    static func removeAbandoned(in parent: String, version: Hierarchy.Version) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names {
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0] == "gridlock", let owner = pid_t(parts[1]), kill(owner, 0) != 0, errno == ESRCH else { continue }
            removeGroups(under: parent + "/" + name, version: version)
        }
    }
}

private extension Substring {
    func components(separatingCharacters separator: String) -> [Substring] {
        guard let range = range(of: separator) else { return [self] }
        return [self[..<range.lowerBound], self[range.upperBound...]]
    }
}
