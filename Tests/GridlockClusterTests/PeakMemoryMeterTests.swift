import Foundation
import Testing
@testable import GridlockCluster

// The worker's per-job peak memory: the kernel's high-water mark, reset before each job.

@Suite struct PeakMemoryMeterTests {
    /// The status file's VmHWM, read here independently of the meter.
    func statusHighWaterMark() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }

    /// The status file's VmRSS: what the process holds now.
    func statusResident() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }

    /// Touches `bytes` of fresh pages (mmap: malloc could hand back pages other tests made
    /// resident), reads what the process holds while they are held, and gives them back.
    func touchFreshPages(_ bytes: Int) throws -> Int {
        let block = try #require(mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(block != MAP_FAILED)
        block.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        let held = try statusResident()
        munmap(block, bytes)
        return held
    }

    @Test func aJobsPeakIsTheKernelsHighWaterMark() throws {
        let meter = PeakMemoryMeter()
        meter.reset()
        // 64 MiB touched and given back: gone from the resident set, not from the peak. Other
        // tests run beside this one and allocate and free as they go, so the peak is checked
        // against what the process held at the job's height, not against the mark before it.
        let held = try touchFreshPages(64 << 20)
        let peak = meter.highWaterMarkBytes()
        // The kernel's counters behind the two files are summed from per-CPU parts at different
        // moments: they may differ by some KiB.
        #expect(peak >= held - (1 << 20))
        // They may raise the mark between the two readings, never lower it, but for the same
        // skew between the two counters (a CI run found the status file's mark below getrusage's).
        // The skew is per thread (each caches up to 64 pages of its count), and the full suite
        // runs dozens of threads: 1 MiB was once passed there, never alone.
        #expect(peak <= (try statusHighWaterMark()) + (8 << 20))
    }

    @Test("the worker's own resident set is never above a job's peak: a process that shrank after the idle reading lowers it")
    func idleNeverAboveAPeak() throws {
        let meter = PeakMemoryMeter()
        // 256 MiB held while the idle set is read, then given back before the job.
        let bytes = 256 << 20
        let block = try #require(mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(block != MAP_FAILED)
        block.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        meter.begin(now: .now)
        let idle = meter.idleBytes
        munmap(block, bytes)
        meter.reset()
        let peak = meter.highWaterMarkBytes()
        #expect(peak < idle, "the process did not shrink: \(peak) after \(idle)")
        #expect(meter.idleBytes <= peak && meter.idleBytes > 0)
    }

    @Test func aSmallJobIsReadFromTheStatusFileWhenAFloorMayHideIt() throws {
        let meter = PeakMemoryMeter()
        meter.reset()
        // Where this process was spawned by a bigger one, getrusage alone would report the
        // spawner's peak, above the status file's.
        #expect(meter.highWaterMarkBytes() <= (try statusHighWaterMark()))
    }

    @Test func getrusageCountsOnlyAboveTheFloor() {
        var statusReads = 0
        func status() -> Int {
            statusReads += 1
            return 7
        }
        // Above the floor: getrusage's figure is the mark, and the status file is not read.
        #expect(PeakMemoryMeter.highWaterMark(rusage: 300, floorBound: 200, status: status) == 300)
        #expect(statusReads == 0)
        // At or below it, getrusage may be showing the floor: the status file says.
        #expect(PeakMemoryMeter.highWaterMark(rusage: 200, floorBound: 200, status: status) == 7)
        #expect(PeakMemoryMeter.highWaterMark(rusage: 150, floorBound: 200, status: status) == 7)
        #expect(statusReads == 2)
    }

    @Test("a job with no page fault since the reset peaked at what the process held then; any fault asks again")
    func faultFreeJobPeaksAtTheReset() {
        #expect(PeakMemoryMeter.faultFreePeak(faults: 40, faultsAtReset: 40, residentAtReset: 9_000, faultsTellGrowth: true) == 9_000)
        #expect(PeakMemoryMeter.faultFreePeak(faults: 41, faultsAtReset: 40, residentAtReset: 9_000, faultsTellGrowth: true) == nil)
        // The resident set moved across the reset: which value the mark took is unknown.
        #expect(PeakMemoryMeter.faultFreePeak(faults: 40, faultsAtReset: 40, residentAtReset: nil, faultsTellGrowth: true) == nil)
        // Huge pages "always": khugepaged may grow the set without a fault of ours.
        #expect(PeakMemoryMeter.faultFreePeak(faults: 40, faultsAtReset: 40, residentAtReset: 9_000, faultsTellGrowth: false) == nil)
        // getrusage failed.
        #expect(PeakMemoryMeter.faultFreePeak(faults: -1, faultsAtReset: -1, residentAtReset: 9_000, faultsTellGrowth: true) == nil)
    }

    @Test("a reset serves the jobs after it until it is old or a reading went to the mark")
    func resetsOnlyWhenTheMarkMayHaveMoved() throws {
        let meter = PeakMemoryMeter()
        let start = ContinuousClock().now
        meter.begin(now: start)
        let first = meter.resets
        // A young reset is kept; an old one is made again.
        meter.begin(now: start.advanced(by: .milliseconds(1)))
        #expect(meter.resets == first)
        meter.begin(now: start.advanced(by: PeakMemoryMeter.refreshInterval))
        #expect(meter.resets == first + 1)
        // 16 MiB of fresh pages touched on this thread: its faults send the reading to the
        // mark, and the next job starts from a fresh reset, young as the last one is.
        let held = try touchFreshPages(16 << 20)
        let marks = meter.markReadings
        #expect(meter.highWaterMarkBytes() >= held - (1 << 20))
        #expect(meter.markReadings == marks + 1)
        let later = start.advanced(by: PeakMemoryMeter.refreshInterval + .milliseconds(1))
        meter.begin(now: later)
        #expect(meter.resets == first + 2)
        // A reading that needed no mark (no fault on this thread, and the resident set steady
        // across the reset; other tests may move it) keeps the reset for the next job.
        let marksBefore = meter.markReadings
        _ = meter.highWaterMarkBytes()
        let wentToMark = meter.markReadings - marksBefore
        meter.begin(now: later.advanced(by: .milliseconds(1)))
        #expect(meter.resets == first + 2 + wentToMark)
    }
}
