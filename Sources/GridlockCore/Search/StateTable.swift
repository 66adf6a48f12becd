// A set of 56-bit state keys, each with one byte of tag: the visited set and parent links of a
// breadth-first search.
//
//   slot (8 bytes, open addressing, linear probing, at most 4/5 full):
//     63      56 55                                   0
//     [  tag   ][            state key                 ]     all ones: empty
//        tag: how the state was reached (the solver's parent link)
//
// A lookup reads one slot, and its neighbours share the cache line: a Rush Hour search looks up
// a dozen successors for every state it stores, and nine in ten are already there, so the hit
// path is what matters.
//
// Memory: 8 bytes a slot; the table grows by 1.5x at 4/5 full, so it holds 10 to 15 bytes per
// stored state. Doubling would let that reach 20. The first table is 64 KiB (8,192 slots): most
// database clusters fit in it, and growing from small was measured to cost more than solving,
// because linear probing just before each growth, at 4/5 full, does about 5x the probes.
//
// Tried: slots holding a 4-byte index into an insertion-ordered entry array (which was also the
// BFS queue). Smaller, but every hit takes a second dependent read, it was no faster on I-4, and
// the index width caps a search at 2^27 states. Slot positions come from a multiply-high
// ("fastrange") rather than a mask, so the slot count need not be a power of two.

public struct StateTable: ~Copyable {
    public static let keyBits = 56
    public static let keyMask: UInt64 = (1 << 56) - 1
    /// The most states a table holds.
    public static let maximumCount = 1 << 31

    private static let empty = UInt64.max

    private var slots: UnsafeMutablePointer<UInt64>
    private var slotCount: Int
    private var growthThreshold: Int
    public private(set) var count = 0

    public init(initialSlots: Int = 8192) {
        slotCount = max(64, initialSlots)
        growthThreshold = Self.threshold(slotCount)
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: Self.empty, count: slotCount)
    }

    deinit {
        slots.deallocate()
    }

    /// Bytes allocated for slots.
    public var memoryBytes: Int { slotCount * 8 }

    /// The bytes held once `adding` more states are inserted: when that passes the growth
    /// threshold, the old slots and the new ones (1.5x) together, during the copy.
    public func bytesHeld(afterAdding adding: Int) -> Int {
        count + adding > growthThreshold ? memoryBytes + max(memoryBytes * 3 / 2, (count + adding) * 10) : memoryBytes
    }

    /// Empties the table, sized so that `count` states fill a third of it: reused when it
    /// is big enough and not much bigger, reallocated otherwise (clearing costs as much as the
    /// slots it touches).
    public mutating func removeAll(reservingFor count: Int) {
        let wanted = max(64, count * 3)
        if wanted > slotCount || slotCount > 4 * wanted {
            slots.deallocate()
            slotCount = wanted
            slots = .allocate(capacity: slotCount)
        }
        growthThreshold = Self.threshold(slotCount)
        slots.initialize(repeating: Self.empty, count: slotCount)
        self.count = 0
    }

    /// Adds `key` with `tag` unless it is already present. Returns whether it was added.
    @inline(__always)
    public mutating func insert(_ key: UInt64, tag: UInt8) -> Bool {
        var slot = Self.slot(key, slotCount)
        while true {
            let content = slots[slot]
            if content & Self.keyMask == key { return false }
            if content == Self.empty { break }
            slot &+= 1
            if slot == slotCount { slot = 0 }
        }
        slots[slot] = key | UInt64(tag) &<< UInt64(Self.keyBits)
        count &+= 1
        if count > growthThreshold { grow() }
        return true
    }

    /// The tag stored with `key`, if present.
    public func tag(of key: UInt64) -> UInt8? {
        var slot = Self.slot(key, slotCount)
        while true {
            let content = slots[slot]
            if content & Self.keyMask == key { return UInt8(truncatingIfNeeded: content >> UInt64(Self.keyBits)) }
            if content == Self.empty { return nil }
            slot &+= 1
            if slot == slotCount { slot = 0 }
        }
    }

    public func contains(_ key: UInt64) -> Bool { tag(of: key) != nil }

    private mutating func grow() {
        precondition(count < Self.maximumCount, "callers stop at StateTable.maximumCount")
        let oldSlots = slots
        let oldCount = slotCount
        slotCount = oldCount + oldCount / 2
        growthThreshold = Self.threshold(slotCount)
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: Self.empty, count: slotCount)
        for old in 0..<oldCount where oldSlots[old] != Self.empty {
            var slot = Self.slot(oldSlots[old] & Self.keyMask, slotCount)
            while slots[slot] != Self.empty {
                slot &+= 1
                if slot == slotCount { slot = 0 }
            }
            slots[slot] = oldSlots[old]
        }
        oldSlots.deallocate()
    }

    private static func threshold(_ slotCount: Int) -> Int {
        slotCount / 5 * 4
    }

    /// The key's home slot. The key is an all-ones-free 56-bit word; the multiply spreads its low
    /// bits (where the busiest blocks' positions are) into the high bits that fastrange uses.
    @inline(__always)
    private static func slot(_ key: UInt64, _ slotCount: Int) -> Int {
        let hash = key &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(truncatingIfNeeded: slotCount)).high)
    }
}
