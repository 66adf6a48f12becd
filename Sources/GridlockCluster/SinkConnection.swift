// What a worker knows of its sink. The sink never speaks to workers (they push results to it),
// so a worker learns that it is missing from its socket's monitor: no handshake has succeeded,
// or the last connection dropped, or the sink refused the worker's keys. A worker says so as it
// says that its coordinator is silent, and gives up after the same kind of limit.

import ZeroMQ

struct SinkConnection {
    private(set) var connected = false
    /// Whether the last handshake failed: for CURVE, the sink does not admit this worker's key.
    private(set) var refused = false
    /// Since when it has been as it is.
    private(set) var since: ContinuousClock.Instant
    private var lastNotice: ContinuousClock.Instant

    init(now: ContinuousClock.Instant) {
        since = now
        lastNotice = now
    }

    mutating func apply(_ event: ZMQMonitor.Event, now: ContinuousClock.Instant) {
        switch event {
        case .accepted:
            break  // A connecting socket accepts nothing.
        case .connected:
            if !connected { since = now }
            connected = true
            refused = false
        case .disconnected, .handshakeFailed:
            if connected { since = now }
            connected = false
            // libzmq follows a failed handshake with a disconnection: that must not hide the refusal.
            if event == .handshakeFailed { refused = true }
        }
    }

    /// How long it has been without a connection; zero while connected.
    func missing(now: ContinuousClock.Instant) -> Duration { connected ? .zero : since.duration(to: now) }

    /// Whether to say now that the sink is missing: after `interval` without it, then every `interval`.
    mutating func noticeDue(now: ContinuousClock.Instant, interval: Duration) -> Bool {
        guard missing(now: now) >= interval, lastNotice.duration(to: now) >= interval else { return false }
        lastNotice = now
        return true
    }
}
