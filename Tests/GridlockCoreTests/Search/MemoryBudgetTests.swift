// The memory budget: every solver that stores states stops with `cutoff`, reason
// `memory-budget`, once its tables hold more than it, saying how many states it reached; with
// room, the same solve completes. The budgets below are fractions of the peak each search
// reports when it completes, so they sit between where it starts and where it ends.

import GridlockCore
import Testing

@Suite("Memory budget")
struct MemoryBudgetTests {
    /// 27 moves, a cluster of 147,355 states (rush_18k.txt).
    static let deep = try! RushHourPuzzle.parse("HBBKooHooKCCoIAALMoIDDLMEEJooNxoJGGN")
    static let mebibyte = 1 << 20

    static func options(_ budget: Int, wholeCluster: Bool = false) -> SolveOptions {
        SolveOptions(exploreWholeCluster: wholeCluster, memoryBudgetBytes: budget)
    }

    @Test("bfs: a budget under its peak stops the exploration mid-way, after the goal; its peak completes it")
    func bfs() {
        let whole = RushHourBFSSolver().solve(Self.deep, options: Self.options(64 * Self.mebibyte, wholeCluster: true))
        #expect(whole.cluster == 147_355)
        let peak = whole.statistics.memoryBytes
        let partial = RushHourBFSSolver().solve(Self.deep, options: Self.options(peak * 3 / 4, wholeCluster: true))
        // The goal was found before the budget stopped the exploration: solved, no cluster size.
        #expect(partial.status == .solved && partial.moves == 27 && partial.cluster == nil)
        #expect(partial.statistics.statesStored < 147_355 && partial.statistics.statesStored > 1_000)
        #expect(partial.statistics.memoryBytes > peak * 3 / 4, "cut off only once it held more than the budget")
        let start = RushHourBFSSolver().solve(Self.deep, options: Self.options(peak / 16))
        #expect(start.status == .cutoff && start.cutoffReason == .memoryBudget)
        #expect(RushHourBFSSolver().solve(Self.deep, options: Self.options(peak, wholeCluster: true)).cluster == 147_355)
    }

    @Test("bidirectional stops at its budget mid-search, with the states it reached; with room it solves")
    func bidirectional() {
        let solved = RushHourBidirectionalSolver().solve(Self.deep, options: Self.options(64 * Self.mebibyte))
        #expect(solved.status == .solved && solved.moves == 27)
        let cut = RushHourBidirectionalSolver().solve(Self.deep, options: Self.options(solved.statistics.memoryBytes / 2))
        #expect(cut.status == .cutoff && cut.cutoffReason == .memoryBudget)
        #expect(cut.statistics.statesStored > 1_000)
    }

    @Test("reference stops at its budget mid-search; with room it solves")
    func reference() throws {
        // 12 moves, about 930 boards.
        let puzzle = try RushHourPuzzle.parse("BBBCCKoDDDJKooAAJKEEEIooHooIooHFFFGG")
        let solved = RushHourReferenceSolver().solve(puzzle, options: Self.options(64 * Self.mebibyte))
        #expect(solved.status == .solved && solved.moves == 12)
        let cut = RushHourReferenceSolver().solve(puzzle, options: Self.options(solved.statistics.memoryBytes / 2))
        #expect(cut.status == .cutoff && cut.cutoffReason == .memoryBudget)
        #expect(cut.statistics.statesStored > 10)
    }

    @Test("tilt bfs stops at its budget mid-search, with the states it reached")
    func tilt() throws {
        // 177,272 states to its goal, about 250 bytes each.
        let puzzle = try TiltPuzzle.parse("ab*cd*ef/*.*.*.*./gh*ab*cd/*.*.*.*./ef*gh*.*")
        let cut = TiltBFSSolver().solve(puzzle, options: Self.options(4 * Self.mebibyte))
        #expect(cut.status == .cutoff && cut.cutoffReason == .memoryBudget)
        #expect(cut.statistics.statesStored > 1_000 && cut.statistics.statesStored < 177_272)
    }

    @Test("what a table holds once it grows is never less than the old buffer and the new one it really allocates")
    func projections() {
        var array: [UInt64] = []
        for _ in 0..<20_000 {
            let before = array.capacity
            let projected = array.bytesHeld(afterAdding: 1)
            array.append(0)
            let held = array.capacity == before ? before * 8 : (before + array.capacity) * 8
            #expect(projected >= held, "capacity \(before) -> \(array.capacity)")
        }
        var table = StateTable(initialSlots: 64)
        for key in 0..<UInt64(20_000) {
            let before = table.memoryBytes
            let projected = table.bytesHeld(afterAdding: 1)
            _ = table.insert(key, tag: 0)
            let held = table.memoryBytes == before ? before : before + table.memoryBytes
            #expect(projected >= held, "\(before) -> \(table.memoryBytes) bytes")
        }
    }
}
