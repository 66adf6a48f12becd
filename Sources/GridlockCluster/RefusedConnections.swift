// Connections the ZAP handler refused (a key not in the allowlist, a plain socket): counted and
// described a few a minute, as refused frames are (RejectionLog), so a stranger that reconnects
// every 100 ms cannot fill a disk with lines. Called from the handler's thread.

import Foundation
import ZeroMQ

public final class RefusedConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var refused = 0
    private var budget = LineBudget()

    public init() {}

    /// How many connections were refused so far.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return refused
    }

    /// The line to log for this refusal, or nil when this minute's lines are spent.
    public func note(_ request: ZAPRequest, _ reason: String, now: ContinuousClock.Instant = .now) -> String? {
        lock.lock()
        defer { lock.unlock() }
        refused += 1
        guard let earlier = budget.admit(now: now) else { return nil }
        let from = request.address.isEmpty ? "a local peer" : request.address
        return "refused a connection from \(from) to \(request.domain): \(reason)\(earlier)"
    }
}
