// `--pin` and `--no-smt` (issue 19): each worker process on a core of its own, so that the
// scheduler does not move a solver between cores mid-job (cold caches) nor put two workers on
// one; with --no-smt, one hardware thread per physical core, its sibling left idle (two
// threads of one core share its caches and units, and slow each other by 20-40%).

import CProcessControl
import Foundation
import GridlockCore
import GridlockClusterBase

public enum CPUPlacement {
    /// The CPUs this process may use (its affinity: a container's or a Slurm job's cpuset).
    public static func allowed() -> [Int] {
        var cpus = [Int32](repeating: 0, count: 1_024)
        let count = gridlock_allowed_cpus(&cpus, Int32(cpus.count))
        return count > 0 ? cpus.prefix(Int(count)).map(Int.init) : []
    }

    /// The hardware threads that share `cpu`'s core, from /sys (itself alone where it says none).
    public static func siblings(of cpu: Int) -> [Int] {
        let text = KernelFile.text("/sys/devices/system/cpu/cpu\(cpu)/topology/thread_siblings_list") ?? ""
        let listed = cpuList(text)
        return listed.isEmpty ? [cpu] : listed
    }

    /// "0-3,8,10-11" as CPU numbers.
    public static func cpuList(_ text: String) -> [Int] {
        text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").flatMap { part -> [Int] in
            let pieces = part.split(separator: "-", omittingEmptySubsequences: false)
            let ends = pieces.compactMap { Int($0) }
            guard (1...2).contains(pieces.count), ends.count == pieces.count, let first = ends.first, first >= 0, first < 65_536 else { return [] }
            let last = ends.count == 2 ? ends[1] : first
            return last >= first && last < 65_536 ? Array(first...last) : []
        }
    }

    /// The CPU of each of `workers` processes: the allowed CPUs in order, with --no-smt only
    /// the first thread of each core; more workers than CPUs share them, round and round.
    public static func plan(workers: Int, allowed: [Int], noSMT: Bool, siblings: (Int) -> [Int] = siblings(of:)) -> [Int] {
        var usable: [Int] = []
        var taken: Set<Int> = []
        for cpu in allowed where !taken.contains(cpu) {
            usable.append(cpu)
            taken.insert(cpu)
            if noSMT { taken.formUnion(siblings(cpu)) }
        }
        guard !usable.isEmpty else { return [] }
        return (0..<max(0, workers)).map { usable[$0 % usable.count] }
    }

    /// Pins this process to `cpu`, or says why it cannot.
    public static func pin(to cpu: Int) throws {
        guard gridlock_pin_to_cpu(Int32(clamping: cpu)) == 0 else {
            throw ClusterError("cannot pin this worker to CPU \(cpu): \(String(cString: strerror(errno))) (it may run on \(allowed().map(String.init).joined(separator: ",")))")
        }
    }
}
