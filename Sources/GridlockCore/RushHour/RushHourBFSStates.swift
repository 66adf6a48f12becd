// What `bfs` holds while it searches, and how that stays under 16 bytes a state.
//
//   entries:  every state generated, key and tag packed in 2 to 8 bytes, in chunks
//   window:   the last three levels (older ones too while small), a hash set at 1/3 to 4/5 full
//   boards:   the cells of the states in the queue, in a ring (BoardRing.swift)
//
// The entries are most of it. A key takes 3 bits a movable block and the tag 8, so a puzzle of
// up to 13 movable blocks packs an entry in 6 bytes (fewer blocks, fewer bytes), up to 16 in 7: each is written as 8 bytes
// at 6 or 7 bytes from the last, over the next one's place, which is written after it. They
// are kept in chunks of 512, allocated as they fill: a search holds at most one chunk it has
// not filled, and no entry is ever copied. An array grown by a quarter at a time held up to
// 25% more than it used (9.6 bytes a state on a 270,068-state cluster), and every growth copied
// it all. The first chunk starts at 64 entries and grows by a quarter up to its full size.
// Packed, rush_18k holds 14.4 bytes a state; with 8-byte entries in an array and a board array
// per level, it held 18.4.

/// Every state a search generated, as table entries (`RushHourGeometry.entry`), packed, in
/// chunks: `self[i]` is entry i.
@usableFromInline
struct EntryStore: ~Copyable {
    @usableFromInline static let chunkShift = 9
    @usableFromInline static let chunkSize = 1 << chunkShift

    /// Bytes an entry takes.
    @usableFromInline let stride: Int
    /// Bits of the key: the tag is stored just above them.
    @usableFromInline let keyBits: UInt64
    @usableFromInline var chunks: UnsafeMutablePointer<UnsafeMutableRawPointer>
    @usableFromInline var chunkSlots: Int
    @usableFromInline var chunkCount = 1
    /// The first chunk's size, until it is full size.
    @usableFromInline var firstChunkSize = 64
    @usableFromInline var count = 0
    @usableFromInline var capacity = 64
    /// The last chunk, offset so that entry i is at `writing + i * stride`.
    @usableFromInline var writing: UnsafeMutableRawPointer

    /// Entries whose keys take `keyBits` bits.
    @inlinable
    init(keyBits: Int) {
        self.keyBits = UInt64(keyBits)
        stride = (keyBits + 8 + 7) / 8
        chunkSlots = 4
        chunks = .allocate(capacity: chunkSlots)
        chunks[0] = Self.allocateChunk(firstChunkSize, stride: stride)
        writing = chunks[0]
    }

    @inlinable deinit {
        for chunk in 0..<chunkCount { chunks[chunk].deallocate() }
        chunks.deallocate()
    }

    /// Room for `size` entries, and for the last one's 8-byte write.
    @inlinable
    static func allocateChunk(_ size: Int, stride: Int) -> UnsafeMutableRawPointer {
        .allocate(byteCount: size * stride + 8 - stride, alignment: 8)
    }

    /// Bytes allocated: the chunks and the table of chunks.
    @inlinable
    var memoryBytes: Int { capacity * stride + chunkCount * (8 - stride) + chunkSlots * 8 }

    /// Bytes allocated once `adding` more entries are stored.
    @inlinable
    func bytesHeld(afterAdding adding: Int) -> Int {
        let needed = count + adding
        guard needed > capacity else { return memoryBytes }
        let chunksNeeded = (needed + Self.chunkSize - 1) >> Self.chunkShift
        return chunksNeeded * (Self.chunkSize * stride + 8) + max(chunkSlots, chunksNeeded) * 8
    }

    @inlinable
    subscript(index: Int) -> UInt64 {
        @inline(__always) get {
            let chunk = chunks[index &>> Self.chunkShift]
            let packed = chunk.loadUnaligned(fromByteOffset: (index & (Self.chunkSize &- 1)) &* stride, as: UInt64.self)
            let key = packed & ((1 &<< keyBits) &- 1)
            return key | (packed &>> keyBits & 0xFF) &<< UInt64(StateTable.keyBits)
        }
    }

    @inlinable @inline(__always)
    mutating func append(_ entry: UInt64) {
        if count == capacity { grow() }
        write(entry, at: count)
        count &+= 1
    }

    /// Writes `entry` at `index`, in the last chunk, without counting it.
    @inlinable @inline(__always)
    func write(_ entry: UInt64, at index: Int) {
        let packed = entry & StateTable.keyMask | UInt64(RushHourGeometry.tag(of: entry)) &<< keyBits
        writing.storeBytes(of: packed, toByteOffset: index &* stride, as: UInt64.self)
    }

