// What `bfs` holds while it searches, and how that stays under 16 bytes a state.
//
//   entries:  every state generated, key and tag, 8 bytes      [chunk 0][chunk 1][chunk 2][..
//   window:   the last three levels, a hash set at 1/3 to 4/5 full
//   boards:   the cells of each state of the level being expanded and of the one being generated
//
// The entries are most of it, so they are kept in chunks of 2,048 (16 KiB), allocated as they
// fill: a search holds at most one chunk it has not filled, and no entry is ever copied. An
// array grown by a quarter at a time held up to 25% more than it used (9.6 bytes a state on a
// 270,068-state cluster, where chunks hold 8.1), and every growth copied it all. The first
// chunk starts at 256 entries and grows by a quarter up to its full size: most database
// clusters are a few thousand states.

/// Every state a search generated, as table entries, in chunks: `self[i]` is entry i.
@usableFromInline
struct EntryStore: ~Copyable {
    @usableFromInline static let chunkShift = 11
    @usableFromInline static let chunkSize = 1 << chunkShift

    @usableFromInline var chunks: UnsafeMutablePointer<UnsafeMutablePointer<UInt64>>
    @usableFromInline var chunkSlots: Int
    @usableFromInline var chunkCount = 1
    /// The first chunk's size, until it is full size.
    @usableFromInline var firstChunkSize = 256
    @usableFromInline var count = 0

    @inlinable
    init() {
        chunkSlots = 16
        chunks = .allocate(capacity: chunkSlots)
        chunks[0] = .allocate(capacity: firstChunkSize)
    }

    @inlinable deinit {
        for chunk in 0..<chunkCount { chunks[chunk].deallocate() }
        chunks.deallocate()
    }

    @inlinable
    var capacity: Int { chunkCount == 1 ? firstChunkSize : chunkCount << Self.chunkShift }

    /// Bytes allocated: the chunks and the table of chunks.
    @inlinable
    var memoryBytes: Int { capacity * 8 + chunkSlots * 8 }

    /// Bytes allocated once `adding` more entries are stored.
    @inlinable
    func bytesHeld(afterAdding adding: Int) -> Int {
        let needed = count + adding
        guard needed > capacity else { return memoryBytes }
        let chunksNeeded = (needed + Self.chunkSize - 1) >> Self.chunkShift
        return chunksNeeded * Self.chunkSize * 8 + max(chunkSlots, chunksNeeded) * 8
    }

    @inlinable
    subscript(index: Int) -> UInt64 {
        @inline(__always) get { chunks[index &>> Self.chunkShift][index & (Self.chunkSize &- 1)] }
    }

    @inlinable @inline(__always)
    mutating func append(_ entry: UInt64) {
        if count == capacity { grow() }
        chunks[count &>> Self.chunkShift][count & (Self.chunkSize &- 1)] = entry
        count &+= 1
    }

    /// Room for one more: the first chunk a quarter bigger, up to full size, then a new chunk.
    @usableFromInline @inline(never)
    mutating func grow() {
        if chunkCount == 1, firstChunkSize < Self.chunkSize {
            let size = min(Self.chunkSize, firstChunkSize + firstChunkSize / 4)
            let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
            grown.moveInitialize(from: chunks[0], count: count)
            chunks[0].deallocate()
            chunks[0] = grown
            firstChunkSize = size
            return
        }
        if chunkCount == chunkSlots {
            let grown = UnsafeMutablePointer<UnsafeMutablePointer<UInt64>>.allocate(capacity: chunkSlots * 2)
            grown.moveInitialize(from: chunks, count: chunkCount)
            chunks.deallocate()
            chunks = grown
            chunkSlots *= 2
        }
        chunks[chunkCount] = .allocate(capacity: Self.chunkSize)
        chunkCount += 1
    }
}

