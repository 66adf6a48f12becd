// The 7-8 split's machinery on groups small enough for a debug build: the ranked index, the
// builder over blank regions (checked entry for entry against the sparse builder's search over
// blank cells), and the ranked bound with its turned lookup on tables of seeded noise. The 7-8
// tables themselves take minutes and gigabytes to build, so they are measured by hand
// (docs/benchmarks.md), never built by the tests.

@testable import GridlockCore
import Testing

@Suite("Ranked pattern databases")
struct RankedPatternDatabaseTests {
    @Test("every rank of 3 tiles' placements is one placement, each placement has one rank, and 8 tiles' ranks go back and forth")
    func rankRoundTrip() {
        var seen = Set<[UInt8]>()
        var cells = [UInt8](repeating: 0, count: 8)
        let count = TilePlacementRank.count(tiles: 3)
        #expect(count == 16 * 15 * 14)
        for rank in 0..<count {
            cells.withUnsafeMutableBufferPointer { TilePlacementRank.unrank(rank, count: 3, into: $0.baseAddress!) }
            let placement = Array(cells[0..<3])
            #expect(Set(placement).count == 3 && placement.allSatisfy { $0 < 16 })
            seen.insert(placement)
            #expect(cells.withUnsafeBufferPointer { TilePlacementRank.rank($0.baseAddress!, count: 3) } == rank)
        }
        #expect(seen.count == count)
        #expect(TilePlacementRank.count(tiles: 8) == 518_918_400)
        var generator = SplitMix64(seed: 78)
        for _ in 0..<2_000 {
            let rank = Int(generator.next() % UInt64(TilePlacementRank.count(tiles: 8)))
            cells.withUnsafeMutableBufferPointer { TilePlacementRank.unrank(rank, count: 8, into: $0.baseAddress!) }
            #expect(Set(cells).count == 8)
            #expect(cells.withUnsafeBufferPointer { TilePlacementRank.rank($0.baseAddress!, count: 8) } == rank)
        }
    }

    @Test("the search over blank regions gives every placement the entry of the search over blank cells",
          arguments: [TileGoal.blankFirst, .blankLast], [[UInt8]([1, 2, 3]), [5, 6, 9, 10], [4, 8, 12, 13], [3, 7, 14, 15]])
    func rankedBuilderAgreesWithSparse(goal: TileGoal, group: [UInt8]) {
        let goalTiles = goal.tiles(cells: 16)
        let sparse = TilePatternDatabase.buildGroup(group, goalTiles: goalTiles)
        let ranked = TilePatternDatabase.buildRankedGroup(group, goalTiles: goalTiles)
        #expect(ranked.count == TilePlacementRank.count(tiles: group.count))
        var cells = [UInt8](repeating: 0, count: 8)
        var differ = 0
        for rank in ranked.indices {
            cells.withUnsafeMutableBufferPointer { TilePlacementRank.unrank(rank, count: group.count, into: $0.baseAddress!) }
            let index = cells[0..<group.count].enumerated().reduce(0) { $0 | Int($1.element) << (4 * $1.offset) }
            if ranked[rank] != sparse[index] { differ += 1 }
        }
        #expect(differ == 0)
        #expect(ranked.max()! < 255, "a placement never reached")
        #expect(ranked.max()! > 0)
    }

    /// Small ranked tables of seeded noise: four groups of 4, 4, 4 and 3 tiles.
    static func noise(goal: TileGoal) -> TilePatternDatabase {
        let goalTiles = goal.tiles(cells: 16)
        let groups = [[1, 2, 3, 6], [4, 5, 8, 9], [7, 10, 11, 14], [12, 13, 15]].map { $0.map { goalTiles[goal == .blankFirst ? $0 : 15 - $0] } }
        let size = groups.reduce(0) { $0 + TilePlacementRank.count(tiles: $1.count) }
        var generator = SplitMix64(seed: 21)
        let storage = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next() % 60) }
        return try! TilePatternDatabase(goal: goal, partition: .sevenEight, groups: groups, storage: storage)
    }

    static func plainBound(_ database: TilePatternDatabase, _ board: [UInt8]) -> Int {
        var total = 0
        for (group, tiles) in database.groups.enumerated() {
            let cells = tiles.map { UInt8(board.firstIndex(of: $0)!) }
            total += Int(database.storage[database.offsets[group] + cells.withUnsafeBufferPointer { TilePlacementRank.rank($0.baseAddress!, count: cells.count) }])
        }
        return total
    }

    @Test("the ranked bound is the larger of the ranked sums for the board and the turned board, along slides and undos",
          arguments: [TileGoal.blankFirst, .blankLast])
    func rankedBound(goal: TileGoal) {
        let database = Self.noise(goal: goal)
        var generator = SplitMix64(seed: 5)
        var sawTurnedLarger = false
        database.storage.withUnsafeBufferPointer { tables in
            var heuristic = RankedPatternDatabaseHeuristic(database: database, tables: tables.baseAddress!)
            var board = TilePatternDatabaseHeuristicTests.shuffled(&generator)
            _ = board.withUnsafeBufferPointer { heuristic.reset($0.baseAddress!) }
            for step in 0..<400 {
                let (tile, from, blank) = TilePatternDatabaseHeuristicTests.randomSlide(board, &generator)
                let saved = heuristic.saved
                let before = board
                board.swapAt(blank, from)
                let bound = board.withUnsafeBufferPointer { heuristic.moved(Int(tile), from: from, to: blank, $0.baseAddress!) }
                let own = Self.plainBound(database, board)
                let turned = Self.plainBound(database, TilePatternDatabaseHeuristicTests.turned(board, goal: goal))
                sawTurnedLarger = sawTurnedLarger || turned > own
                #expect(bound == max(own, turned), "step \(step)")
                if step % 3 == 0 {
                    board = before
                    board.withUnsafeBufferPointer { heuristic.undo(Int(tile), from: from, to: blank, $0.baseAddress!, saved: saved) }
                    let undone = max(Self.plainBound(database, board), Self.plainBound(database, TilePatternDatabaseHeuristicTests.turned(board, goal: goal)))
                    #expect(max(heuristic.state.total, heuristic.state.turnedTotal) == undone, "undo at step \(step)")
                }
            }
        }
        #expect(sawTurnedLarger)
    }
}
