// What the breadth-first search needs of the table holding its window of recent levels (see
// RushHourBFSSolver.swift): StateTable on every CPU; a wider table where the CPU has one.

public protocol BFSWindow: ~Copyable {
    /// An empty table with room for about `initialSlots` states.
    init(initialSlots: Int)
    /// Bytes allocated for slots.
    var memoryBytes: Int { get }
    /// The bytes held once `adding` more states are inserted, growth included.
    func bytesHeld(afterAdding adding: Int) -> Int
    /// Empties the table, sized for `count` states.
    mutating func removeAll(reservingFor count: Int)
    /// Adds `key` with `tag` unless it is already present. Returns whether it was added.
    mutating func insert(_ key: UInt64, tag: UInt8) -> Bool
}

extension StateTable: BFSWindow {}
