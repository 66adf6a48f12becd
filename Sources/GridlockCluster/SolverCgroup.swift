// An outside solver's own control group, made for one run under the worker's own: the kernel
// counts every process the solver starts, however it escapes its process group, holds their
// memory under the limit (killing the largest when it would pass it), and reports the tree's
// CPU time and peak memory. Either v1's `memory` and `cpuacct` groups, or one v2 group: its
// cpu.stat is always there; its memory files only where the parent delegates the memory
// controller (a v2 group without them is measured for memory from /proc, as is a run with no
// group: ExternalProcess and ExternalServer.Meter sample it). Where no group can be made (no
// root, no writable hierarchy), ExternalProcess samples /proc instead (ProcessGroupSample).

import Foundation
import GridlockCore
import Synchronization

final class SolverCgroup {
    /// The directories this run made: v1's memory and cpuacct groups, or v2's one.
    let directories: [String]
    let version: Hierarchy.Version
    /// Whether the kernel holds this group's memory (its limit, peak and OOM kills).
    let holdsMemory: Bool
    /// Each directory's `cgroup.procs`, open for the solver's shell to join before it runs anything.
    private(set) var procs: [Int32] = []
    /// v2's memory.peak, held open: a reset (kernel 6.12 and later) holds for reads through the
    /// descriptor that wrote it.
    private var peakDescriptor: Int32 = -1
    /// Whether the peak can be started over for each of a serving solver's jobs.
    private(set) var peakResets: Bool

    /// Whether runs here are measured by control groups (one made and removed: a directory
    /// that access(2) calls writable may still refuse mkdir). The worker says which in its
    /// machine record.
    static var available: Bool { measure != nil }

    /// How runs here are measured, as the machine record says it; nil without groups.
    static let measure: String? = {
        guard let parents = Hierarchy.parents else { return nil }
        for parent in parents.directories { removeAbandoned(in: parent, version: parents.version) }
        guard let probe = SolverCgroup(memoryLimitBytes: nil) else { return nil }
        switch (probe.version, probe.holdsMemory, probe.keepsPeak, probe.peakResets) {
        case (.v1, _, _, _): return "cgroup v1 memory + cpuacct"
        case (.v2, true, true, true): return "cgroup v2 cpu + memory"
        case (.v2, true, true, false): return "cgroup v2 cpu + memory (a served job's peak from /proc: no memory.peak reset before kernel 6.12)"
        case (.v2, true, false, _): return "cgroup v2 cpu + memory limit (the peak from /proc: no memory.peak before kernel 5.19)"
        case (.v2, false, _, _): return "cgroup v2 cpu; memory from /proc samples (no memory controller lent)"
        }
    }()

    private static let counter = Mutex(0)

