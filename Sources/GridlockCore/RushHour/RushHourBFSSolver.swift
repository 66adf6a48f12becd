// `bfs`, the production solver: the Unblocker guide's breadth-first search on bitboards.
//
//   entries: [L0][ L1 ][  L2  ][   L3   ][ L4, growing ->    ]   every state, with its tag
//                              ^ expanding L3 (levelStart)
//   window:              {  L2  ∪   L3   ∪   L4 so far  }        a hash set of three levels
//   boards:                        [ L3 left | L4 so far ]       the queue's occupied cells
//
// Moves are reversible, so a successor of a level-L state is at level L-1, L or L+1: the hash
// set that tells new states from old needs those three levels only, not every state seen. It is
// rebuilt from the entries, a third full, at the end of each level where it is over half full,
// so lookups (about five per new state, most of them already there) probe less and stay in cache. Older levels live only in the
// entries (RushHourBFSStates.swift), which also serve as the queue and hold each state's tag:
// the path back from the goal looks each parent up in its level.
//
// Each state is expanded in two passes (RushHourBFSExpansion.swift): every block's slides from
// a table into a buffer, with no branch per slide, then the lookups. Slides that provably lead
// to stored states (the entering block's own, and, for blocks below it, those that commute
// with its slide: `forEachSuccessor` explains why; for blocks above it, those that commute
// unless the same slide gave the parent a new state after this one: the expansion's header
// explains why) are counted as examined but never looked up. Without the first two skips the
// search took 186 µs a rush_18k puzzle, not 127; the third halves the lookups again. And an
// expansion reads only the blocks whose line the entering slide's span meets, and the marked
// ones: every other block slides as it did from the parent, whose count of slides the queue
// carries (rush_18k 123-126 µs a puzzle before, 114-115 with it).
//
// As in the guide, a board is tested for the goal when it is generated, and the search stops
// at the first goal, which is optimal because levels are generated in order.
//
// The window is a type parameter so that the same search runs on two tables: StateTable, on
// every CPU, and a bucket table probed with one SIMD compare, compiled for x86-64-v4 in
// GridlockX86V4 (see its header), installed as `wideSearch` where the CPU has it (SolverPaths).
// The search is `@inlinable` for that: the wide module specializes it with its own table, and
// so compiles it, loop and all, for its own instructions.

import Synchronization

public struct RushHourBFSSolver: PuzzleSolver {
    public var name: String { "bfs" }

    public init() {}

    public func solve(_ puzzle: RushHourPuzzle, options: SolveOptions) -> SolveResult {
        if let wide = Self.wideSearch.withLock({ $0 }) { return wide.search(puzzle, options) }
        return search(puzzle, options: options, window: StateTable.self)
    }

    /// The search specialized for a wider CPU, when one is installed (GridlockX86V4).
    public static let wideSearch = Mutex<InstalledSearch<RushHourPuzzle>?>(nil)

