// bfs's expansion against forEachSuccessor, the reference for which slides are looked up and
// in what order; and the two stores it keeps its states in, against plain arrays.

@testable import GridlockCore
import Testing

/// `count` random boards of each size these tests use, square and not, 3 to 8 cells a side.
func randomBoardsOfEverySize(seed: UInt64, count: Int) -> [RushHourPuzzle] {
    var random = RandomBoards(seed: seed)
    return [(6, 6), (4, 4), (5, 7), (7, 5), (8, 8), (3, 6)].flatMap { random.boards(count: count, width: $0.0, height: $0.1) }
}

@Suite("bfs expansion and its stores")
struct RushHourBFSExpansionTests {
    /// Records what forEachSuccessor hands over and counts what it skips; with `stop`, stops
    /// after that block's slide to that position, as the search stops at its first goal.
    struct Recorder: SuccessorVisitor {
        var entering: EnteringSlide
        var stop: (block: Int, to: Int)?
        var visited: [UInt64] = []
        var skipped = 0
        var stopped = false

        init(entering: EnteringSlide, stoppingAt stop: (block: Int, to: Int)? = nil) {
            self.entering = entering
            self.stop = stop
        }

        /// The slides counted: handed over or skipped.
        var examined: Int { visited.count + skipped }

        mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool {
            visited.append(RushHourGeometry.entry(successor, tag: RushHourGeometry.tag(block: block, from: from)))
            stopped = stop.map { $0.block == block && $0.to == to } ?? false
            return !stopped
        }

        mutating func skipKnown(_ count: Int) { skipped += count }
    }

    /// States a few slides from the start of random boards of every size, each with the slide
    /// that reached it, and the boards' geometries.
    static func enteredStates(seed: UInt64) -> [(geometry: RushHourGeometry, states: [UInt64])] {
        var found: [(geometry: RushHourGeometry, states: [UInt64])] = []
        for puzzle in randomBoardsOfEverySize(seed: seed, count: 25) {
            let geometry = RushHourGeometry(puzzle)
            var states = [RushHourGeometry.entry(geometry.startKey, tag: RushHourGeometry.rootTag)]
            var frontier = states
            for _ in 0..<3 {
                var next: [UInt64] = []
                for entry in frontier {
                    var recorder = Recorder(entering: .none)
                    geometry.withTables { _ = $0.forEachSuccessor(of: entry & StateTable.keyMask, &recorder) }
                    next += recorder.visited.prefix(4)
                }
                states += next
                frontier = next
            }
            found.append((geometry, states))
        }
        return found
    }

    /// One entered state expanded, beside what forEachSuccessor hands over for it.
    struct Expanded {
        let geometry: RushHourGeometry
        let tables: RushHourTables
        let expansion: RushHourExpansion
        let entry: UInt64
        let board: UInt64
        let candidates: [UInt64]
        let boards: [UInt64]
        let examined: Int
        let recorder: Recorder

        var key: UInt64 { entry & StateTable.keyMask }
        var tag: UInt8 { RushHourGeometry.tag(of: entry) }
    }

    /// How many slides the parent of `entry` has (zero for the root, which has none), counted
    /// by forEachSuccessor.
    static func parentSlides(of entry: UInt64, _ tables: RushHourTables) -> Int {
        let tag = RushHourGeometry.tag(of: entry)
        guard tag != RushHourGeometry.rootTag else { return 0 }
        var recorder = Recorder(entering: .none)
        _ = tables.forEachSuccessor(of: RushHourGeometry.parent(of: entry & StateTable.keyMask, tag: tag), &recorder)
        return recorder.examined
    }

    /// Expands every state of `enteredStates(seed:)` with the sibling marks `marks` gives it,
    /// and hands each to `check` (the tables are valid only inside it).
    static func expandEach(seed: UInt64, marks: () -> SIMD32<UInt8>, _ check: (Expanded) -> Void) {
        for (geometry, states) in enteredStates(seed: seed) {
            geometry.withExpansion { expansion in
                geometry.withTables { tables in
                    let buffer = CandidateBuffer()
                    for entry in states {
                        let siblings = marks()
                        buffer.siblings.storeBytes(of: siblings, as: SIMD32<UInt8>.self)
                        // As markFamily gives them: marks of blocks the puzzle has.
                        let markedBlocks = (0..<expansion.blocks.count).reduce(UInt32(0)) {
                            $0 | (siblings[$1] != 0 ? 1 << UInt32($1) : 0)
                        }
                        let key = entry & StateTable.keyMask
                        let board = expansion.board(of: key, walls: geometry.walls)
                        let (count, examined) = expansion.expand(
                            entry, board: board, parentSlides: parentSlides(of: entry, tables), markedBlocks: markedBlocks, into: buffer)
                        var recorder = Recorder(entering: EnteringSlide(tag: RushHourGeometry.tag(of: entry)))
                        _ = tables.forEachSuccessor(of: key, &recorder)
                        check(Expanded(
                            geometry: geometry, tables: tables, expansion: expansion, entry: entry, board: board,
                            candidates: (0..<count).map { buffer.entries[$0] }, boards: (0..<count).map { buffer.boards[$0] },
                            examined: examined, recorder: recorder))
                    }
                }
            }
        }
    }

