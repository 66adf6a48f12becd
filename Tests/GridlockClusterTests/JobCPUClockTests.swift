import Foundation
import Testing
@testable import GridlockCluster

// A job's CPU time: the thread's clock where it may have been switched out, its wall time where
// getrusage's switch counts say it ran the whole time.

@Suite struct JobCPUClockTests {
    func usage(switches: Int, cpu: Double, involuntary: Int = 1) -> ThreadUsage {
        ThreadUsage(markBytes: 0, faults: 0, switches: switches, involuntarySwitches: involuntary, cpuSeconds: cpu)
    }

    @Test("CPU time is the clock's difference when it was read, the wall time when nothing switched, else getrusage's capped by the wall")
    func theRule() {
        let before = usage(switches: 10, cpu: 1.000)
        // The clock read at both ends wins, whatever the counts say.
        let clocked = JobCPUClock.cpuSeconds(wall: 0.5, usage: usage(switches: 12, cpu: 1.2), last: before, clock: (2.0, 2.25))
        #expect(clocked.seconds == 0.25)
        #expect(clocked.timing == .clock)
        // No switch since the last reading: the thread ran throughout, so CPU = wall.
        let unswitched = JobCPUClock.cpuSeconds(wall: 3e-6, usage: usage(switches: 10, cpu: 1.000), last: before, clock: nil)
        #expect(unswitched.seconds == 3e-6)
        #expect(unswitched.timing == .wall)
        // Switched out: the kernel's total, never more than the wall time.
        let switched = JobCPUClock.cpuSeconds(wall: 0.010, usage: usage(switches: 11, cpu: 1.004), last: before, clock: nil)
        #expect(abs(switched.seconds - 0.004) < 1e-9)
        #expect(switched.timing == .coarse)
        let capped = JobCPUClock.cpuSeconds(wall: 0.001, usage: usage(switches: 11, cpu: 1.004), last: before, clock: nil)
        #expect(capped.seconds == 0.001)
    }

    @Test("the clock is read after a wait for the queue and after a long job; trivial jobs in a row take their wall time")
    func whenTheClockIsRead() {
        let clock = JobCPUClock()
        let steady = usage(switches: 10, cpu: 1)
        // The first job: nothing read before it.
        clock.start(waited: false)
        _ = clock.finish(wall: 1e-6, usage: steady)
        #expect(clock.timedBy[.clock] == 1)
        // Short jobs straight after each other, with no switch between the readings.
        for _ in 0..<20 {
            clock.start(waited: false)
            #expect(clock.finish(wall: 1e-6, usage: steady) == 1e-6)
        }
        #expect(clock.timedBy[.wall] == 20)
        // After a wait, and after a long job, the clock again.
        clock.start(waited: true)
        _ = clock.finish(wall: 1.0, usage: steady)
        clock.start(waited: false)
        _ = clock.finish(wall: 1e-6, usage: steady)
        #expect(clock.timedBy[.clock] == 3)
        // A job not measured (an unreadable puzzle): the next one reads the clock.
        clock.forget()
        clock.start(waited: false)
        _ = clock.finish(wall: 1e-6, usage: steady)
        #expect(clock.timedBy[.clock] == 4)
    }

    @Test("where involuntary switches are never counted (gVisor), or getrusage fails, the counts prove nothing: the clock is read")
    func uncountedSwitchesAreNotTrusted() {
        let clock = JobCPUClock()
        for _ in 0..<5 {
            clock.start(waited: false)
            _ = clock.finish(wall: 1e-6, usage: usage(switches: 10, cpu: 1, involuntary: 0))
        }
        #expect(clock.timedBy[.clock] == 5 && clock.timedBy[.wall] == nil)
        let failed = usage(switches: -1, cpu: 0, involuntary: 0)
        #expect(JobCPUClock.cpuSeconds(wall: 1e-6, usage: failed, last: failed, clock: nil).timing == .coarse)
        let counted = JobCPUClock()
        counted.start(waited: false)
        _ = counted.finish(wall: 1e-6, usage: usage(switches: 10, cpu: 1))
        // getrusage fails after a job timed by no clock: that one job's CPU time is unknown (0),
        // and the next reads the clock.
        counted.start(waited: false)
        _ = counted.finish(wall: 1e-6, usage: failed)
        counted.start(waited: false)
        _ = counted.finish(wall: 1e-6, usage: failed)
        #expect(counted.timedBy[.coarse] == 1 && counted.timedBy[.clock] == 2)
    }

    @Test("a thread that sleeps between two readings has switched: its wall time is not taken for CPU time")
    func sleepingCountsAsASwitch() {
        let before = ThreadUsage.read()
        usleep(2_000)
        let after = ThreadUsage.read()
        #expect(after.switches > before.switches)
        #expect(JobCPUClock.cpuSeconds(wall: 0.002, usage: after, last: before, clock: nil).timing == .coarse)
    }
}
