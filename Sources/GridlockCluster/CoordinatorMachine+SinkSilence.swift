// A sink that never speaks: one that never started (its port was taken), never connected
// (the wrong endpoint), or died. A coordinator without one stores nothing and waits forever
// for acknowledgements; it printed "0 jobs/s" every 5 s for 17 minutes once (issue 44). The
// sink says hello every second, so after `sinkSilenceWarning` of silence the operator is
// warned (again each as long), and after `sinkSilenceLimit` the batch stops with the reason.
// Silence counts from the machine's start until a sink is first heard.

import Foundation
import GridlockCore
import GridlockWire

extension CoordinatorMachine {
    mutating func checkSink(now: ContinuousClock.Instant, _ actions: inout [Action]) {
        guard !stopped else { return }
        // A coordinator stopped (SIGSTOP) or asleep for a while counts its silence from when it
        // runs again: the sink's hello may be waiting in the socket, unread.
        if startedAt == nil || lastSinkCheck.map({ $0.duration(to: now) > Self.suspendedAfter }) == true { startedAt = now }
        lastSinkCheck = now
        let start = startedAt ?? now
        let since = max(resume.lastHeard ?? start, start)
        let silence = since.duration(to: now)
        if let limit = configuration.sinkSilenceLimit, silence >= limit {
            stop(.sinkSilent(silence, heard: resume.lastHeard != nil), &actions)
            return
        }
        guard silence >= configuration.sinkSilenceWarning,
              lastSinkWarning.map({ $0 < since || $0.duration(to: now) >= configuration.sinkSilenceWarning }) ?? true
        else { return }
        lastSinkWarning = now
        let seconds = Int(Double(seconds: silence))
        let what = resume.lastHeard == nil ? "no sink has said anything in \(seconds) s" : "the sink has said nothing for \(seconds) s"
        let limit = configuration.sinkSilenceLimit.map { "the batch stops at \(Int(Double(seconds: $0))) s of silence" } ?? "no limit is set"
        actions.append(.log("\(what) (a sink says hello every second): is it running, and connected to \(configuration.jobsEndpoint)? \(limit)"))
    }

    /// A gap between two ticks (100 ms apart) longer than this is a suspension.
    static let suspendedAfter: Duration = .seconds(5)
}
