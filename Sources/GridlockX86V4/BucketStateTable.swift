// The bfs window on x86-64-v4: StateTable's slots (key and tag, 8 bytes) in buckets of eight,
// one 64-byte cache line each, each bucket looked at with one 512-bit load.
//
//   bucket: [ s0 | s1 | s2 | s3 | s4 | s5 | s6 | s7 ]   filled from s0 on; all ones: empty
//   hit:    any lane's slot & keyMask == key               (vpandq, vpcmpeqq, kortestb)
//   insert: the first empty slot = the number of filled ones        (a byte kept a bucket)
//
// A lookup reads one line and takes no branch per slot; StateTable's linear probing takes one
// per slot it passes, at 1/3 to 4/5 full. A full bucket sends the key to the next. Slots are
// never removed one by one, so the filled ones stay a prefix of their bucket.
//
// Written with Swift's SIMD8<UInt64>. The mask's type is spelled out: in a first try, with it
// left to inference, `.==` compiled to a loop over the lanes through the stack (Swift 6.3), so
// the hit test was a minimum over the lanes (`min() == 0`: six instructions more). Measured
// against this one, interleaved three times on rush_18k: no difference (177-182 µs both).
// Built for a plain x86-64, these lines take four SSE2 registers a bucket and lose to linear
// probing; this module is compiled for x86-64-v4 only (Package.swift), and runs only where the
// CPU has it.

import GridlockCore

public struct BucketStateTable: SearchStateTable, ~Copyable {
    private static let empty = UInt64.max
    private static let slotsPerBucket = 8

    private var slots: UnsafeMutablePointer<UInt64>
    /// `filled[b]`: how many of bucket b's slots are filled, the first ones. Kept beside the
    /// buckets (a byte for 64) so that an insert takes its slot from it rather than working it
    /// out from the lanes, and a refill needs no lanes at all.
    private var filled: UnsafeMutablePointer<UInt8>
    private var bucketCount: Int
    private var growthThreshold: Int
    public private(set) var count = 0

    public init(initialSlots: Int) {
        bucketCount = max(8, initialSlots / Self.slotsPerBucket)
        growthThreshold = Self.threshold(bucketCount)
        (slots, filled) = Self.allocate(bucketCount)
    }

    deinit {
        slots.deallocate()
    }