    init?(memoryLimitBytes: Int?, parents: Hierarchy.Parents? = Hierarchy.parents) {
        guard let parents else { return nil }
        let number = Self.counter.withLock { value in
            value += 1
            return value
        }
        let name = "gridlock-\(getpid())-\(number)"
        version = parents.version
        directories = parents.directories.map { $0 + "/" + name }
        peakResets = parents.version == .v1
        var made: [String] = []
        // Never one that exists: another process's (a reused pid's) figures would be taken as ours.
        for directory in directories {
            guard mkdir(directory, 0o755) == 0 else {
                for directory in made { rmdir(directory) }
                return nil
            }
            made.append(directory)
        }
        let memory = directories[0]
        holdsMemory = version == .v1 || access(memory + "/memory.max", W_OK) == 0
        if let memoryLimitBytes, holdsMemory {
            guard Self.write("\(memoryLimitBytes)", to: memory + (version == .v1 ? "/memory.limit_in_bytes" : "/memory.max")) else {
                remove()
                return nil
            }
            // A solver must not get past its limit by swapping. v1's limit on memory and swap
            // together goes after the memory limit (it may not be below it); v2 limits swap alone.
            if version == .v1 {
                _ = Self.write("\(memoryLimitBytes)", to: memory + "/memory.memsw.limit_in_bytes")
            } else {
                _ = Self.write("0", to: memory + "/memory.swap.max")
            }
        }
        if version == .v2, holdsMemory {
            // Read-only before kernel 6.12, where a write is refused.
            peakDescriptor = open(memory + "/memory.peak", O_RDWR | O_CLOEXEC)
            if peakDescriptor < 0 { peakDescriptor = open(memory + "/memory.peak", O_RDONLY | O_CLOEXEC) }
            peakResets = peakDescriptor >= 0 && Glibc.write(peakDescriptor, "reset\n", 6) == 6
        }
        for directory in directories {
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
    var cpuSeconds: Double {
        switch version {
        case .v1: Double(Self.number(in: directories[1] + "/cpuacct.usage") ?? 0) / 1e9
        case .v2: Double(Self.field("usage_usec", in: directories[0] + "/cpu.stat") ?? 0) / 1e6
        }
    }

    /// Whether the kernel keeps the group's peak memory (v2's memory.peak is from kernel 5.19);
    /// where it does not, the memory is sampled from /proc.
    var keepsPeak: Bool { holdsMemory && (version == .v1 || peakDescriptor >= 0) }

    /// The most memory the group held at once (since the last reset); nil where the kernel does
    /// not keep it.
    var peakBytes: Int? {
        guard keepsPeak else { return nil }
        switch version {
        case .v1: return Self.number(in: directories[0] + "/memory.max_usage_in_bytes") ?? 0
        case .v2:
            guard peakDescriptor >= 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(peakDescriptor, &buffer, buffer.count, 0)
            return count > 0 ? Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        }
    }

    /// Starts the peak over: a serving solver's group lives for many jobs, and each job's peak
    /// is its own (ExternalServer). Where it cannot be (v2 before kernel 6.12), peakResets is false.
    func resetPeak() {
        switch version {
        case .v1: _ = Self.write("0", to: directories[0] + "/memory.max_usage_in_bytes")
        case .v2: if peakResets { _ = pwrite(peakDescriptor, "reset\n", 6, 0) }
        }
    }

    /// How many processes of the group the kernel killed for its memory limit. (v1's
    /// memory.failcnt also counts the page cache reclaimed at the limit, which a solver that
    /// reads files meets without running out of memory.)
    var oomKills: Int {
        guard holdsMemory else { return 0 }
        return Self.field("oom_kill", in: directories[0] + (version == .v1 ? "/memory.oom_control" : "/memory.events")) ?? 0
    }

    /// The group's processes now, those in groups made under it included (a solver may make
    /// them where the group is delegated to its user: they are still its tree).
    func members() -> [pid_t] { Self.groups(under: directories[0]).flatMap(Self.pids(in:)) }

    /// The resident bytes of the group's processes now, from /proc: its memory where the kernel
    /// keeps no peak of it (TreeWatch, ExternalServer.Meter).
    func residentBytes() -> Int {
        members().compactMap { ProcessGroupSample.usage(of: $0)?.residentBytes }.reduce(0, +)
    }

    /// `directory` and every group below it, each before its own children.
    static func groups(under directory: String) -> [String] {
        var found: [String] = []
        var queue = [directory]
        while let group = queue.popLast(), found.count < 10_000 {
            found.append(group)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: group)) ?? []
            for name in names {
                var status = stat()
                if lstat(group + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { queue.append(group + "/" + name) }
            }
        }
        return found
    }

    /// Kills every process in the groups: at once through v2's cgroup.kill (kernel 5.14 and
    /// later: no process can fork its way past it), else one by one.
    func killMembers() {
        for directory in directories { Self.killAll(in: directory, version: version) }
    }

    static func killAll(in directory: String, version: Hierarchy.Version) {
        if version == .v2, write("1", to: directory + "/cgroup.kill") { return }
        for group in groups(under: directory) {
            for pid in pids(in: group) { kill(pid, SIGKILL) }
        }
    }

    /// Kills what is left in the groups and removes them (a group with a process in it cannot be).
    func remove() {
        for descriptor in procs { close(descriptor) }
        procs = []
        if peakDescriptor >= 0 { close(peakDescriptor) }
        peakDescriptor = -1
        for directory in directories { Self.removeGroups(under: directory, version: version) }
    }

    /// Kills what is in `directory`'s groups and removes them, the deepest first.
    static func removeGroups(under directory: String, version: Hierarchy.Version) {
        for group in groups(under: directory).reversed() {
            for _ in 0..<50 {
                if rmdir(group) == 0 || errno == ENOENT { break }
                killAll(in: group, version: version)
                usleep(2_000)
            }
        }
    }

    static func pids(in directory: String) -> [pid_t] {
        ((try? String(contentsOfFile: directory + "/cgroup.procs", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    private static func number(in path: String) -> Int? {
        KernelFile.text(path).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// A flat-keyed file's value for `key` ("oom_kill 3", "usage_usec 410044").
    static func field(_ key: String, in path: String) -> Int? {
        let text = KernelFile.text(path) ?? ""
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, words[0] == key { return Int(words[1]) }
        }
        return nil
    }

    static func write(_ text: String, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return Glibc.write(descriptor, text, text.utf8.count) == text.utf8.count
    }
}
