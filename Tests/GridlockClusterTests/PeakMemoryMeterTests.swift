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

    @Test func aJobsPeakIsTheKernelsHighWaterMark() throws {
        let meter = PeakMemoryMeter()
        meter.reset()
        let before = try statusHighWaterMark()
        // 64 MiB touched and given back: gone from the resident set, not from the peak.
        let bytes = 64 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 4096)
        block.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        block.deallocate()
        let peak = meter.highWaterMarkBytes()
        #expect(peak >= before + bytes - (1 << 20))
        // Other tests run beside this one and may raise the mark between the two readings,
        // never lower it.
        #expect(peak <= (try statusHighWaterMark()))
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

    @Test("a reset serves the fault-free jobs after it; a job that faults, or an old reset, makes the next job reset")
    func resetsOnlyWhenTheMarkMayHaveMoved() throws {
        let meter = PeakMemoryMeter()
        let clock = ContinuousClock()
        let start = clock.now
        meter.begin(now: start)
        let afterFirst = meter.resets
        _ = meter.highWaterMarkBytes()
        // Nothing faulted on this thread: the next job, 1 ms later, reuses the reset.
        meter.begin(now: start.advanced(by: .milliseconds(1)))
        let faultFree = meter.highWaterMarkBytes()
        #expect(meter.resets == afterFirst)
        // 16 MiB touched on this thread: its faults send the reading to the mark, and the next
        // job starts from a fresh reset.
        let bytes = 16 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 4096)
        block.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        block.deallocate()
        let marks = meter.markReadings
        #expect(meter.highWaterMarkBytes() >= faultFree + bytes - (1 << 20))
        #expect(meter.markReadings == marks + 1)
        meter.begin(now: start.advanced(by: .milliseconds(2)))
        #expect(meter.resets == afterFirst + 1)
        // A reset older than the refresh interval is made again, fault or not.
        _ = meter.highWaterMarkBytes()
        meter.begin(now: start.advanced(by: .milliseconds(2) + PeakMemoryMeter.refreshInterval))
        #expect(meter.resets == afterFirst + 2)
    }
}
