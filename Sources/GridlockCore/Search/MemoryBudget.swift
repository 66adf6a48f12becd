// A search's memory budget (`SolveOptions.memoryBudgetBytes`), checked in two steps. Every
// `SolveOptions.cancellationInterval` expansions (where the state limit is checked) a search
// asks whether its tables, once grown for the states those expansions could add
// (`growthMargin`), would pass the budget. Only if so is it near, and from then on it checks
// after every expansion whether what its tables hold now has passed the budget: a table grows
// by allocating a bigger buffer and copying, so it counts both while it grows.
//
// A search is so cut off only once it holds more than its budget, never because it might: the
// lookahead alone cut bfs off after one state at a 1 MiB limit, on boards whose whole search
// needs 50 KiB (issue 43). A search that succeeds reporting a peak of P bytes is never cut
// off under a budget of P or more. Past the budget it holds at most one expansion's growth.

import Foundation

extension SolveOptions {
    /// A quarter of the memory this process may use (the machine's, or its control group's
    /// limit where that is smaller: ControlGroupMemory): a default that leaves room for the
    /// rest of the machine, and for other solves beside this one.
    public static let quarterOfAvailableMemory: Int = {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        let available = min(physical > 0 ? physical : 4 << 30, ControlGroupMemory.limit() ?? .max)
        return max(1 << 20, available / 4)
    }()

    /// States one expansion can add, at most: a Rush Hour state has at most 18 blocks of 7
    /// slides (a tilt state 4 tilts).
    public static let successorsAtMost = 128

    /// States the `cancellationInterval` expansions between two checks can add, at most.
    public static let growthMargin = cancellationInterval * successorsAtMost

    /// Whether `bytes` pass the budget.
    public func overBudget(_ bytes: Int) -> Bool { bytes > memoryBudgetBytes }
}

extension Array {
    /// The bytes this array's buffer holds once `adding` more elements are appended: the
    /// buffer, and when that reallocates it, the old and the new one together. `growth` is how
    /// much bigger the new buffer is: Swift's own appends double it; a search that reserves
    /// its own steps says its factor. The allocator rounds a buffer up, and Swift takes what it
    /// was given: to 16 bytes for small buffers (2c + 1 measured), to a 4 KiB page for the
    /// large ones it maps (2c + 499 measured at c = 8,194): a page and a little of slack.
    public func bytesHeld(afterAdding adding: Int, growth: Double = 2) -> Int {
        let stride = MemoryLayout<Element>.stride
        guard count + adding > capacity else { return capacity * stride }
        let slack = (4_096 + 64) / Swift.max(1, stride) + 1
        return (capacity + Swift.max(Int(Double(capacity) * growth) + slack, count + adding)) * stride
    }
}

extension Dictionary {
    /// As `Array.bytesHeld(afterAdding:)`, for a dictionary's storage (its keys and values; the
    /// bitmap of occupied buckets is a bit a bucket). Swift doubles the buckets when the next
    /// insert would pass three quarters of them.
    public func bytesHeld(afterAdding adding: Int, bytesPerEntry: Int) -> Int {
        let buckets = Swift.max(1, capacity * 4 / 3)
        guard count + adding > capacity else { return buckets * bytesPerEntry }
        return (buckets + Swift.max(2 * buckets, (count + adding) * 4 / 3)) * bytesPerEntry
    }
}

extension Array where Element == UInt64 {
    /// Grows a frontier array by a quarter rather than the standard library's
    /// doubling: doubling left up to half of it unused, and memory per state is a target.
    /// Appends stay amortized O(1); the extra copies are one per state and a quarter, against
    /// the hash work.
    @usableFromInline @inline(never)
    mutating func growFrontier() {
        reserveCapacity(Swift.max(256, capacity + capacity / 4))
    }
}
