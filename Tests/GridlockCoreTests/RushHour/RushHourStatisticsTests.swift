// The statistics the Unblocker guide's Solution holds, checked against the guide's own figures
// and against their definitions.

import GridlockCore
import Testing

@Suite("Rush Hour search statistics")
struct RushHourStatisticsTests {
    static let e535 = "51 BCCoDoBEFoDGBEFAAGHHHIoGooJIKKLLJMMo 4780"
    static let i4 = "23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419"

    @Test("E-535: 3,025 different boards, as the guide reports (22,622 examined, order-dependent by one)")
    func guideFiguresForE535() throws {
        let result = RushHourBFSSolver().solve(try RushHourPuzzle.parse(Self.e535), options: SolveOptions())
        #expect(result.statistics.enqueued == 3_025)
        #expect(abs(result.statistics.examined - 22_622) <= 10)
    }

    @Test("I-4: about 40,919 different boards and 522,541 examined, as the guide reports")
    func guideFiguresForI4() throws {
        let result = RushHourBFSSolver().solve(try RushHourPuzzle.parse(Self.i4), options: SolveOptions())
        #expect(abs(result.statistics.enqueued - 40_919) < 200)
        #expect(abs(result.statistics.examined - 522_541) < 2_000)
    }

    @Test("per-level counts add up to the totals, level 0 is the start", arguments: RushHourSolvers.names)
    func levelsAddUp(solverName: String) throws {
        let solver = try #require(RushHourSolvers.named(solverName))
        let result = solver.solve(try RushHourPuzzle.parse(Self.e535), options: SolveOptions())
        let statistics = result.statistics
        #expect(statistics.examinedPerLevel.first == 1)
        #expect(statistics.enqueuedPerLevel.first == 1)
        if solverName != "bidirectional" {
            #expect(statistics.examinedPerLevel.reduce(0, +) == statistics.examined)
            #expect(statistics.enqueuedPerLevel.reduce(0, +) == statistics.enqueued)
            #expect(statistics.enqueuedPerLevel.count == 52)
        }
        #expect(statistics.maxQueue >= statistics.finalQueue)
        #expect(statistics.examined >= statistics.enqueued)
    }

    @Test("bfs and reference count the same boards when the order of blocks is the same")
    func bfsMatchesReferenceOnUnsolvable() throws {
        // Unsolvable: both explore the whole cluster, so the counts cannot depend on move order.
        let puzzle = try RushHourPuzzle.parse("-1 oooooBoooooBoooAABooooooCDEFGHCDEFGH 13500")
        let fast = RushHourBFSSolver().solve(puzzle, options: SolveOptions())
        let reference = RushHourReferenceSolver().solve(puzzle, options: SolveOptions())
        #expect(fast.statistics.examinedPerLevel == reference.statistics.examinedPerLevel)
        #expect(fast.statistics.enqueuedPerLevel == reference.statistics.enqueuedPerLevel)
        #expect(fast.statistics.levelReached == reference.statistics.levelReached)
        #expect(fast.cluster == 13_500)
        #expect(reference.cluster == 13_500)
    }

    @Test("bfs stays within 16 bytes per stored state on a large cluster")
    func memoryPerState() throws {
        let puzzle = try RushHourPuzzle.parse("11 oGBBoKoGCCJKAAooJKFoHIooFoHIDDooooEE 270068")
        let result = RushHourBFSSolver().solve(puzzle, options: SolveOptions(exploreWholeCluster: true))
        #expect(result.cluster == 270_068)
        let perState = Double(result.statistics.memoryBytes) / Double(result.statistics.statesStored)
        #expect(perState <= 16, "\(perState) bytes per state")
    }

    @Test("limits cut a search off instead of answering", arguments: RushHourSolvers.names)
    func limits(solverName: String) throws {
        let solver = try #require(RushHourSolvers.named(solverName))
        let puzzle = try RushHourPuzzle.parse(Self.i4)
        let capped = solver.solve(puzzle, options: SolveOptions(maxStates: 500))
        #expect(capped.status == .cutoff)
        #expect(capped.cutoffReason == .maxStates)
        let cancelled = solver.solve(puzzle, options: SolveOptions(isCancelled: { true }))
        #expect(cancelled.status == .cutoff)
        #expect(cancelled.cutoffReason == .cancelled)
    }
}
