// `bidirectional`: breadth-first from the start and from the goal set at once, for hard boards.
//
//        start ●──▶ ○ ○ ○ ▶          ◀ ○ ○ ○ ◀──● goals (every legal board with A at the exit)
//                         meet here: a state one side generates that the other side holds
//
// Moves are reversible, so the backward search uses the same move generator. Each round expands
// one whole layer of the side whose frontier is smaller. Optimality: before a layer, no state is
// in both tables, so the best path is longer than df + db. A state x first generated at forward
// depth df + 1 and held backward at depth d ≤ db gives a path of df + 1 + d ≥ the best, so
// d = db and every meeting in the layer has the same, optimal length: the first one is taken.
//
// Where it wins and loses (docs/benchmarks.md has the numbers): the goal set is every placement
// of the other blocks, most of it outside the start's cluster, so it starts with thousands of
// states where forward starts with one. In theory it pays off when the forward search would go
// deep into a big cluster before reaching a goal. Measured so far it never has: on the
// database's hardest-of-cluster boards the forward search explores nearly the whole cluster
// anyway (1.1-1.5x slower), and on open boards the goal set runs to millions (hence the
// budget below, past which it solves forward only).
//
// Its tables are a type parameter, as bfs's window is: GridlockX86V4 specializes the search
// with its bucket table where the CPU runs x86-64-v4 (see RushHourBFSSolver.swift).

import Synchronization

public struct RushHourBidirectionalSolver: PuzzleSolver {
    public var name: String { "bidirectional" }

    public init() {}

    /// The most goal states worth seeding a backward search with. Past it (open boards, where
    /// the other blocks can be placed millions of ways) the backward side would cost more than
    /// the forward search it is meant to shorten, so the solve is a plain forward BFS instead:
    /// on data/samples/open8x8.txt that turned a 26x loss into a tie.
    public static let goalSetBudget = 65_536

    public func solve(_ puzzle: RushHourPuzzle, options: SolveOptions) -> SolveResult {
        if let wide = Self.wideSearch.withLock({ $0 }) { return wide.search(puzzle, options) }
        return search(puzzle, options: options, table: StateTable.self)
    }

    /// The search specialized for a wider CPU, when one is installed (GridlockX86V4).
    public static let wideSearch = Mutex<InstalledSearch<RushHourPuzzle>?>(nil)