    /// The search, its window of recent levels kept in a `Window`.
    @inlinable
    public func search<Window: SearchStateTable & ~Copyable>(
        _ puzzle: RushHourPuzzle, options: SolveOptions, window: Window.Type
    ) -> SolveResult {
        let geometry = RushHourGeometry(puzzle)
        // The queue carries a state's count of slides in a byte: at most 18 blocks of 6 each.
        precondition(geometry.slidesAtMost <= Int(UInt8.max), "validation caps blocks and board sizes")
        var search = BFSStates<Window>(keyBits: geometry.lines.count * RushHourGeometry.bitsPerBlock)
        var statistics = SearchStatistics()
        // Room for the levels of most puzzles, so the tables do not grow a level at a time.
        statistics.examinedPerLevel.reserveCapacity(64)
        statistics.enqueuedPerLevel.reserveCapacity(64)
        search.levelStarts.reserveCapacity(64)
        search.entries.append(RushHourGeometry.entry(geometry.startKey, tag: RushHourGeometry.rootTag))
        _ = search.window.insert(geometry.startKey, tag: RushHourGeometry.rootTag)
        statistics.countExamined(atLevel: 0)
        statistics.countEnqueued(atLevel: 0)
        statistics.maxQueue = 1
        var statisticsAtGoal: SearchStatistics?
        if geometry.isGoal(geometry.startKey) {
            search.goalIndex = 0
            statistics.finalQueue = 1
            statisticsAtGoal = statistics
            if !options.exploreWholeCluster {
                return finish(.solved, path: [], search: search, statistics: statistics, explored: false)
            }
        }

        var levels = LevelCounters()
        var cutoff: CutoffReason?
        let goal = GoalTest(geometry)
        let stopAtGoal = !options.exploreWholeCluster
        // The states the expansions between two checks can add: this puzzle's most slides a
        // state has, rather than any puzzle's, since the boards count too.
        let growthMargin = SolveOptions.cancellationInterval * geometry.slidesAtMost
        let buffer = CandidateBuffer()
        geometry.withExpansion { expansion in
            search.boards.append(expansion.board(of: geometry.startKey, walls: geometry.walls), parentSlides: 0)
            var expanded = 0
            var examined = 0
            var levelStart = 0
            // The family (the states one parent queued) that the state being expanded is in.
            var familyEnd = 0
            var marked: UInt32 = 0
            var nearBudget = false
            levelLoop: while levelStart < search.count {
                let levelEnd = search.count
                search.levelStarts.append(levelEnd)
                for position in levelStart..<levelEnd {
                    if expanded % SolveOptions.cancellationInterval == 0 {
                        if options.isCancelled() { cutoff = options.stopReason; break levelLoop }
                        if search.count > options.maxStates { cutoff = .maxStates; break levelLoop }
                        // Near the budget: from here every expansion checks what is held (MemoryBudget.swift).
                        nearBudget = options.overBudget(search.bytesHeld(afterAdding: growthMargin))
                    }
                    expanded &+= 1
                    let entry = search.entries[position]
                    let (board, parentSlides) = search.boards.popFront()
                    if position == familyEnd {
                        if marked != 0 { buffer.siblings.storeBytes(of: SIMD32<UInt8>(), as: SIMD32<UInt8>.self) }
                        (familyEnd, marked) = search.markFamily(of: position, entry: entry, before: levelEnd, in: buffer.siblings)
                    }
                    let (candidates, slides) = expansion.expand(
                        entry, board: board, parentSlides: Int(parentSlides), markedBlocks: marked, into: buffer)
                    let goalAt = search.queueNew(
                        buffer, count: candidates, parentSlides: slides, goal: goal, stopAtGoal: stopAtGoal)
                    let queued = levelEnd - position - 1 + search.count - levelEnd
                    statistics.maxQueue = max(statistics.maxQueue, queued)
                    if goalAt != nil && stopAtGoal {
                        // Cut where the guide's search stops: at the goal's slide.
                        examined += expansion.examined(entry, board: board, through: geometry.prisoner, to: geometry.goalPosition)
                    } else {
                        examined &+= slides
                    }
                    if goalAt != nil {
                        var snapshot = statistics
                        var partialLevel = levels
                        var examinedAtGoal = examined
                        var enqueuedAtGoal = search.count - levelEnd
                        partialLevel.flush(examined: &examinedAtGoal, enqueued: &enqueuedAtGoal, into: &snapshot)
                        snapshot.finalQueue = queued
                        statisticsAtGoal = snapshot
                        if stopAtGoal { break levelLoop }
                    }
                    if nearBudget, options.overBudget(search.bytesHeld(afterAdding: 0)) { cutoff = .memoryBudget; break levelLoop }
                }
                var enqueued = search.count - levelEnd
                levels.flush(examined: &examined, enqueued: &enqueued, into: &statistics)
                search.endLevel(expanded: levelStart)
                levelStart = levelEnd
            }
            var enqueued = search.count - search.levelStarts.last!
            levels.flush(examined: &examined, enqueued: &enqueued, into: &statistics)
        }
        if let cutoff, search.goalIndex == nil {
            return SolveResult(status: .cutoff, cutoffReason: cutoff, statistics: finalized(statistics, search))
        }
        let explored = cutoff == nil && (search.goalIndex == nil || options.exploreWholeCluster)
        guard let goalIndex = search.goalIndex, var atGoal = statisticsAtGoal else {
            return finish(.unsolvable, path: [], search: search, statistics: statistics, explored: explored)
        }
        atGoal.levelReached = max(atGoal.levelReached, statistics.levelReached)
        let path = search.path(to: goalIndex, geometry: geometry, puzzle: puzzle)
        return finish(.solved, path: path, search: search, statistics: atGoal, explored: explored)
    }

    @inlinable
    func finish<Window: SearchStateTable & ~Copyable>(
        _ status: SolveStatus, path: [SolutionMove], search: borrowing BFSStates<Window>, statistics: SearchStatistics,
        explored: Bool
    ) -> SolveResult {
        SolveResult(
            status: status, solution: path, cluster: explored ? search.count : nil,
            statistics: finalized(statistics, search))
    }

    @inlinable
    func finalized<Window: SearchStateTable & ~Copyable>(
        _ statistics: SearchStatistics, _ search: borrowing BFSStates<Window>
    ) -> SearchStatistics {
        var statistics = statistics
        statistics.statesStored = search.count
        statistics.memoryBytes = search.memoryBytes
        return statistics
    }
}

/// Which level the search is generating, so counts made in registers land in the right row of
/// the per-level statistics when the level is complete.
@usableFromInline
struct LevelCounters {
    @usableFromInline var level = 1

    @inlinable
    init() {}

    @inlinable
    mutating func flush(examined: inout Int, enqueued: inout Int, into statistics: inout SearchStatistics) {
        guard examined > 0 || enqueued > 0 else { return }
        statistics.countExamined(atLevel: level, examined)
        if enqueued > 0 {
            statistics.countEnqueued(atLevel: level, enqueued)
            statistics.levelReached = level
        }
        examined = 0
        enqueued = 0
        level += 1
    }
}
