// The memory a control group lets this process use: what a container, a systemd slice or a
// Slurm job with a memory limit allows, which may be far less than the machine's. The default
// memory budget is a quarter of the smaller of the two: a quarter of a 1 TiB node is no
// default for a job that may use 16 GiB.
//
// Read once, at the first default budget, from /proc/self/cgroup and the cgroup file systems
// (v1: memory.limit_in_bytes of the memory hierarchy; v2: memory.max of the unified one), the
// process's group and every group above it: the tightest limit holds. A missing or unreadable
// file is no limit.

import Foundation

enum ControlGroupMemory {
    /// The tightest limit on this process's group and its ancestors, in bytes; nil when none.
    static func limit(
        membership: String? = KernelFile.text("/proc/self/cgroup"),
        root: String = "/sys/fs/cgroup",
        read: (String) -> String? = { KernelFile.text($0) }
    ) -> Int? {
        guard let membership else { return nil }
        var limits: [Int] = []
        for line in membership.split(separator: "\n") {
            // hierarchy-id:controllers:path
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let controllers = fields[1].split(separator: ",")
            let file: String
            let directory: String
            if controllers.contains("memory") {
                (directory, file) = (root + "/memory", "memory.limit_in_bytes")
            } else if fields[0] == "0", fields[1].isEmpty {
                (directory, file) = (root + (FileManager.default.fileExists(atPath: root + "/unified") ? "/unified" : ""), "memory.max")
            } else {
                continue
            }
            for group in ancestry(of: String(fields[2])) {
                if let text = read(directory + group + "/" + file), let bytes = Self.bytes(text) { limits.append(bytes) }
            }
        }
        return limits.min()
    }

    /// A limit file's value; nil for "max" and for v1's "no limit" (a page short of Int64.max).
    static func bytes(_ text: String) -> Int? {
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0, value < 1 << 62 else { return nil }
        return value
    }

    /// "/a/b" and the groups above it: "/a/b", "/a", "".
    static func ancestry(of path: String) -> [String] {
        var groups: [String] = []
        var parts = path.split(separator: "/")
        while !parts.isEmpty {
            groups.append("/" + parts.joined(separator: "/"))
            parts.removeLast()
        }
        return groups + [""]
    }
}
