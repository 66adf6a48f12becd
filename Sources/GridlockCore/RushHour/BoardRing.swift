// The boards (occupied cells) of the states in `bfs`'s queue, in queue order, in a ring: the
// board of the state being expanded is read at the front, the new states' boards are written
// at the back. It holds the queue, about one level, where an array per level held two: on
// rush_18k, 1.8 bytes a state where the arrays took 2.4.
//
//   [ written .. | free ......... | read from here .. ]
//                ^ back            ^ front

@usableFromInline
struct BoardRing: ~Copyable {
    @usableFromInline var slots: UnsafeMutablePointer<UInt64>
    @usableFromInline var capacity: Int
    @usableFromInline var front = 0
    @usableFromInline var back = 0
    @usableFromInline var count = 0
    /// The most bytes it held.
    @usableFromInline var peakBytes: Int

    @inlinable
    init() {
        capacity = 64
        slots = .allocate(capacity: capacity)
        peakBytes = capacity * 8
    }

    @inlinable deinit {
        slots.deallocate()
    }

    @inlinable
    var bytes: Int { capacity * 8 }

    /// The bytes held once `adding` more boards are queued.
    @inlinable
    func bytesHeld(afterAdding adding: Int) -> Int {
        count + adding > capacity ? bytes + max(capacity + capacity / 4, count + adding) * 8 : bytes
    }

    /// Queues `board` at the back.
    @inlinable @inline(__always)
    mutating func append(_ board: UInt64) {
        if count == capacity { grow(count + 1) }
        slots[back] = board
        back &+= 1
        if back == capacity { back = 0 }
        count &+= 1
    }

    /// Takes the board at the front.
    @inlinable @inline(__always)
    mutating func popFront() -> UInt64 {
        let board = slots[front]
        front &+= 1
        if front == capacity { front = 0 }
        count &-= 1
        return board
    }

    /// A quarter bigger, or as much as needed, the queued boards moved to its start.
    @usableFromInline @inline(never)
    mutating func grow(_ needed: Int) {
        let size = max(needed, capacity + capacity / 4)
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
        let first = min(count, capacity - front)
        grown.initialize(from: slots + front, count: first)
        (grown + first).initialize(from: slots, count: count - first)
        slots.deallocate()
        slots = grown
        capacity = size
        front = 0
        back = count == size ? 0 : count
        peakBytes = max(peakBytes, bytes)
    }
}
