// Faults on request, for the reliability tests, compiled only into builds that define
// GRIDLOCK_FAULT_INJECTION: debug builds (Package.swift) and the test command's release build
// (scripts/test). A plain release build, the one users run, has no hook: each is a constant the
// optimizer removes, so no environment variable can make a deployed worker hang or crash.
//
// With the hooks compiled in, GRIDLOCK_FAULT_INJECTION picks one:
//   hang-on-poison     a worker hangs for good on any puzzle whose text contains POISON,
//                      ignoring its time limit
//   crash-at-start     every worker process aborts as it starts
//   slow:SOLVER:FACTOR every solve of SOLVER takes FACTOR times as long, spinning (so its CPU
//                      time grows alike): the build slowed on purpose that `gridlock compare`
//                      must find slower, by about that factor
//   pace:MS            every job takes at least MS milliseconds, spinning: a batch that lasts
//                      long enough to be watched or hurt mid-way, in a release build as in a
//                      debug one (a release build's bfs answers 2,000 boards in under a second)

import Foundation
import GridlockWire

#if GRIDLOCK_FAULT_INJECTION
public enum FaultInjection {
    /// Whether this build has the hooks (the tests that need them say so when it has not).
    public static let compiledIn = true

    static let mode = ProcessInfo.processInfo.environment["GRIDLOCK_FAULT_INJECTION"]

    public static var crashesAtStart: Bool { mode == "crash-at-start" }

    /// For the poison-job test: a job that ignores its time limit, asleep until killed.
    static func hangIfPoisoned(_ job: Job) {
        guard mode == "hang-on-poison" && job.puzzle.contains("POISON") else { return }
        while true { sleep(60) }
    }

    static let slowdown: (solver: String, factor: Double)? = {
        guard let parts = mode?.split(separator: ":"), parts.count == 3, parts[0] == "slow", let factor = Double(parts[2]),
              factor >= 1, factor <= 100 else { return nil }
        return (String(parts[1]), factor)
    }()

    static let pace: Duration? = {
        guard let parts = mode?.split(separator: ":"), parts.count == 2, parts[0] == "pace", let milliseconds = Int(parts[1]),
              milliseconds > 0, milliseconds <= 10_000 else { return nil }
        return .milliseconds(milliseconds)
    }()

    static func slowDown(_ solver: String, startedAt start: ContinuousClock.Instant, clock: ContinuousClock) {
        if let pace {
            while clock.now < start.advanced(by: pace) {}
        }
        guard let slowdown, slowdown.solver == solver else { return }
        let target = start.advanced(by: start.duration(to: clock.now) * slowdown.factor)
        while clock.now < target {}
    }
}
#else
public enum FaultInjection {
    public static let compiledIn = false
    public static var crashesAtStart: Bool { false }
    @inline(__always) static func hangIfPoisoned(_ job: Job) {}
    @inline(__always) static func slowDown(_ solver: String, startedAt start: ContinuousClock.Instant, clock: ContinuousClock) {}
}
#endif