    /// The search, its visited sets kept in `Table`s.
    @inlinable
    public func search<Table: SearchStateTable & ~Copyable>(
        _ puzzle: RushHourPuzzle, options: SolveOptions, table: Table.Type
    ) -> SolveResult {
        let geometry = RushHourGeometry(puzzle)
        guard let goals = geometry.goals(limit: min(Self.goalSetBudget, options.maxStates)) else {
            return RushHourBFSSolver().solve(puzzle, options: options)
        }
        var statistics = SearchStatistics()
        if geometry.isGoal(geometry.startKey) {
            statistics.countExamined(atLevel: 0)
            statistics.countEnqueued(atLevel: 0)
            statistics.statesStored = 1
            return SolveResult(status: .solved, statistics: statistics)
        }
        var search = MeetingVisitor<Table>(prisoner: geometry.prisoner)
        _ = search.forward.table.insert(geometry.startKey, tag: RushHourGeometry.rootTag)
        var frontiers = ([RushHourGeometry.entry(geometry.startKey, tag: RushHourGeometry.rootTag)], [UInt64]())
        for goal in goals {
            _ = search.backward.table.insert(goal, tag: RushHourGeometry.rootTag)
            frontiers.1.append(RushHourGeometry.entry(goal, tag: RushHourGeometry.rootTag))
        }
        let goalCount = goals.count
        statistics.countExamined(atLevel: 0)
        statistics.countEnqueued(atLevel: 0)
        statistics.enqueued += goalCount
        statistics.maxQueue = 1 + goalCount
        var cutoff: CutoffReason?
        var depths = (forward: 0, backward: 0)
        var bytes = 0

        geometry.withTables { tables in
            var expanded = 0
            var nearBudget = false
            /// The tables and queues, once grown for `adding` more states.
            func held(afterAdding adding: Int) -> Int {
                search.forward.table.bytesHeld(afterAdding: adding) + search.backward.table.bytesHeld(afterAdding: adding)
                    + search.next.bytesHeld(afterAdding: adding) + (frontiers.0.capacity + frontiers.1.capacity) * 8
            }
            layers: while cutoff == nil, !frontiers.0.isEmpty, !frontiers.1.isEmpty {
                search.expandingForward = frontiers.0.count <= frontiers.1.count
                let frontier = search.expandingForward ? frontiers.0 : frontiers.1
                for (position, entry) in frontier.enumerated() {
                    if expanded % SolveOptions.cancellationInterval == 0 {
                        if options.isCancelled() { cutoff = options.stopReason; break layers }
                        if search.storedStates > options.maxStates { cutoff = .maxStates; break layers }
                        // Near the budget: from here every expansion checks what is held (MemoryBudget.swift).
                        nearBudget = options.overBudget(held(afterAdding: SolveOptions.growthMargin))
                    }
                    expanded &+= 1
                    search.comingFrom(RushHourGeometry.tag(of: entry))
                    let met = !tables.forEachSuccessor(of: entry & StateTable.keyMask, &search)
                    let otherQueue = search.expandingForward ? frontiers.1.count : frontiers.0.count
                    statistics.maxQueue = max(statistics.maxQueue, frontier.count - position - 1 + search.next.count + otherQueue)
                    if met { break layers }
                    if nearBudget, options.overBudget(held(afterAdding: 0)) { cutoff = .memoryBudget; break layers }
                }
                // The layer's peak: the frontier it expanded, the other, and the next one in
                // full (issue 43: measured only after the swap, a shrinking frontier's layer
                // held more than the reported peak).
                bytes = max(bytes, (frontiers.0.capacity + frontiers.1.capacity + search.next.capacity) * 8)
                if search.expandingForward {
                    depths.forward += 1
                    statistics.countExamined(atLevel: depths.forward, search.examined)
                    statistics.countEnqueued(atLevel: depths.forward, search.enqueued)
                    frontiers.0 = search.next
                } else {
                    depths.backward += 1
                    statistics.examined += search.examined
                    statistics.enqueued += search.enqueued
                    frontiers.1 = search.next
                }
                bytes = max(bytes, (frontiers.0.capacity + frontiers.1.capacity + search.next.capacity) * 8)
                search.examined = 0
                search.enqueued = 0
                search.next.removeAll(keepingCapacity: true)
            }
        }
        // A layer cut short by the meeting, or by a limit.
        bytes = max(bytes, (frontiers.0.capacity + frontiers.1.capacity + search.next.capacity) * 8)
        // Counts of a layer cut short by the meeting, or by a limit.
        statistics.examined += search.examined
        statistics.enqueued += search.enqueued
        statistics.statesStored = search.storedStates
        statistics.memoryBytes = search.forward.table.memoryBytes + search.backward.table.memoryBytes + bytes
        statistics.levelReached = depths.forward + depths.backward
        if let meeting = search.meeting {
            statistics.finalQueue = frontiers.0.count + frontiers.1.count
            let path = geometry.path(in: search.forward.table, to: meeting, puzzle: puzzle)
                + geometry.pathToRoot(in: search.backward.table, from: meeting, puzzle: puzzle)
            var result = SolveResult(status: .solved, solution: path, statistics: statistics)
            if options.exploreWholeCluster {
                result.cluster = RushHourBFSSolver().solve(puzzle, options: options).cluster
            }
            return result
        }
        if let cutoff {
            return SolveResult(status: .cutoff, cutoffReason: cutoff, statistics: statistics)
        }
        let clusterExplored = frontiers.0.isEmpty
        return SolveResult(
            status: .unsolvable, cluster: clusterExplored ? search.forward.table.count : nil, statistics: statistics)
    }
}

/// One direction of the search: its visited set and parent links.
@usableFromInline
struct SearchSide<Table: SearchStateTable & ~Copyable>: ~Copyable {
    @usableFromInline var table = Table(initialSlots: 8192)

    @inlinable
    init() {}
}

/// Inserts successors into the side being expanded and watches for a state the other side holds.
@usableFromInline
struct MeetingVisitor<Table: SearchStateTable & ~Copyable>: SuccessorVisitor, ~Copyable {
    @usableFromInline var forward = SearchSide<Table>()
    @usableFromInline var backward = SearchSide<Table>()
    @usableFromInline var expandingForward = true
    @usableFromInline var next: [UInt64] = []
    @usableFromInline var examined = 0
    @usableFromInline var enqueued = 0
    @usableFromInline var meeting: UInt64?
    @usableFromInline let prisoner: Int
    @usableFromInline var entering = EnteringSlide.none

    @inlinable
    init(prisoner: Int) {
        self.prisoner = prisoner
    }

    @inlinable
    var storedStates: Int { forward.table.count + backward.table.count }

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
        let added = expandingForward
            ? forward.table.insert(successor, tag: tag)
            : backward.table.insert(successor, tag: tag)
        guard added else { return true }
        enqueued &+= 1
        if next.count == next.capacity { next.growFrontier() }
        next.append(RushHourGeometry.entry(successor, tag: tag))
        let held = expandingForward ? backward.table.contains(successor) : forward.table.contains(successor)
        if held {
            meeting = successor
            return false
        }
        return true
    }
}
