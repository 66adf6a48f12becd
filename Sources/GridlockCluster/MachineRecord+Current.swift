// The machine a worker runs on, read from /proc and /sys once at start. The readings are pure
// functions of the files' text, so they are tested on other machines' files.

import Foundation
import GridlockCore
import GridlockWire

extension MachineRecord {
    /// This machine, with the measurement method the worker uses.
    public static func current(host: String = ProcessInfo.processInfo.hostName) -> MachineRecord {
        func read(_ path: String) -> String? { KernelFile.text(path) }
        let cpu = CPUInfo(read("/proc/cpuinfo") ?? "")
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return MachineRecord(
            host: host, cpuModel: cpu.model, cores: cpu.cores, threads: cpu.threads,
            governor: read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").map(firstLine),
            turbo: turbo(noTurbo: read("/sys/devices/system/cpu/intel_pstate/no_turbo"), boost: read("/sys/devices/system/cpu/cpufreq/boost")),
            kernel: kernel, memoryBytes: memoryBytes(meminfo: read("/proc/meminfo") ?? ""),
            loadAverage: loadAverage(read("/proc/loadavg") ?? ""),
            method: method(clearRefsWritable: access("/proc/self/clear_refs", W_OK) == 0, controlGroups: SolverCgroup.measure),
            codePath: runningCodePath, megahertz: cpu.megahertz, smt: smt(active: read("/sys/devices/system/cpu/smt/active"), cpu: cpu))
    }

    /// The path this process's solvers take: set once at start (GridlockCommands' SolverPaths).
    public static var runningCodePath: String {
        RushHourBFSSolver.wideSearch.withLock { $0 != nil } ? "x86-64-v4" : "portable"
    }

    /// "on" or "off": the kernel's own word where /sys gives it, else whether there are more
    /// hardware threads than cores.
    static func smt(active: String?, cpu: CPUInfo) -> String? {
        if let active = active.map(firstLine), ["0", "1"].contains(active) { return active == "1" ? "on" : "off" }
        return cpu.threads > 0 && cpu.cores > 0 ? (cpu.threads > cpu.cores ? "on" : "off") : nil
    }

    /// What /proc/cpuinfo says of the CPUs: the first model name, hardware threads (processor
    /// entries) and physical cores (distinct physical id and core id; threads where not said).
    struct CPUInfo {
        var model = "unknown"
        var threads = 0
        var cores = 0
        /// The mean of the threads' "cpu MHz" (0 where none is given, as on some ARM kernels).
        var megahertz = 0.0

        init(_ text: String) {
            var coreIDs: Set<[String]> = []
            var physical = "0"
            var clocks: [Double] = []
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                switch parts[0] {
                case "processor": threads += 1
                case "model name" where model == "unknown" && !parts[1].isEmpty:
                    model = String(decoding: parts[1].utf8.prefix(WireProtocol.maximumNameBytes), as: UTF8.self)
                case "physical id": physical = parts[1]
                case "cpu MHz": if let clock = Double(parts[1]), clock.isFinite, clock > 0, clock < 1e6 { clocks.append(clock) }
                case "core id": coreIDs.insert([physical, parts[1]])
                default: break
                }
            }
            cores = coreIDs.isEmpty ? threads : coreIDs.count
            megahertz = clocks.isEmpty ? 0 : clocks.reduce(0, +) / Double(clocks.count)
        }
    }

    /// "on" or "off": intel_pstate's no_turbo says it one way round, cpufreq's boost the other.
    static func turbo(noTurbo: String?, boost: String?) -> String? {
        if let noTurbo = noTurbo.map(firstLine), ["0", "1"].contains(noTurbo) { return noTurbo == "1" ? "off" : "on" }
        if let boost = boost.map(firstLine), ["0", "1"].contains(boost) { return boost == "1" ? "on" : "off" }
        return nil
    }

    static func memoryBytes(meminfo: String) -> Int {
        guard let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") }) else { return 0 }
        let kibibytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kibibytes.multipliedReportingOverflow(by: 1024).overflow ? 0 : kibibytes * 1024
    }

    /// This machine's one-minute load average now.
    public static func currentLoad() -> Double {
        loadAverage(KernelFile.text("/proc/loadavg") ?? "")
    }

    /// The one-minute load average.
    static func loadAverage(_ loadavg: String) -> Double {
        loadavg.split(separator: " ").first.flatMap { Double($0) }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0
    }

    /// How the worker measures a job: a built-in solver's peak by resetting the kernel's
    /// high-water mark (PeakMemoryMeter); an outside solver's tree in control groups of its own
    /// (SolverCgroup), or else by /proc samples and wait4's rusage (ProcessGroupSample).
    static func method(clearRefsWritable: Bool, controlGroups: String?) -> String {
        (clearRefsWritable ? "built-in: clear_refs + VmHWM" : "built-in: getrusage (no clear_refs)")
            + "; outside: " + (controlGroups ?? "/proc samples + wait4 rusage")
    }

    private static func firstLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" }.prefix(WireProtocol.maximumNameBytes))
    }
}
