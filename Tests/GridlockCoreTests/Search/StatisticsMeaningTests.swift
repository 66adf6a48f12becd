// Issue 21: "examined" and "enqueued" mean one thing for every kind, the README's: the start
// counts as examined and as enqueued at level 0 (as the Unblocker guide's solver counts it),
// then every generated board is examined and every distinct one enqueued. Tilt and tile
// searches once left the start out of "examined" while Rush Hour's counted it.

import GridlockCore
import Testing

@Suite("Search statistics mean the same for every kind")
struct StatisticsMeaningTests {
    static func checkLevelZero(_ statistics: SearchStatistics, enqueuedAtStart: Int = 1, _ name: String) {
        #expect(statistics.examinedPerLevel.first == 1, "\(name): the start is examined at level 0")
        #expect(statistics.enqueuedPerLevel.first == enqueuedAtStart, "\(name): level 0 enqueues the search's roots")
        #expect(statistics.examinedPerLevel.reduce(0, +) == statistics.examined, "\(name)")
        #expect(statistics.enqueuedPerLevel.reduce(0, +) == statistics.enqueued, "\(name)")
    }

    @Test("Rush Hour, tiles and tilt breadth-first searches all count the start as examined")
    func levelZeroIsTheStart() throws {
        let rushHour = try RushHourPuzzle.parse("ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo")
        Self.checkLevelZero(RushHourBFSSolver().solve(rushHour, options: SolveOptions()).statistics, "rush hour bfs")
        let tiles = try TilePuzzle.parse("8 6 7 2 5 4 3 0 1")
        Self.checkLevelZero(TileBFSSolver().solve(tiles, options: SolveOptions()).statistics, "tiles bfs")
        Self.checkLevelZero(TileBidirectionalSolver().solve(tiles, options: SolveOptions()).statistics,
                            enqueuedAtStart: 2, "tiles bidirectional")
        let tilt = try TiltPuzzle.parse("a.a/.*./...")
        Self.checkLevelZero(TiltBFSSolver().solve(tilt, options: SolveOptions()).statistics, "tilt bfs")
    }

    @Test("no forward search enqueues more boards than it examined (tilt printed examined 3, enqueued 4)")
    func enqueuedNeverExceedsExamined() throws {
        let tilt = TiltBFSSolver().solve(try TiltPuzzle.parse("a.a/.*./..."), options: SolveOptions()).statistics
        #expect(tilt.enqueued <= tilt.examined, "tilt: examined \(tilt.examined), enqueued \(tilt.enqueued)")
        let tiles = TileBFSSolver().solve(try TilePuzzle.parse("1 2 3 4 5 6 7 0 8"), options: SolveOptions()).statistics
        #expect(tiles.enqueued <= tiles.examined, "tiles: examined \(tiles.examined), enqueued \(tiles.enqueued)")
    }
}
