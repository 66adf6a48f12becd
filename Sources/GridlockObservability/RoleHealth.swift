// What /healthz and /readyz answer: alive while the role's loop keeps turning (it reports about
// twice a second; a loop stuck on a full disk or a hung call stops), ready once its socket is
// bound. Pure state with a clock passed in, so the rules are tested without waiting.

import Foundation

public final class RoleHealth: @unchecked Sendable {
    /// A loop that has not reported for this long is stuck: /healthz says so, and an
    /// orchestrator restarts the role.
    public static let stallLimit: Duration = .seconds(15)

    private let lock = NSLock()
    private var lastTurn: ContinuousClock.Instant
    private var bound = false
    private var stopping = false

    public init(now: ContinuousClock.Instant = .now) {
        lastTurn = now
    }

    /// The loop turned (it reported progress).
    public func turned(now: ContinuousClock.Instant = .now) {
        lock.withLock { lastTurn = now }
    }

    public func markBound() { lock.withLock { bound = true } }
    public func markStopping() { lock.withLock { stopping = true } }

    /// nil when alive; otherwise why not.
    public func livenessProblem(now: ContinuousClock.Instant = .now) -> String? {
        lock.withLock {
            let silent = lastTurn.duration(to: now)
            return silent > Self.stallLimit ? "the role's loop has not turned for \(silent.components.seconds) s" : nil
        }
    }

    /// nil when ready for peers; otherwise why not.
    public func readinessProblem(now: ContinuousClock.Instant = .now) -> String? {
        if let problem = livenessProblem(now: now) { return problem }
        return lock.withLock { stopping ? "stopping" : bound ? nil : "not bound yet" }
    }
}
