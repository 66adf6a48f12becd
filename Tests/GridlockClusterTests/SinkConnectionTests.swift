// What a worker makes of its sink socket's monitor: how long the sink has been missing, and
// when to say so.

import Testing
import ZeroMQ

@testable import GridlockCluster

@Suite("Sink connection")
struct SinkConnectionTests {
    @Test("missing from the start until a handshake succeeds; again from a disconnection; a failed handshake is a refusal")
    func missingTime() {
        let t0 = ContinuousClock.now
        var connection = SinkConnection(now: t0)
        #expect(connection.missing(now: t0.advanced(by: .seconds(3))) == .seconds(3))
        connection.apply(.connected, now: t0.advanced(by: .seconds(3)))
        #expect(connection.missing(now: t0.advanced(by: .seconds(100))) == .zero)
        connection.apply(.disconnected, now: t0.advanced(by: .seconds(100)))
        #expect(connection.missing(now: t0.advanced(by: .seconds(104))) == .seconds(4))
        #expect(!connection.refused)
        // A retry that fails does not restart the count, nor does the disconnection libzmq sends after it hide the refusal.
        connection.apply(.handshakeFailed, now: t0.advanced(by: .seconds(102)))
        connection.apply(.disconnected, now: t0.advanced(by: .seconds(102)))
        #expect(connection.refused && connection.missing(now: t0.advanced(by: .seconds(104))) == .seconds(4))
        connection.apply(.connected, now: t0.advanced(by: .seconds(105)))
        #expect(!connection.refused && connection.connected)
    }

    @Test("the notice comes after an interval without the sink, then once an interval, never while connected")
    func notices() {
        let t0 = ContinuousClock.now
        var connection = SinkConnection(now: t0)
        func due(_ seconds: Int64) -> Bool { connection.noticeDue(now: t0.advanced(by: .seconds(seconds)), interval: .seconds(5)) }
        #expect(!due(4))
        #expect(due(5))
        #expect(!due(9))
        #expect(due(10))
        connection.apply(.connected, now: t0.advanced(by: .seconds(11)))
        #expect(!due(30))
    }
}
