// `bfs`, the production solver: the Unblocker guide's breadth-first search on bitboards.
//
//   table:     every state seen, each tagged with the slide that first reached it
//   frontier:  [level L, expanding ->      ]   next: [level L+1, growing ->   ]
//
// The guide's queue holds two levels at most, so it is kept as two arrays that swap at each
// level, and older levels live only in the table. As in the guide, a board is tested for the goal
// when it is generated, and the search stops at the first goal, which is optimal because levels
// are generated in order. Each state's slide back to its parent is counted as examined but never
// looked up: the parent is always stored.

public struct RushHourBFSSolver: PuzzleSolver {
    public var name: String { "bfs" }

    public init() {}

    public func solve(_ puzzle: RushHourPuzzle, options: SolveOptions) -> SolveResult {
        let geometry = RushHourGeometry(puzzle)
        var search = BFSVisitor(geometry: geometry, stopAtGoal: !options.exploreWholeCluster)
        var statistics = SearchStatistics()
        let start = RushHourGeometry.entry(geometry.startKey, tag: RushHourGeometry.rootTag)
        _ = search.table.insert(geometry.startKey, tag: RushHourGeometry.rootTag)
        statistics.countExamined(atLevel: 0)
        statistics.countEnqueued(atLevel: 0)
        statistics.maxQueue = 1
        var statisticsAtGoal: SearchStatistics?
        if geometry.isGoal(geometry.startKey) {
            search.goal = geometry.startKey
            statistics.finalQueue = 1
            statisticsAtGoal = statistics
            if !options.exploreWholeCluster {
                return finish(.solved, path: [], search: search, statistics: statistics, explored: false)
            }
        }

        var frontier: [UInt64] = [start]
        var levels = LevelCounters()
        var cutoff: CutoffReason?
        geometry.withTables { tables in
            var expanded = 0
            levelLoop: while !frontier.isEmpty {
                for (position, entry) in frontier.enumerated() {
                    if expanded % SolveOptions.cancellationInterval == 0 {
                        if options.isCancelled() { cutoff = .cancelled; break levelLoop }
                        if search.table.count > options.maxStates { cutoff = .maxStates; break levelLoop }
                    }
                    expanded &+= 1
                    search.comingFrom(RushHourGeometry.tag(of: entry))
                    let finished = !tables.forEachSuccessor(of: entry & StateTable.keyMask, &search)
                    let queued = frontier.count - position - 1 + search.next.count
                    statistics.maxQueue = max(statistics.maxQueue, queued)
                    if search.goal != nil, statisticsAtGoal == nil {
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
                search.frontierBytes = max(search.frontierBytes, (frontier.capacity + search.next.capacity) * 8)
                swap(&frontier, &search.next)
                search.next.removeAll(keepingCapacity: true)
            }
            levels.flush(examined: &search.examined, enqueued: &search.enqueued, into: &statistics)
        }
        search.frontierBytes = max(search.frontierBytes, (frontier.capacity + search.next.capacity) * 8)
        if let cutoff, search.goal == nil {
            return SolveResult(status: .cutoff, cutoffReason: cutoff, statistics: finalized(statistics, search))
        }
        let explored = cutoff == nil && (search.goal == nil || options.exploreWholeCluster)
        guard let goal = search.goal, var atGoal = statisticsAtGoal else {
            return finish(.unsolvable, path: [], search: search, statistics: statistics, explored: explored)
        }
        atGoal.levelReached = max(atGoal.levelReached, statistics.levelReached)
        let path = geometry.path(in: search.table, to: goal, puzzle: puzzle)
        return finish(.solved, path: path, search: search, statistics: atGoal, explored: explored)
    }

    private func finish(
        _ status: SolveStatus, path: [SolutionMove], search: borrowing BFSVisitor, statistics: SearchStatistics,
        explored: Bool
    ) -> SolveResult {
        SolveResult(
            status: status, solution: path, cluster: explored ? search.table.count : nil,
            statistics: finalized(statistics, search))
    }

    private func finalized(_ statistics: SearchStatistics, _ search: borrowing BFSVisitor) -> SearchStatistics {
        var statistics = statistics
        statistics.statesStored = search.table.count
        statistics.memoryBytes = search.table.memoryBytes + search.frontierBytes
        return statistics
    }
}

/// The BFS's visitor: inserts each successor, queues it for the next level, counts, and spots
/// the goal as it is generated.
struct BFSVisitor: SuccessorVisitor, ~Copyable {
    var table = StateTable()
    /// The level being generated: table entries (key and tag) to expand after this level.
    var next: [UInt64] = []
    /// The most bytes the two frontier arrays held.
    var frontierBytes = 0
    var examined = 0
    var enqueued = 0
    /// The key of the first goal generated.
    var goal: UInt64?
    let prisoner: Int
    let goalPosition: Int
    let stopAtGoal: Bool
    /// The block that moved into the state being expanded: its slides are all stored already.
    var knownBlock = -1

    init(geometry: RushHourGeometry, stopAtGoal: Bool) {
        prisoner = geometry.prisoner
        goalPosition = geometry.goalPosition
        self.stopAtGoal = stopAtGoal
    }

    /// Notes how the state about to be expanded was reached.
    @inline(__always)
    mutating func comingFrom(_ tag: UInt8) {
        knownBlock = RushHourGeometry.untag(tag).block
    }

    @inline(__always)
    mutating func skipKnown(_ count: Int) {
        examined &+= count
    }

    @inline(__always)
    mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool {
        examined &+= 1
        let tag = RushHourGeometry.tag(block: block, from: from)
        guard table.insert(successor, tag: tag) else { return true }
        if next.count == next.capacity { next.growFrontier() }
        next.append(RushHourGeometry.entry(successor, tag: tag))
        enqueued &+= 1
        if block == prisoner, to == goalPosition, goal == nil {
            goal = successor
            return !stopAtGoal
        }
        return true
    }
}

/// Which level the search is generating, so counts made in registers land in the right row of
/// the per-level statistics when the level is complete.
struct LevelCounters {
    var level = 1

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
    /// Grows a frontier by a quarter rather than the standard library's doubling: at the widest
    /// levels the two frontier arrays are the second cost in memory after the table, and
    /// doubling left up to half of each unused (it put the 270,068-state cluster of the
    /// memory test at 16.06 bytes a state, over the 16 the issue allows). Appends stay
    /// amortized O(1); the extra copies are one per state and a quarter, against the hash work.
    @inline(never)
    mutating func growFrontier() {
        reserveCapacity(Swift.max(1024, capacity + capacity / 4))
    }
}