    /// Room for one more: the first chunk a quarter bigger, up to full size, then a new chunk.
    @usableFromInline @inline(never)
    mutating func grow() {
        if chunkCount == 1, firstChunkSize < Self.chunkSize {
            let size = min(Self.chunkSize, firstChunkSize + firstChunkSize / 4)
            let grown = Self.allocateChunk(size, stride: stride)
            grown.copyMemory(from: chunks[0], byteCount: count * stride)
            chunks[0].deallocate()
            chunks[0] = grown
            firstChunkSize = size
            capacity = size
            writing = grown
            return
        }
        if chunkCount == chunkSlots {
            let grown = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: chunkSlots * 2)
            grown.moveInitialize(from: chunks, count: chunkCount)
            chunks.deallocate()
            chunks = grown
            chunkSlots *= 2
        }
        chunks[chunkCount] = Self.allocateChunk(Self.chunkSize, stride: stride)
        writing = chunks[chunkCount] - (chunkCount << Self.chunkShift) * stride
        chunkCount += 1
        capacity = chunkCount << Self.chunkShift
    }
}

/// Whether a key has the prisoner at the goal.
@usableFromInline
struct GoalTest {
    @usableFromInline let prisonerShift: UInt64
    @usableFromInline let goalPosition: UInt64

    @inlinable
    init(_ geometry: RushHourGeometry) {
        prisonerShift = UInt64(geometry.prisoner * RushHourGeometry.bitsPerBlock)
        goalPosition = UInt64(geometry.goalPosition)
    }

    @inlinable @inline(__always)
    func isGoal(_ key: UInt64) -> Bool {
        (key &>> prisonerShift) & RushHourGeometry.positionMask == goalPosition
    }
}

/// What `bfs` holds: the entries, which are also its queue; the window of recent levels; and
/// the boards of the level being expanded and of the one being generated.
@usableFromInline
struct BFSStates<Window: SearchStateTable & ~Copyable>: ~Copyable {
    @usableFromInline var entries: EntryStore
    /// Where each level starts in `entries`, the level being generated included.
    @usableFromInline var levelStarts: [Int] = [0]
    /// The states of the level being expanded, the one before and the one being generated.
    /// 2 KiB to start, like the entries: most database clusters are a few thousand states.
    @usableFromInline var window = Window(initialSlots: 256)
    /// The most bytes the window held.
    @usableFromInline var peakWindowBytes = 0
    /// The boards of the states in the queue.
    @usableFromInline var boards = BoardRing()
    /// Where the first goal generated is in `entries`.
    @usableFromInline var goalIndex: Int?

    /// For a puzzle whose keys take `keyBits` bits.
    @inlinable
    init(keyBits: Int) {
        entries = EntryStore(keyBits: keyBits)
    }

    @inlinable
    var count: Int { entries.count }

    /// Once the level from `start` is expanded, and the next one complete: the window keeps
    /// only those two levels, the only ones the next level's successors can meet. While it is
    /// at most half full, it keeps the older ones too: no successor of level L is at level L-2
    /// or before (its parent would then be at L-1 at most), so they never match, and a
    /// small window rebuilt at every level cost small puzzles 12% of their time (rush_18k
    /// 125-130 µs a puzzle, 121 without; rebuilt above a third full, 123; above 0.6, 131).
    @inlinable
    mutating func endLevel(expanded start: Int) {
        peakWindowBytes = max(peakWindowBytes, window.memoryBytes)
        if window.count * 16 <= window.memoryBytes { return }
        window.removeAll(refillingWith: count - start) { entries[start &+ $0] }
    }

    /// Looks up the `count` candidates in `buffer` and queues the new ones with their boards.
    /// Each is written to the next free place whether new or not, and the place moves on only
    /// for a new one. Returns the index of the first goal among them, the first goal of the
    /// search, after which it stops if `stopAtGoal`. The goal test looks at the prisoner first:
    /// almost never at the goal, so well predicted, where whether a candidate is new is a coin toss.
    /// Almost always `queueInPlace` does it; here, through the buffer, only where the candidates
    /// might not all fit in the entries' last chunk or in the ring, which then grow.
    @inlinable @inline(__always)
    mutating func queueNew(
        _ buffer: borrowing CandidateBuffer, count candidates: Int, parentSlides: Int, goal: GoalTest, stopAtGoal: Bool
    ) -> Int? {
        if entries.count &+ candidates <= entries.capacity && boards.count &+ candidates <= boards.capacity {
            return queueInPlace(buffer, count: candidates, parentSlides: parentSlides, goal: goal, stopAtGoal: stopAtGoal)
        }
        var added = 0
        var goalAt: Int?
        for index in 0..<candidates {
            let candidate = buffer.entries[index]
            let key = candidate & StateTable.keyMask
            let isNew = window.insert(key, tag: RushHourGeometry.tag(of: candidate))
            buffer.fresh[added] = candidate
            buffer.freshBoards[added] = buffer.boards[index]
            added &+= isNew ? 1 : 0
            if goal.isGoal(key), isNew, goalIndex == nil {
                goalIndex = count &+ added &- 1
                goalAt = index
                if stopAtGoal { break }
            }
        }
        let slides = UInt8(truncatingIfNeeded: parentSlides)
        for index in 0..<added {
            entries.append(buffer.fresh[index])
            boards.append(buffer.freshBoards[index], parentSlides: slides)
        }
        return goalAt
    }

