// bfs's expansion against forEachSuccessor, the reference for which slides are looked up and
// in what order; and the two stores it keeps its states in, against plain arrays.

@testable import GridlockCore
import Testing

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

    @Test("on random boards of every size, each state entered by each of its slides: the same candidates in the same order, their boards, the same count of slides")
    func expansionMatchesForEachSuccessor() throws {
        var random = RandomBoards(seed: 23)
        var compared = 0
        for (width, height) in [(6, 6), (4, 4), (5, 7), (7, 5), (8, 8), (3, 6)] {
            for puzzle in random.boards(count: 25, width: width, height: height) {
                let geometry = RushHourGeometry(puzzle)
                // States a few slides from the start, each with the slide that reached it.
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
                geometry.withExpansion { expansion in
                    geometry.withTables { tables in
                        let buffer = CandidateBuffer()
                        for entry in states {
                            let key = entry & StateTable.keyMask
                            let board = expansion.board(of: key, walls: geometry.walls)
                            let (count, examined) = expansion.expand(entry, board: board, into: buffer)
                            var recorder = Recorder(entering: EnteringSlide(tag: RushHourGeometry.tag(of: entry)))
                            _ = tables.forEachSuccessor(of: key, &recorder)
                            let candidates = (0..<count).map { buffer.entries[$0] }
                            #expect(candidates == recorder.visited)
                            #expect(examined == recorder.examined)
                            for index in 0..<count {
                                #expect(buffer.boards[index] == expansion.board(of: candidates[index] & StateTable.keyMask, walls: geometry.walls))
                            }
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared > 1_000)
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
                ring.append(board)
                queue.append(board)
            }
            for _ in 0..<random.below(4) where front < queue.count {
                #expect(ring.popFront() == queue[front])
                front += 1
            }
            #expect(ring.count == queue.count - front)
        }
        while front < queue.count {
            #expect(ring.popFront() == queue[front])
            front += 1
        }
        #expect(ring.peakBytes >= ring.capacity * 8)
    }
}
