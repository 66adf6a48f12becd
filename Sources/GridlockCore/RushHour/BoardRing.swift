// The boards (occupied cells) of the states in `bfs`'s queue, in queue order, in a ring: the
// board of the state being expanded is read at the front, the new states' boards are written
// at the back. It holds the queue, about one level, where an array per level held two: on
// rush_18k, 1.8 bytes a state where the arrays took 2.4. Beside each board, a byte: how many
// slides the state's parent had, which the expansion needs (RushHourBFSExpansion.swift).
//
//   [ written .. | free ......... | read from here .. ]
//                ^ back            ^ front

@usableFromInline
struct BoardRing: ~Copyable {
    @usableFromInline var slots: UnsafeMutablePointer<UInt64>
    /// `parentSlides[i]`: the byte beside `slots[i]`.
    @usableFromInline var parentSlides: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var front = 0
    @usableFromInline var back = 0
    @usableFromInline var count = 0
    /// The most bytes it held.
    @usableFromInline var peakBytes: Int

    @inlinable
    init() {
        capacity = 64
        (slots, parentSlides) = Self.allocate(capacity)
        peakBytes = capacity * Self.slotBytes
    }

    @inlinable deinit {
        slots.deallocate()
    }

    /// One allocation for both: the boards, then the bytes.
    @inlinable
    static func allocate(_ capacity: Int) -> (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: capacity * slotBytes, alignment: 8)
        return (raw.bindMemory(to: UInt64.self, capacity: capacity), (raw + capacity * 8).bindMemory(to: UInt8.self, capacity: capacity))
    }

    @usableFromInline static let slotBytes = 9

    @inlinable
    var bytes: Int { capacity * Self.slotBytes }

    /// The bytes held once `adding` more boards are queued.
    @inlinable
    func bytesHeld(afterAdding adding: Int) -> Int {
        count + adding > capacity ? bytes + max(capacity + capacity / 4, count + adding) * Self.slotBytes : bytes
    }

    /// Queues `board` at the back, with its parent's count of slides.
    @inlinable @inline(__always)
    mutating func append(_ board: UInt64, parentSlides slides: UInt8) {
        if count == capacity { grow(count + 1) }
        slots[back] = board
        parentSlides[back] = slides
        back &+= 1
        if back == capacity { back = 0 }
        count &+= 1
    }

    /// Writes `board` at `slot`, a free one, without queueing it.
    @inlinable @inline(__always)
    func write(_ board: UInt64, parentSlides slides: UInt8, at slot: Int) {
        slots[slot] = board
        parentSlides[slot] = slides
    }

    /// Queues the `count` boards written from the back on.
    @inlinable @inline(__always)
    mutating func advance(by count: Int) {
        back &+= count
        if back >= capacity { back &-= capacity }
        self.count &+= count
    }

    /// Takes the board at the front, and its parent's count of slides.
    @inlinable @inline(__always)
    mutating func popFront() -> (board: UInt64, parentSlides: UInt8) {
        let board = (slots[front], parentSlides[front])
        front &+= 1
        if front == capacity { front = 0 }
        count &-= 1
        return board
    }

    /// A quarter bigger, or as much as needed, the queued boards moved to its start.
    @usableFromInline @inline(never)
    mutating func grow(_ needed: Int) {
        let size = max(needed, capacity + capacity / 4)
        let first = min(count, capacity - front)
        let (grown, grownSlides) = Self.allocate(size)
        grown.initialize(from: slots + front, count: first)
        (grown + first).initialize(from: slots, count: count - first)
        grownSlides.initialize(from: parentSlides + front, count: first)
        (grownSlides + first).initialize(from: parentSlides, count: count - first)
        slots.deallocate()
        slots = grown
        parentSlides = grownSlides
        capacity = size
        front = 0
        back = count == size ? 0 : count
        peakBytes = max(peakBytes, bytes)
    }
}
