// A job's own peak memory in a worker: the kernel's high-water mark of the process's resident
// set, reset before the job and read after it. It runs around every job, trivial ones included,
// so it takes the cheapest reading that is exact, in this order:
//
//   1. No page fault in the solver's thread since the reset (getrusage(RUSAGE_THREAD)'s fault
//      counts): the job's memory can only grow through a fault of its own thread, so its peak
//      is what the process held at the reset (/proc/self/statm, read before and after the reset
//      and equal). Skipped where transparent huge pages are "always": the kernel's khugepaged
//      may then fill a range without a fault of ours.
//   2. getrusage's ru_maxrss: the same high-water mark, but never below a floor the kernel
//      carried over at exec from the process that spawned us (the batch's peak then). Exact
//      above that floor.
//   3. VmHWM from /proc/self/status, which the kernel prints whole for every read: about 4 µs,
//      as much as a trivial job's solve.
//
// Writing 5 to /proc/self/clear_refs resets the mark. The reset (two reads of statm and a write)
// is done again only when it is needed: after a job whose thread faulted (the mark moved), or
// once the last reset is `refreshInterval` old (what the worker's other threads hold drifts:
// the socket thread decodes frames of jobs). A run of fault-free trivial jobs then costs one
// getrusage(RUSAGE_THREAD) each, where a reset and two process-wide getrusage calls (which sum
// every thread's CPU time) were 40% of a trivial job. The files stay open for the worker's life:
// opening them per job cost 12 µs.

import Foundation
import GridlockCore

/// Used by one thread at a time: made on the socket thread, then handed to the solver thread.
public final class PeakMemoryMeter: @unchecked Sendable {
    private let clearRefs = open("/proc/self/clear_refs", O_WRONLY)
    private let status = open("/proc/self/status", O_RDONLY)
    private let statm = open("/proc/self/statm", O_RDONLY)
    private let pageSize = sysconf(Int32(_SC_PAGESIZE))
    /// Whether a fault-free job's peak may be taken as the resident set at its reset.
    private let faultsTellGrowth: Bool
    /// The most the exec-time floor under getrusage's figure can be: readings above it are the
    /// high-water mark itself.
    private var rusageFloorBound = Int.max
    /// The solver thread's page faults counted at the reset, and the resident set then (nil
    /// when it changed across the reset).
    private var faultsAtReset = 0
    private var residentAtReset: Int?
    /// When the mark was last reset; nil when the next job must reset it first.
    private var lastReset: ContinuousClock.Instant?
    /// How long a reset serves the fault-free jobs after it.
    static let refreshInterval: Duration = .milliseconds(10)
    /// Resets done, for the tests.
    private(set) var resets = 0
    /// Jobs measured, and how many needed getrusage's mark or the status file: for the tests.
    private(set) var readings = 0
    private(set) var markReadings = 0
    private(set) var statusReadings = 0

    /// The process's resident set just before its first job, sockets and threads up: the
    /// worker's own, which every job's peak includes. 0 until then.
    public private(set) var idleBytes = 0

    public init() {
        let hugePages = KernelFile.text("/sys/kernel/mm/transparent_hugepage/enabled") ?? ""
        faultsTellGrowth = !hugePages.contains("[always]")
        guard clearRefs >= 0, status >= 0 else { return }
        reset()
        let rusage = ThreadUsage.read()
        let status = statusHighWaterMarkBytes()
        // getrusage = max(floor, mark): above the mark, it is the floor; else the floor is at
        // most the mark.
        rusageFloorBound = rusage.markBytes > status ? rusage.markBytes : status
    }

    deinit {
        for descriptor in [clearRefs, status, statm] where descriptor >= 0 { close(descriptor) }
    }

    /// Before a job, on the thread that runs it: resets the mark unless the last reset, on this
    /// thread, still holds (no fault since, and younger than `refreshInterval`).
    func begin(now: ContinuousClock.Instant) {
        if idleBytes == 0 { idleBytes = residentBytes() ?? 0 }
        if let lastReset, lastReset.duration(to: now) < Self.refreshInterval { return }
        reset()
        lastReset = now
    }

