// What threads of one process share: a stop request that socket loops check between polls,
// a locked value, and a rendezvous for endpoints bound on wildcard ports.

import Foundation
import Synchronization

/// A stop request, made once and never taken back. An atomic, not a lock: `stop()` is called from signal handlers, which may interrupt the very
/// thread that holds a lock in `isStopped`.
public final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)

    public init() {}

    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    public func stop() { stopped.store(true, ordering: .releasing) }
}

/// A value shared between a socket loop and the thread that watches it.
public final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public var current: Value { lock.withLock { value } }

    public func update<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}

/// Endpoints that roles in one process publish once bound and wait for before connecting:
/// the coordinator and the sink each bind a wildcard port and connect to the other's.
public final class Rendezvous: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [String: String] = [:]

    public init() {}

    public func publish(_ name: String, _ value: String) {
        condition.lock()
        values[name] = value
        condition.broadcast()
        condition.unlock()
    }

    /// The value published under `name`, waiting for it up to `timeout`.
    public func wait(for name: String, timeout: Double = 30) -> String? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while values[name] == nil {
            if !condition.wait(until: deadline) { break }
        }
        return values[name]
    }
}