    /// Bucket-aligned slots, all empty, and their counts after them, all zero.
    private static func allocate(_ bucketCount: Int) -> (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt8>) {
        let count = bucketCount * slotsPerBucket
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes(bucketCount), alignment: 64)
        let slots = raw.bindMemory(to: UInt64.self, capacity: count)
        let filled = (raw + count * 8).bindMemory(to: UInt8.self, capacity: bucketCount)
        empty(slots, filled, bucketCount)
        return (slots, filled)
    }

    private static func empty(_ slots: UnsafeMutablePointer<UInt64>, _ filled: UnsafeMutablePointer<UInt8>, _ bucketCount: Int) {
        slots.initialize(repeating: empty, count: bucketCount * slotsPerBucket)
        filled.initialize(repeating: 0, count: bucketCount)
    }

    private static func bytes(_ bucketCount: Int) -> Int { bucketCount * (slotsPerBucket * 8 + 1) }

    public var memoryBytes: Int { Self.bytes(bucketCount) }

    /// When that passes the growth threshold, the old slots and the new ones together, during
    /// the copy: half as big again, or at 4/5 full, a bucket's bytes for 6.4 states.
    public func bytesHeld(afterAdding adding: Int) -> Int {
        guard count + adding > growthThreshold else { return memoryBytes }
        return memoryBytes + max(memoryBytes * 3 / 2, (count + adding) * Self.bytes(5) / (4 * Self.slotsPerBucket))
    }

    /// As StateTable's: `count` states fill a third of it, reused unless too small or over 4x.
    public mutating func removeAll(reservingFor count: Int) {
        let wanted = max(8, (count * 3 + Self.slotsPerBucket - 1) / Self.slotsPerBucket)
        if wanted > bucketCount || bucketCount > 4 * wanted {
            slots.deallocate()
            bucketCount = wanted
            (slots, filled) = Self.allocate(bucketCount)
        } else {
            Self.empty(slots, filled, bucketCount)
        }
        growthThreshold = Self.threshold(bucketCount)
        self.count = 0
    }

    /// Keys known to be distinct go in without a compare: each to the first bucket from its
    /// home with room. The bfs window is refilled so at the end of most levels, two levels'
    /// worth: inserted one by one, each with its compare and its count of filled lanes,
    /// rush_18k took 107 µs a puzzle and the database's boards of 1,000-10,000 states 73-74;
    /// this way, 105 and 71.
    @inline(__always)
    public mutating func removeAll(refillingWith count: Int, _ entry: (Int) -> UInt64) {
        removeAll(reservingFor: count)
        for index in 0..<count { place(entry(index)) }
        // A third full at most (removeAll's sizing): under the growth threshold.
        self.count = count
    }

    /// Puts `word` (a key and its tag) in the first bucket from its key's home with room.
    @inline(__always)
    private func place(_ word: UInt64) {
        var bucket = Self.bucket(word & StateTable.keyMask, bucketCount)
        while filled[bucket] == UInt8(Self.slotsPerBucket) {
            bucket &+= 1
            if bucket == bucketCount { bucket = 0 }
        }
        slots[bucket &* Self.slotsPerBucket &+ Int(filled[bucket])] = word
        filled[bucket] &+= 1
    }

    @inline(__always)
    public mutating func insert(_ key: UInt64, tag: UInt8) -> Bool {
        guard let bucket = vacantBucket(for: key) else { return false }
        slots[bucket &* Self.slotsPerBucket &+ Int(filled[bucket])] = key | UInt64(tag) &<< UInt64(StateTable.keyBits)
        filled[bucket] &+= 1
        count &+= 1
        if count > growthThreshold { grow() }
        return true
    }

    public func contains(_ key: UInt64) -> Bool {
        vacantBucket(for: key) == nil
    }

    /// The tag stored with `key`, if present: for the path back, so one slot at a time.
    public func tag(of key: UInt64) -> UInt8? {
        var bucket = Self.bucket(key, bucketCount)
        while true {
            let first = slots + bucket &* Self.slotsPerBucket
            for lane in 0..<Self.slotsPerBucket {
                let content = first[lane]
                if content & StateTable.keyMask == key { return UInt8(truncatingIfNeeded: content &>> UInt64(StateTable.keyBits)) }
                if content == Self.empty { return nil }
            }
            bucket &+= 1
            if bucket == bucketCount { bucket = 0 }
        }
    }

    /// The bucket where `key` goes (its first empty slot is `filled[bucket]`), or nil when it
    /// is there already.
    @inline(__always)
    private func vacantBucket(for key: UInt64) -> Int? {
        let keys = SIMD8<UInt64>(repeating: key)
        let keyMask = SIMD8<UInt64>(repeating: StateTable.keyMask)
        var bucket = Self.bucket(key, bucketCount)
        while true {
            let lanes = UnsafeRawPointer(slots + bucket &* Self.slotsPerBucket).load(as: SIMD8<UInt64>.self)
            let found: SIMDMask<SIMD8<Int64>> = lanes & keyMask .== keys
            if any(found) { return nil }
            if filled[bucket] < UInt8(Self.slotsPerBucket) { return bucket }
            bucket &+= 1
            if bucket == bucketCount { bucket = 0 }
        }
    }

    /// Half as big again, every slot placed anew: its keys are distinct, so none is compared.
    private mutating func grow() {
        precondition(count < StateTable.maximumCount, "callers stop at StateTable.maximumCount")
        let (oldSlots, oldFilled, oldBucketCount) = (slots, filled, bucketCount)
        bucketCount += bucketCount / 2
        growthThreshold = Self.threshold(bucketCount)
        (slots, filled) = Self.allocate(bucketCount)
        for bucket in 0..<oldBucketCount {
            for lane in 0..<Int(oldFilled[bucket]) { place(oldSlots[bucket &* Self.slotsPerBucket &+ lane]) }
        }
        oldSlots.deallocate()
    }

    /// At most 4/5 full, as StateTable.
    private static func threshold(_ bucketCount: Int) -> Int {
        bucketCount * slotsPerBucket / 5 * 4
    }

    /// The key's home bucket: StateTable's multiply and fastrange, over buckets.
    @inline(__always)
    private static func bucket(_ key: UInt64, _ bucketCount: Int) -> Int {
        let hash = key &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(truncatingIfNeeded: bucketCount)).high)
    }
}