    /// Resets the mark now, counting faults from here on the calling thread.
    func reset() {
        guard clearRefs >= 0 else { return }
        resets += 1
        faultsAtReset = ThreadUsage.read().faults
        let before = residentBytes()
        _ = write(clearRefs, "5", 1)
        let after = residentBytes()
        residentAtReset = before == after ? after : nil
        lastReset = nil
    }

    /// The high-water mark since the last reset, in bytes (0 where /proc is missing), from the
    /// thread's usage read after the job; `idleBytes` is lowered to it if it is below.
    func highWaterMarkBytes(after rusage: ThreadUsage = .read()) -> Int {
        let peak = markSinceReset(after: rusage)
        settleIdle(peak: peak)
        return peak
    }

    /// The worker's own resident set is at most what any job's peak held. It can shrink after
    /// the idle reading (heap the socket thread freed and returned, pages the kernel took
    /// back), and then a peak below it said that a job held less than nothing: the CI's loaded
    /// runs stored such rows.
    func settleIdle(peak: Int) {
        if peak > 0, peak < idleBytes { idleBytes = peak }
    }

    private func markSinceReset(after rusage: ThreadUsage) -> Int {
        readings += 1
        if let peak = Self.faultFreePeak(
            faults: rusage.faults, faultsAtReset: faultsAtReset, residentAtReset: residentAtReset, faultsTellGrowth: faultsTellGrowth
        ) { return peak }
        // The mark moved (or may have): the next job starts from a fresh one.
        lastReset = nil
        markReadings += 1
        return Self.highWaterMark(rusage: rusage.markBytes, floorBound: rusageFloorBound) {
            statusReadings += 1
            let status = statusHighWaterMarkBytes()
            // Each status reading bounds the floor again: getrusage above it is the floor itself,
            // equal to it leaves the floor at most this (the process's memory may have shrunk).
            rusageFloorBound = rusage.markBytes > status ? rusage.markBytes : min(rusageFloorBound, status)
            return status
        }
    }

    /// The resident set at the reset, when no page has faulted since (so it never grew) and it
    /// did not change across the reset; nil when another reading must say.
    static func faultFreePeak(faults: Int, faultsAtReset: Int, residentAtReset: Int?, faultsTellGrowth: Bool) -> Int? {
        guard faultsTellGrowth, faults >= 0, faults == faultsAtReset else { return nil }
        return residentAtReset
    }

    /// getrusage's figure when it is above the floor the kernel may put under it, else the
    /// status file's.
    static func highWaterMark(rusage: Int, floorBound: Int, status: () -> Int) -> Int {
        rusage > floorBound ? rusage : status()
    }

    /// The resident set now, from /proc/self/statm's second field (pages); nil without /proc.
    private func residentBytes() -> Int? {
        guard statm >= 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
            let count = pread(statm, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return nil }
            var field = 0
            var pages = 0
            for byte in buffer[..<count] {
                if byte == 0x20 {
                    field += 1
                    if field == 2 { break }
                } else if field == 1, (0x30...0x39).contains(byte) {
                    pages = pages * 10 + Int(byte - 0x30)
                }
            }
            return field == 2 ? pages * pageSize : nil
        }
    }

    /// VmHWM from /proc/self/status. Read with plain system calls into a stack buffer: it may
    /// run after every job, trivial ones included.
    private func statusHighWaterMarkBytes() -> Int {
        guard status >= 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            // A /proc file is generated afresh by each read from offset 0.
            let count = pread(status, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return 0 }
            let text = UnsafeBufferPointer(rebasing: buffer[..<count])
            let key = Array("VmHWM:".utf8)
            guard let start = (0...(max(0, count - key.count))).first(where: { index in
                (index == 0 || text[index - 1] == 0x0A) && text[index..<(index + key.count)].elementsEqual(key)
            }) else { return 0 }
            var kilobytes = 0
            var index = start + key.count
            while index < count, text[index] != 0x0A {
                if (0x30...0x39).contains(text[index]) { kilobytes = kilobytes * 10 + Int(text[index] - 0x30) }
                index += 1
            }
            return kilobytes * 1024
        }
    }
}
