// Progress on standard error: done of total, rate, ETA, failures, live workers. Rewritten in
// place on a terminal; a line every five seconds otherwise. Until the input has been read to
// its end the total is unknown, and the line says so instead of guessing.

import Foundation
import GridlockCluster

final class ProgressLine: @unchecked Sendable {
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant
    var lastLine: ContinuousClock.Instant
    var shown = false
    /// Where a line goes when it is not rewritten in place: standard error, or a role's log.
    let log: (String) -> Void
    let inPlace: Bool

    init(log: @escaping (String) -> Void = { StandardError.write($0 + "\n") }, inPlace: Bool = StandardError.isTerminal) {
        started = clock.now
        lastLine = clock.now
        self.log = log
        self.inPlace = inPlace
    }

    func show(_ progress: CoordinatorProgress, sink: SinkCounters) {
        let elapsed = Double(seconds: started.duration(to: clock.now))
        let rate = elapsed > 0 ? Double(progress.stored) / elapsed : 0
        let done = progress.done
        let of: String
        if let total = progress.total {
            let percent = total > 0 ? 100 * Double(done) / Double(total) : 100
            let eta = rate > 0 ? "ETA \((Double(total - done) / rate).formatted(decimals: 0)) s" : "ETA -"
            of = "\(done.grouped) of \(total.grouped) (\(percent.formatted(decimals: 1))%), \(eta)"
        } else {
            of = "\(done.grouped) of \(progress.read.grouped)+ (input still being read; total and ETA unknown)"
        }
        let text = "batch: \(of), \(Int(rate).grouped) jobs/s, \(progress.failed) failed, "
            + "\(progress.reissued) re-issued, \(progress.liveWorkers) workers"
            + (progress.quarantined > 0 ? " (\(progress.quarantined) quarantined)" : "")
        if inPlace {
            StandardError.write("\r\u{1B}[K" + text)
            shown = true
        } else if lastLine.duration(to: clock.now) >= .seconds(5) {
            log(text)
            lastLine = clock.now
        }
    }

    func finish() {
        if shown { StandardError.write("\r\u{1B}[K") }
    }
}
