// What threads of one process share: a stop request that socket loops check between polls,
// and a locked value.

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