    @Test("every slide marked as a sibling's, on random boards of every size, each state entered by each of its slides: forEachSuccessor's candidates in the same order, their boards, the same count of slides")
    func expansionMatchesForEachSuccessor() throws {
        var compared = 0
        Self.expandEach(seed: 23, marks: { SIMD32<UInt8>(repeating: 0xFF) }) { expanded in
            #expect(expanded.candidates == expanded.recorder.visited)
            #expect(expanded.examined == expanded.recorder.examined)
            let walls = expanded.geometry.walls
            #expect(expanded.boards == expanded.candidates.map { expanded.expansion.board(of: $0 & StateTable.keyMask, walls: walls) })
            compared += 1
        }
        #expect(compared > 1_000)
    }

    @Test("with random sibling marks: forEachSuccessor's candidates less the slides, of blocks above the entering one, that cross none of its swept cells (by span) and are not marked")
    func expansionSkipsUnmarkedCommutingSlides() throws {
        var random = RandomBoards(seed: 41)
        var marks = SIMD32<UInt8>()
        var skippedSome = 0
        var markedAndKept = 0
        let randomMarks = {
            for block in 0..<32 { marks[block] = random.next() % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : 0 }
            return marks
        }
        Self.expandEach(seed: 29, marks: randomMarks) { expanded in
            let (tables, key, tag, visited) = (expanded.tables, expanded.key, expanded.tag, expanded.recorder.visited)
            // Which of forEachSuccessor's candidates must still be looked up.
            var expected = visited
            if tag != RushHourGeometry.rootTag {
                let (entering, from) = RushHourGeometry.untag(tag)
                let sweep = tables.span(entering, from, RushHourGeometry.position(of: entering, in: key)) & ~expanded.board
                expected = visited.filter { candidate in
                    let (block, here) = RushHourGeometry.untag(RushHourGeometry.tag(of: candidate))
                    let target = RushHourGeometry.position(of: block, in: candidate & StateTable.keyMask)
                    let crosses = tables.span(block, here, target) & sweep != 0
                    let marked = marks[block] >> UInt8(target) & 1 == 1
                    if block > entering, marked, !crosses { markedAndKept += 1 }
                    return block < entering || crosses || marked
                }
            }
            skippedSome += expected.count < visited.count ? 1 : 0
            #expect(expanded.candidates == expected)
            #expect(expanded.examined == expanded.recorder.examined)
        }
        #expect(skippedSome > 100)
        #expect(markedAndKept > 100)
    }

