// `gridlock batch` stops waiting for its in-process sink at a bound: a sink stuck in a store
// call must not hold the process after the coordinator has stopped.

import Foundation
import Testing
@testable import GridlockCluster

@Suite struct SinkJoinTests {
    @Test("a thread that finishes is waited for; one stuck past the limit is left, at about the limit")
    func boundedJoin() {
        let quick = Thread { usleep(50_000) }
        quick.start()
        #expect(waitForExit(of: quick, limit: .seconds(5)))
        #expect(quick.isFinished)

        let release = DispatchSemaphore(value: 0)
        let stuck = Thread { release.wait() }
        stuck.start()
        let clock = ContinuousClock()
        let started = clock.now
        #expect(!waitForExit(of: stuck, limit: .milliseconds(300)))
        let waited = started.duration(to: clock.now)
        #expect(waited >= .milliseconds(300) && waited < .seconds(3), "waited \(waited)")
        release.signal()
        #expect(waitForExit(of: stuck, limit: .seconds(5)))
    }
}
