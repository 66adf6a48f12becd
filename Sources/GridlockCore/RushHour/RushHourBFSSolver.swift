// `bfs`, the production solver: the Unblocker guide's breadth-first search on bitboards.
//
//   entries: [L0][ L1 ][  L2  ][   L3   ][ L4, growing ->    ]   every state, with its tag
//                              ^ expanding L3 (levelStart)
//   window:              {  L2  ∪   L3   ∪   L4 so far  }        a hash set of three levels
//
// Moves are reversible, so a successor of a level-L state is at level L-1, L or L+1: the hash
// set that tells new states from old needs those three levels only, not every state seen. It is
// rebuilt from the entry array at each level, a quarter to half full, so lookups (about three
// per new state, most of them already there) probe less and stay in cache. Older levels live only in
// the entry array, which also serves as the queue and holds each state's tag: the path back
// from the goal looks each parent up in its level.
//
// As in the guide, a board is tested for the goal when it is generated, and the search stops
// at the first goal, which is optimal because levels are generated in order. Slides that
// provably lead to stored states or to a state another parent hands over (the entering
// block's own, and those that commute with its slide: `forEachSuccessor`) are counted as
// examined but never looked up.
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
        var search = BFSVisitor<Window>(geometry: geometry, stopAtGoal: !options.exploreWholeCluster)
        var statistics = SearchStatistics()
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
        geometry.withTables { tables in
            var expanded = 0
            var levelStart = 0
            levelLoop: while levelStart < search.entries.count {
                let levelEnd = search.entries.count
                search.levelStarts.append(levelEnd)
                for position in levelStart..<levelEnd {
                    if expanded % SolveOptions.cancellationInterval == 0 {
                        if options.isCancelled() { cutoff = options.stopReason; break levelLoop }
                        if search.entries.count > options.maxStates { cutoff = .maxStates; break levelLoop }
                        if options.overBudget(search.bytesHeld(afterAdding: SolveOptions.growthMargin)) { cutoff = .memoryBudget; break levelLoop }
                    }
                    expanded &+= 1
                    let entry = search.entries[position]
                    search.comingFrom(RushHourGeometry.tag(of: entry))
                    let finished = !tables.forEachSuccessor(of: entry & StateTable.keyMask, &search)
                    let queued = levelEnd - position - 1 + search.entries.count - levelEnd
                    statistics.maxQueue = max(statistics.maxQueue, queued)
                    if search.goalIndex != nil, statisticsAtGoal == nil {
                        var snapshot = statistics
                        var partialLevel = levels
                        var examined = search.examined
                        var enqueued = search.enqueued
                        partialLevel.flush(examined: &examined, enqueued: &enqueued, into: &snapshot)
                        snapshot.finalQueue = queued
                        statisticsAtGoal = snapshot
                    }
                    if finished { break levelLoop }
                }
                levels.flush(examined: &search.examined, enqueued: &search.enqueued, into: &statistics)
                search.slideWindow(keepingFrom: levelStart)
                levelStart = levelEnd
            }
            levels.flush(examined: &search.examined, enqueued: &search.enqueued, into: &statistics)
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
        _ status: SolveStatus, path: [SolutionMove], search: borrowing BFSVisitor<Window>, statistics: SearchStatistics,
        explored: Bool
    ) -> SolveResult {
        SolveResult(
            status: status, solution: path, cluster: explored ? search.entries.count : nil,
            statistics: finalized(statistics, search))
    }

    @inlinable
    func finalized<Window: SearchStateTable & ~Copyable>(
        _ statistics: SearchStatistics, _ search: borrowing BFSVisitor<Window>
    ) -> SearchStatistics {
        var statistics = statistics
        statistics.statesStored = search.entries.count
        statistics.memoryBytes = search.entries.capacity * 8 + max(search.peakWindowBytes, search.window.memoryBytes)
        return statistics
    }
}

/// The BFS's visitor: looks each successor up in the window of recent levels, appends the new
/// ones to the entry array, counts, and spots the goal as it is generated.
@usableFromInline
struct BFSVisitor<Window: SearchStateTable & ~Copyable>: SuccessorVisitor, ~Copyable {
    /// Every state generated, as table entries (key and tag), level after level.
    @usableFromInline var entries: [UInt64] = []
    /// Where each level starts in `entries`, the level being generated included.
    @usableFromInline var levelStarts: [Int] = [0]
    /// The states of the level being expanded, the one before and the one being generated.
    /// 2 KiB to start, like the entry array: most database clusters are a few thousand states,
    /// and 8 KiB each made the smallest solves average 17 bytes a state (15.4 now, as fast).
    @usableFromInline var window = Window(initialSlots: 256)
    /// The most bytes the window held.
    @usableFromInline var peakWindowBytes = 0
    @usableFromInline var examined = 0
    @usableFromInline var enqueued = 0
    /// Where the first goal generated is in `entries`.
    @usableFromInline var goalIndex: Int?
    @usableFromInline let prisoner: Int
    @usableFromInline let goalPosition: Int
    @usableFromInline let stopAtGoal: Bool
    /// How the state being expanded was first reached.
    @usableFromInline var entering = EnteringSlide.none

    @inlinable
    init(geometry: RushHourGeometry, stopAtGoal: Bool) {
        prisoner = geometry.prisoner
        goalPosition = geometry.goalPosition
        self.stopAtGoal = stopAtGoal
    }

    /// Notes how the state about to be expanded was reached.
    @inlinable @inline(__always)
    mutating func comingFrom(_ tag: UInt8) {
        entering = EnteringSlide(tag: tag)
    }

    @inlinable @inline(__always)
    mutating func skipKnown(_ count: Int) {
        examined &+= count
    }

    @inlinable @inline(__always)
    mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool {
        examined &+= 1
        let tag = RushHourGeometry.tag(block: block, from: from)
        guard window.insert(successor, tag: tag) else { return true }
        if entries.count == entries.capacity { entries.growFrontier() }
        entries.append(RushHourGeometry.entry(successor, tag: tag))
        enqueued &+= 1
        if block == prisoner, to == goalPosition, goalIndex == nil {
            goalIndex = entries.count - 1
            return !stopAtGoal
        }
        return true
    }

    /// The bytes the entry array (grown by a quarter at a time: `growFrontier`) and the window
    /// hold once `adding` more states are stored.
    @inlinable
    func bytesHeld(afterAdding adding: Int) -> Int {
        entries.bytesHeld(afterAdding: adding, growth: 1.25) + window.bytesHeld(afterAdding: adding)
    }

    /// Once a level is expanded, keeps in the window only the states from `start` on: that
    /// level and the one just generated, the only ones the next level's successors can meet.
    @inlinable
    mutating func slideWindow(keepingFrom start: Int) {
        peakWindowBytes = max(peakWindowBytes, window.memoryBytes)
        window.removeAll(reservingFor: entries.count - start)
        for index in start..<entries.count {
            let entry = entries[index]
            _ = window.insert(entry & StateTable.keyMask, tag: RushHourGeometry.tag(of: entry))
        }
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
            entry = entries[levelStarts[level]..<levelStarts[level + 1]].first { $0 & StateTable.keyMask == parent }!
        }
        return moves.reversed()
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

extension Array where Element == UInt64 {
    /// Grows an entry or frontier array by a quarter rather than the standard library's
    /// doubling: doubling left up to half of it unused, and memory per state is a target.
    /// Appends stay amortized O(1); the extra copies are one per state and a quarter, against
    /// the hash work.
    @usableFromInline @inline(never)
    mutating func growFrontier() {
        reserveCapacity(Swift.max(256, capacity + capacity / 4))
    }
}
