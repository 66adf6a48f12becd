// A job's CPU time on the solver thread, as cheaply as it can be told exactly.
//
// The thread's CPU clock (clock_gettime(CLOCK_THREAD_CPUTIME_ID)) is a system call of about
// 0.5 µs here; read before and after every job it was a sixth of a trivial job's cost in the
// worker. The meter already reads getrusage(RUSAGE_THREAD) after each job, and its context
// switch counts tell when the clock is not needed: a thread that was not switched out between
// two readings ran the whole time, so a job inside that span used exactly its wall time.
//
//   - The last reading was taken after the previous job, and the queue handed this job over
//     without waiting: when the switch counts have not moved by the end of this job, its CPU
//     time is its wall time (monotonic clock, nanoseconds).
//   - After a wait for the queue, or after a job long enough to be preempted (over
//     `preciseAfter`), the CPU clock is read at both ends, as before.
//   - A short job preempted with no clock reading at its start (rare: the scheduler's tick is
//     milliseconds, the job microseconds) takes getrusage's CPU total, which the kernel brings
//     up to date at ticks and switches only (so it may be a tick off), capped by the wall time.
//   - The counts are trusted only once the thread has seen an involuntary switch counted: some
//     kernels (gVisor's) never count them, and a failed getrusage gives none. Until then, and
//     after a job that was not measured (an unreadable puzzle), the clock is read.
//
// A virtual machine's stolen time is not a switch: on a host that steals much, the wall time of
// a short job may exceed its CPU time by the stolen share.

import Foundation

/// One per solver thread: it remembers the last reading.
public final class JobCPUClock: @unchecked Sendable {
    /// Jobs longer than this read the CPU clock next time: they are likely to be preempted.
    static let preciseAfter = 50e-6
    private var last: ThreadUsage?
    private var lastWasLong = true
    /// Whether this thread's involuntary switches are counted (seen non-zero once).
    private var preemptionCounted = false
    private var clockAtStart: Double?
    /// Jobs timed by each way: for the tests.
    private(set) var timedBy: [Timing: Int] = [:]

    /// How a job's CPU time was told.
    enum Timing: Hashable {
        /// Not switched out: its wall time.
        case wall
        /// The thread's CPU clock, read at both ends.
        case clock
        /// Switched out with no clock reading at its start: getrusage's total.
        case coarse
    }

    public init() {}

    /// Before a job. `waited`: the queue had none ready, so the thread slept since `last`.
    func start(waited: Bool) {
        clockAtStart = waited || lastWasLong || last == nil || !preemptionCounted ? ThreadClock.cpuSeconds() : nil
    }

    /// A job started but not measured: the next one reads the clock.
    func forget() {
        last = nil
    }

    /// After a job that took `wall` seconds, with the thread's usage read after it.
    func finish(wall: Double, usage: ThreadUsage) -> Double {
        let (seconds, timing) = Self.cpuSeconds(
            wall: wall, usage: usage, last: last, clock: clockAtStart.map { ($0, ThreadClock.cpuSeconds()) })
        timedBy[timing, default: 0] += 1
        if usage.involuntarySwitches > 0 { preemptionCounted = true }
        last = usage.switches >= 0 ? usage : nil
        lastWasLong = wall > Self.preciseAfter
        return seconds
    }

    /// The rule, without the clocks: `clock` is the CPU clock at the job's start and end, when
    /// it was read.
    static func cpuSeconds(
        wall: Double, usage: ThreadUsage, last: ThreadUsage?, clock: (start: Double, end: Double)?
    ) -> (seconds: Double, timing: Timing) {
        if let clock { return (max(0, clock.end - clock.start), .clock) }
        guard let last, usage.switches >= 0 else { return (0, .coarse) }
        if usage.switches == last.switches { return (wall, .wall) }
        return (min(wall, max(0, usage.cpuSeconds - last.cpuSeconds)), .coarse)
    }
}

/// What getrusage(RUSAGE_THREAD) says of the calling thread.
struct ThreadUsage: Sendable, Hashable {
    /// The process's high-water mark (above the exec-time floor: PeakMemoryMeter).
    var markBytes: Int
    var faults: Int
    /// Voluntary and involuntary context switches (-1 when getrusage failed).
    var switches: Int
    var involuntarySwitches: Int
    /// User and system time, as the kernel last brought it up to date.
    var cpuSeconds: Double

    /// Linux's RUSAGE_THREAD (sys/resource.h), which Glibc's module leaves out: it is GNU-only.
    private static let rusageThread: Int32 = 1

    /// RUSAGE_THREAD: RUSAGE_SELF sums every thread's CPU time under a lock, at several times the cost.
    static func read() -> ThreadUsage {
        var usage = Glibc.rusage()
        guard getrusage(Self.rusageThread, &usage) == 0 else {
            return ThreadUsage(markBytes: 0, faults: -1, switches: -1, involuntarySwitches: 0, cpuSeconds: 0)
        }
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) * 1e-6 }
        return ThreadUsage(
            markBytes: usage.ru_maxrss * 1024, faults: usage.ru_minflt + usage.ru_majflt, switches: usage.ru_nvcsw + usage.ru_nivcsw,
            involuntarySwitches: usage.ru_nivcsw, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}

public enum ThreadClock {
    /// CPU seconds used by the calling thread.
    public static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
