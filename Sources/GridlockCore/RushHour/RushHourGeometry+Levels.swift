// Breadth-first levels of a whole cluster, from one state or from many at once, with the bfs
// solver's machinery: the three-level window and the skipped slides. The generator uses it
// twice per layout: from the layout to find its cluster and the cluster's goals, then from
// every goal at once, whose last level is the cluster's hardest state.

extension RushHourGeometry {
    /// Every state reachable from `roots`, level by level: level i is
    /// `entries[levelStarts[i]..<levelStarts[i + 1]]`, each entry a key and its tag. Nil when
    /// more than `limit` states are reachable.
    func levels(from roots: [UInt64], limit: Int) -> (entries: [UInt64], levelStarts: [Int])? {
        var search = BFSVisitor<StateTable>(geometry: self, stopAtGoal: false)
        for root in roots where search.window.insert(root, tag: Self.rootTag) {
            search.entries.append(Self.entry(root, tag: Self.rootTag))
        }
        let complete = withTables { tables in
            var levelStart = 0
            while levelStart < search.entries.count {
                let levelEnd = search.entries.count
                search.levelStarts.append(levelEnd)
                for position in levelStart..<levelEnd {
                    let entry = search.entries[position]
                    search.comingFrom(Self.tag(of: entry))
                    _ = tables.forEachSuccessor(of: entry & StateTable.keyMask, &search)
                    if search.entries.count > limit { return false }
                }
                search.slideWindow(keepingFrom: levelStart)
                levelStart = levelEnd
            }
            return true
        }
        guard complete else { return nil }
        // The last level expanded found nothing: its end is recorded twice.
        search.levelStarts.removeLast()
        return (search.entries, search.levelStarts)
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