    /// queueNew where the entries' last chunk and the ring have room for every candidate, as
    /// almost always: each is written straight to its place, not first to the buffer's `fresh`
    /// and copied from there (rush_18k 116 µs a puzzle that way, 111-112 this way).
    @inlinable @inline(__always)
    mutating func queueInPlace(
        _ buffer: borrowing CandidateBuffer, count candidates: Int, parentSlides: Int, goal: GoalTest, stopAtGoal: Bool
    ) -> Int? {
        let first = entries.count
        let slides = UInt8(truncatingIfNeeded: parentSlides)
        var added = 0
        var back = boards.back
        var goalAt: Int?
        for index in 0..<candidates {
            let candidate = buffer.entries[index]
            let key = candidate & StateTable.keyMask
            let isNew = window.insert(key, tag: RushHourGeometry.tag(of: candidate))
            entries.write(candidate, at: first &+ added)
            boards.write(buffer.boards[index], parentSlides: slides, at: back)
            let step = isNew ? 1 : 0
            added &+= step
            back &+= step
            if back == boards.capacity { back = 0 }
            if goal.isGoal(key), isNew, goalIndex == nil {
                goalIndex = first &+ added &- 1
                goalAt = index
                if stopAtGoal { break }
            }
        }
        entries.count &+= added
        boards.advance(by: added)
        return goalAt
    }

    /// Marks in `siblings` (CandidateBuffer's) the slides that gave the parent of the entry at
    /// `index` its next new states: the entries after it, up to `end`, with the same parent.
    /// Returns where that family ends, and the blocks it marked, a bit each. The family's first member is
    /// not marked: its block is numbered at most as the others' entering blocks, and a state's
    /// expansion reads only the marks of blocks numbered above its own (RushHourExpansion.expand),
    /// so each member can read the marks of the whole family.
    @inlinable @inline(__always)
    func markFamily(of index: Int, entry: UInt64, before end: Int, in siblings: UnsafeMutableRawPointer) -> (end: Int, marked: UInt32) {
        let tag = RushHourGeometry.tag(of: entry)
        guard tag != RushHourGeometry.rootTag else { return (index &+ 1, 0) }
        let parent = RushHourGeometry.parent(of: entry & StateTable.keyMask, tag: tag)
        var next = index &+ 1
        var marked: UInt32 = 0
        while next < end {
            let sibling = entries[next]
            let key = sibling & StateTable.keyMask
            let siblingTag = RushHourGeometry.tag(of: sibling)
            guard RushHourGeometry.parent(of: key, tag: siblingTag) == parent else { break }
            let block = RushHourGeometry.untag(siblingTag).block
            let position = RushHourGeometry.position(of: block, in: key)
            let marks = siblings.load(fromByteOffset: block, as: UInt8.self)
            siblings.storeBytes(of: marks | 1 &<< UInt8(truncatingIfNeeded: position), toByteOffset: block, as: UInt8.self)
            marked |= 1 &<< UInt32(truncatingIfNeeded: block)
            next &+= 1
        }
        return (next, marked)
    }

    /// The bytes held once `adding` more states are stored, growth included.
    @inlinable
    func bytesHeld(afterAdding adding: Int) -> Int {
        entries.bytesHeld(afterAdding: adding) + boards.bytesHeld(afterAdding: adding) + window.bytesHeld(afterAdding: adding)
    }

    /// The most bytes held: entries, the window at its largest, the boards at their largest.
    @inlinable
    var memoryBytes: Int {
        entries.memoryBytes + max(peakWindowBytes, window.memoryBytes) + boards.peakBytes
    }

    /// The moves from the start to the entry at `index`, first move first: each tag names the
    /// slide back to the parent, whose tag the window still holds for the last levels; before
    /// those, the parent is found by a scan of its level.
    @usableFromInline
    func path(to index: Int, geometry: RushHourGeometry, puzzle: RushHourPuzzle) -> [SolutionMove] {
        var moves: [SolutionMove] = []
        var level = levelStarts.lastIndex { $0 <= index }!
        var entry = entries[index]
        while RushHourGeometry.tag(of: entry) != RushHourGeometry.rootTag {
            let key = entry & StateTable.keyMask
            let (block, previous) = RushHourGeometry.untag(RushHourGeometry.tag(of: entry))
            let current = RushHourGeometry.position(of: block, in: key)
            moves.append(geometry.solutionMove(in: puzzle, block: block, from: previous, to: current))
            let parent = RushHourGeometry.key(key, moving: block, from: current, to: previous)
            level -= 1
            if let tag = window.tag(of: parent) {
                entry = RushHourGeometry.entry(parent, tag: tag)
            } else {
                var candidate = levelStarts[level]
                while entries[candidate] & StateTable.keyMask != parent { candidate += 1 }
                entry = entries[candidate]
            }
        }
        return moves.reversed()
    }
}