    @Test("each span's blocks are those whose cells, at any of their positions, meet the span, on random boards of every size")
    func spanBlocks() throws {
        var compared = 0
        for puzzle in randomBoardsOfEverySize(seed: 37, count: 25) {
            let geometry = RushHourGeometry(puzzle)
            let stride = RushHourGeometry.stride
            // A block's line on the board: every cell it covers at some position.
            let lineCells = geometry.positionCount.indices.map { block in
                (0..<geometry.positionCount[block]).reduce(UInt64(0)) { $0 | geometry.masks[block * stride + $1] }
            }
            for block in geometry.positionCount.indices {
                for a in 0..<geometry.positionCount[block] {
                    for b in a..<geometry.positionCount[block] {
                        let span = geometry.spans[(block * stride + a) * stride + b]
                        let expected = lineCells.indices.reduce(UInt32(0)) { $0 | (lineCells[$1] & span != 0 ? 1 << UInt32($1) : 0) }
                        #expect(geometry.spanBlocks[(block * stride + a) * stride + b] == expected)
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 5_000)
    }

    @Test("cut at the goal's slide, the count of slides is forEachSuccessor's, the prisoner numbered below or above the block that entered")
    func examinedThroughGoal() throws {
        var random = RandomBoards(seed: 31)
        var compared = 0
        var prisonerBelowEntering = 0
        var prisonerAboveEntering = 0
        // Random boards number the prisoner first; the database's lines, where its letter comes.
        var puzzles = Fixtures.rushHour(Fixtures.spread)
        for (width, height) in [(6, 6), (5, 7), (8, 8), (4, 4)] {
            puzzles += random.boards(count: 60, width: width, height: height)
        }
        for puzzle in puzzles {
            let geometry = RushHourGeometry(puzzle)
            // The start and every state one or two slides from it, with the slide that reached it.
            var states = [RushHourGeometry.entry(geometry.startKey, tag: RushHourGeometry.rootTag)]
            var first = Recorder(entering: .none)
            geometry.withTables { _ = $0.forEachSuccessor(of: geometry.startKey, &first) }
            for entry in first.visited {
                var second = Recorder(entering: EnteringSlide(tag: RushHourGeometry.tag(of: entry)))
                geometry.withTables { _ = $0.forEachSuccessor(of: entry & StateTable.keyMask, &second) }
                states += [entry] + second.visited
            }
            geometry.withExpansion { expansion in
                geometry.withTables { tables in
                    for entry in states {
                        let key = entry & StateTable.keyMask
                        let entering = EnteringSlide(tag: RushHourGeometry.tag(of: entry))
                        var recorder = Recorder(entering: entering, stoppingAt: (geometry.prisoner, geometry.goalPosition))
                        _ = tables.forEachSuccessor(of: key, &recorder)
                        guard recorder.stopped else { continue }
                        let board = expansion.board(of: key, walls: geometry.walls)
                        #expect(expansion.examined(entry, board: board, through: geometry.prisoner, to: geometry.goalPosition) == recorder.examined)
                        compared += 1
                        if geometry.prisoner < entering.block { prisonerBelowEntering += 1 }
                        if geometry.prisoner > entering.block, entering.block >= 0 { prisonerAboveEntering += 1 }
                    }
                }
            }
        }
        #expect(compared > 200)
        #expect(prisonerBelowEntering > 20)
        #expect(prisonerAboveEntering > 20)
    }

    @Test("entries read back as written, packed in 2 to 8 bytes, through the first chunk's growth and past many chunks", arguments: [3, 6, 15, 30, 39, 48, 54])
    func entryStore(keyBits: Int) {
        var store = EntryStore(keyBits: keyBits)
        var random = RandomBoards(seed: UInt64(keyBits))
        var written: [UInt64] = []
        for _ in 0..<(5 * EntryStore.chunkSize + 77) {
            let key = random.next() & ((1 << UInt64(keyBits)) - 1)
            let entry = RushHourGeometry.entry(key, tag: UInt8(truncatingIfNeeded: random.next()))
            store.append(entry)
            written.append(entry)
        }
        #expect(store.count == written.count)
        #expect((0..<written.count).allSatisfy { store[$0] == written[$0] })
        #expect(store.stride == (keyBits + 15) / 8)
        #expect(store.memoryBytes < written.count * store.stride + EntryStore.chunkSize * store.stride + 512)
    }

    @Test("the board ring gives back what it was given, in order, through wrapping and growth")
    func boardRing() {
        var ring = BoardRing()
        var random = RandomBoards(seed: 5)
        var queue: [UInt64] = []
        var front = 0
        for round in 0..<2_000 {
            // Bursts that fill faster than they drain, then drain: the back wraps past the front's
            // start, and the ring grows while wrapped.
            let pushes = round % 50 < 30 ? random.below(6) : random.below(2)
            for _ in 0..<pushes {
                let board = random.next()
                ring.append(board, parentSlides: UInt8(truncatingIfNeeded: board >> 56))
                queue.append(board)
            }
            for _ in 0..<random.below(4) where front < queue.count {
                #expect(ring.popFront() == (queue[front], UInt8(truncatingIfNeeded: queue[front] >> 56)))
                front += 1
            }
            #expect(ring.count == queue.count - front)
        }
        while front < queue.count {
            #expect(ring.popFront() == (queue[front], UInt8(truncatingIfNeeded: queue[front] >> 56)))
            front += 1
        }
        #expect(ring.peakBytes >= ring.capacity * 9)
    }
}

@Suite("bfs families")
struct RushHourBFSFamilyTests {
    @Test("a family is the entries after a state with its parent, up to the level's end; all but the first are marked, by block and position")
    func markFamily() throws {
        let keyBits = 6 * RushHourGeometry.bitsPerBlock
        var states = BFSStates<StateTable>(keyBits: keyBits)
        // Parent P: blocks 0...5 at positions 1, 0, 2, 3, 1, 0.
        let parent: UInt64 = 1 | 0 << 3 | 2 << 6 | 3 << 9 | 1 << 12 | 0 << 15
        func child(_ block: Int, to target: Int, of key: UInt64 = parent) -> UInt64 {
            let from = RushHourGeometry.position(of: block, in: key)
            return RushHourGeometry.entry(
                RushHourGeometry.key(key, moving: block, from: from, to: target), tag: RushHourGeometry.tag(block: block, from: from))
        }
        let other = child(2, to: 4)
        let family = [child(1, to: 2), child(3, to: 0), child(3, to: 5), child(4, to: 3)]
        for entry in [RushHourGeometry.entry(parent, tag: RushHourGeometry.rootTag)] + family + [child(0, to: 2, of: other & StateTable.keyMask)] {
            states.entries.append(entry)
        }
        let marks = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 32)
        defer { marks.deallocate() }
        marks.storeBytes(of: SIMD32<UInt8>(), as: SIMD32<UInt8>.self)
        let (end, marked) = states.markFamily(of: 1, entry: states.entries[1], before: states.count, in: marks)
        #expect(end == 5)
        #expect(marked == 1 << 3 | 1 << 4)
        var expected = SIMD32<UInt8>()
        expected[3] = 1 << 0 | 1 << 5
        expected[4] = 1 << 3
        #expect(marks.load(as: SIMD32<UInt8>.self) == expected)
        // Cut at the level's end, and a family of one marks nothing.
        marks.storeBytes(of: SIMD32<UInt8>(), as: SIMD32<UInt8>.self)
        #expect(states.markFamily(of: 1, entry: states.entries[1], before: 3, in: marks) == (3, 1 << 3))
        expected[4] = 0
        expected[3] = 1 << 0
        #expect(marks.load(as: SIMD32<UInt8>.self) == expected)
        marks.storeBytes(of: SIMD32<UInt8>(), as: SIMD32<UInt8>.self)
        #expect(states.markFamily(of: 5, entry: states.entries[5], before: states.count, in: marks) == (6, 0))
        #expect(states.markFamily(of: 0, entry: states.entries[0], before: states.count, in: marks) == (1, 0))
        #expect(marks.load(as: SIMD32<UInt8>.self) == SIMD32<UInt8>())
    }
}

@Suite("bfs against a search that skips nothing")
struct RushHourBFSOrderTests {
    /// A breadth-first search that looks every successor up, in forEachSuccessor's order: the
    /// first goal it generates, the moves to it by the tags, and its counts there.
    struct PlainSearch: SuccessorVisitor {
        let entering = EnteringSlide.none
        let geometry: RushHourGeometry
        var tags: [UInt64: UInt8] = [:]
        var queue: [UInt64] = []
        var examined = 1
        var goal: UInt64?

        init(_ geometry: RushHourGeometry) {
            self.geometry = geometry
            tags[geometry.startKey] = RushHourGeometry.rootTag
            queue = [geometry.startKey]
            if geometry.isGoal(geometry.startKey) { goal = geometry.startKey }
        }

        mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool {
            examined += 1
            guard tags[successor] == nil else { return true }
            tags[successor] = RushHourGeometry.tag(block: block, from: from)
            queue.append(successor)
            if geometry.isGoal(successor) { goal = successor }
            return goal == nil
        }

        mutating func skipKnown(_ count: Int) { examined += count }

        mutating func run(upTo limit: Int) {
            var next = 0
            while goal == nil, next < queue.count, queue.count < limit {
                let key = queue[next]
                next += 1
                _ = geometry.withTables { $0.forEachSuccessor(of: key, &self) }
            }
        }

        func moves(in puzzle: RushHourPuzzle) -> [SolutionMove] {
            var moves: [SolutionMove] = []
            var key = goal!
            while let tag = tags[key], tag != RushHourGeometry.rootTag {
                let (block, from) = RushHourGeometry.untag(tag)
                let to = RushHourGeometry.position(of: block, in: key)
                moves.append(geometry.solutionMove(in: puzzle, block: block, from: from, to: to))
                key = RushHourGeometry.key(key, moving: block, from: to, to: from)
            }
            return moves.reversed()
        }
    }

    @Test("on random boards of every size, bfs reaches the same first goal by the same moves, with the same counts there, as a search that looks every slide up: the skips change neither order nor tags")
    func sameGoalMovesAndCounts() throws {
        var solved = 0
        for puzzle in randomBoardsOfEverySize(seed: 53, count: 120) {
            var plain = PlainSearch(RushHourGeometry(puzzle))
            plain.run(upTo: 30_000)
            guard plain.goal != nil else { continue }
            let bfs = RushHourBFSSolver().solve(puzzle, options: SolveOptions(maxStates: 60_000))
            #expect(bfs.status == .solved)
            #expect(bfs.solution == plain.moves(in: puzzle), "\(puzzle.gridText())")
            #expect(bfs.statistics.examined == plain.examined, "\(puzzle.gridText())")
            #expect(bfs.statistics.enqueued == plain.queue.count, "\(puzzle.gridText())")
            solved += plain.queue.count > 50 ? 1 : 0
        }
        #expect(solved > 50)
    }
}
