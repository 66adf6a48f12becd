// What the breadth-first searches need of a table of states and their tags: the bfs window of
// recent levels (RushHourBFSSolver.swift) and bidirectional's two visited sets. StateTable on
// every CPU; a wider table where the CPU has one (GridlockX86V4's BucketStateTable).

public protocol SearchStateTable: ~Copyable {
    /// An empty table with room for about `initialSlots` states.
    init(initialSlots: Int)
    /// How many states it holds.
    var count: Int { get }
    /// Bytes allocated for slots.
    var memoryBytes: Int { get }
    /// The bytes held once `adding` more states are inserted, growth included.
    func bytesHeld(afterAdding adding: Int) -> Int
    /// Empties the table, sized for `count` states.
    mutating func removeAll(reservingFor count: Int)
    /// Empties the table, sized for `count` states, and fills it with them: `entry(i)` is the
    /// i-th, a key and its tag laid out as a slot (`RushHourGeometry.entry`); no two are equal.
    mutating func removeAll(refillingWith count: Int, _ entry: (Int) -> UInt64)
    /// Adds `key` with `tag` unless it is already present. Returns whether it was added.
    mutating func insert(_ key: UInt64, tag: UInt8) -> Bool
    /// Whether `key` is present.
    func contains(_ key: UInt64) -> Bool
    /// The tag stored with `key`, if present.
    func tag(of key: UInt64) -> UInt8?
}

extension SearchStateTable where Self: ~Copyable {
    /// Each inserted as any other.
    @inlinable
    public mutating func removeAll(refillingWith count: Int, _ entry: (Int) -> UInt64) {
        removeAll(reservingFor: count)
        for index in 0..<count {
            let word = entry(index)
            _ = insert(word & StateTable.keyMask, tag: UInt8(truncatingIfNeeded: word &>> UInt64(StateTable.keyBits)))
        }
    }
}

extension StateTable: SearchStateTable {}