/// What `bfs` holds: the entries, which are also its queue; the window of recent levels; and
/// the boards of the level being expanded and of the one being generated.
@usableFromInline
struct BFSStates<Window: SearchStateTable & ~Copyable>: ~Copyable {
    @usableFromInline var entries = EntryStore()
    /// Where each level starts in `entries`, the level being generated included.
    @usableFromInline var levelStarts: [Int] = [0]
    /// The states of the level being expanded, the one before and the one being generated.
    /// 2 KiB to start, like the entries: most database clusters are a few thousand states.
    @usableFromInline var window = Window(initialSlots: 256)
    /// The most bytes the window held.
    @usableFromInline var peakWindowBytes = 0
    /// `boards[i]`: the cells of the expanded level's state i; `nextBoards`, the same for the
    /// level being generated.
    @usableFromInline var boards: UnsafeMutablePointer<UInt64>
    @usableFromInline var boardCapacity: Int
    @usableFromInline var nextBoards: UnsafeMutablePointer<UInt64>
    @usableFromInline var nextBoardCapacity: Int
    /// The most bytes the two board arrays held together.
    @usableFromInline var peakBoardBytes = 0
    /// Where the first goal generated is in `entries`.
    @usableFromInline var goalIndex: Int?

    @inlinable
    init() {
        boardCapacity = 32
        boards = .allocate(capacity: boardCapacity)
        nextBoardCapacity = 32
        nextBoards = .allocate(capacity: nextBoardCapacity)
        peakBoardBytes = (boardCapacity + nextBoardCapacity) * 8
    }

    @inlinable deinit {
        boards.deallocate()
        nextBoards.deallocate()
    }

    @inlinable
    var count: Int { entries.count }

    /// Room for `more` boards past the end of the level that starts at `levelEnd`.
    @inlinable @inline(__always)
    mutating func reserveBoards(_ more: Int, levelEnd: Int) {
        if count &- levelEnd &+ more > nextBoardCapacity { growNextBoards(count - levelEnd + more, keeping: count - levelEnd) }
    }

    /// Grows the next level's boards by a quarter: memory per state is a target.
    @usableFromInline @inline(never)
    mutating func growNextBoards(_ needed: Int, keeping kept: Int) {
        nextBoardCapacity = max(needed, nextBoardCapacity + nextBoardCapacity / 4)
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: nextBoardCapacity)
        grown.moveInitialize(from: nextBoards, count: kept)
        nextBoards.deallocate()
        nextBoards = grown
        peakBoardBytes = max(peakBoardBytes, (boardCapacity + nextBoardCapacity) * 8)
    }

    /// Once the level from `start` is expanded, and the next one complete: the boards of the
    /// new level become the ones to expand, and the window keeps only those two levels, the
    /// only ones the next level's successors can meet.
    @inlinable
    mutating func endLevel(expanded start: Int) {
        swap(&boards, &nextBoards)
        swap(&boardCapacity, &nextBoardCapacity)
        peakWindowBytes = max(peakWindowBytes, window.memoryBytes)
        window.removeAll(reservingFor: count - start)
        for index in start..<count {
            let entry = entries[index]
            _ = window.insert(entry & StateTable.keyMask, tag: RushHourGeometry.tag(of: entry))
        }
    }

    /// The bytes held once `adding` more states are stored, growth included.
    @inlinable
    func bytesHeld(afterAdding adding: Int, levelEnd: Int) -> Int {
        let boardBytes = (boardCapacity + max(nextBoardCapacity, count - levelEnd + adding)) * 8
        return entries.bytesHeld(afterAdding: adding) + boardBytes + window.bytesHeld(afterAdding: adding)
    }

    /// The most bytes held: entries, the window at its largest, the boards at their largest.
    @inlinable
    var memoryBytes: Int {
        entries.memoryBytes + max(peakWindowBytes, window.memoryBytes) + peakBoardBytes
    }

    /// The moves from the start to the entry at `index`, first move first: each tag names the
    /// slide back to the parent, which is found by a scan of the level before.
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
            var candidate = levelStarts[level]
            while entries[candidate] & StateTable.keyMask != parent { candidate += 1 }
            entry = entries[candidate]
        }
        return moves.reversed()
    }
}
