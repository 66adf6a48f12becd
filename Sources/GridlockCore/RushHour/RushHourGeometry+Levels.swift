// Breadth-first levels of a whole cluster, from one state or from many at once, with the bfs
// solver's machinery: the three-level window and the skipped slides. The generator uses it
// twice per layout: from the layout to find its cluster and the cluster's goals, then from
// every goal at once, whose last level is the cluster's hardest state.

extension RushHourGeometry {
    /// Every state reachable from `roots`, level by level: level i is
    /// `entries[levelStarts[i]..<levelStarts[i + 1]]`, each entry a key and its tag. Nil when
    /// more than `limit` states are reachable.
    func levels(from roots: [UInt64], limit: Int) -> (entries: [UInt64], levelStarts: [Int])? {
        var search = LevelVisitor()
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

/// The levels' visitor: looks each successor up in the window of recent levels and appends
/// the new ones to the entry array.
struct LevelVisitor: SuccessorVisitor, ~Copyable {
    /// Every state generated, as table entries (key and tag), level after level.
    var entries: [UInt64] = []
    /// Where each level starts in `entries`, the level being generated included.
    var levelStarts: [Int] = [0]
    /// The states of the level being expanded, the one before and the one being generated.
    var window = StateTable(initialSlots: 256)
    /// How the state being expanded was first reached.
    var entering = EnteringSlide.none

    /// Notes how the state about to be expanded was reached.
    mutating func comingFrom(_ tag: UInt8) {
        entering = EnteringSlide(tag: tag)
    }

    func skipKnown(_ count: Int) {}

    mutating func visit(_ successor: UInt64, block: Int, from: Int, to: Int) -> Bool {
        let tag = RushHourGeometry.tag(block: block, from: from)
        if window.insert(successor, tag: tag) {
            entries.append(RushHourGeometry.entry(successor, tag: tag))
        }
        return true
    }

    /// Once a level is expanded, keeps in the window only the states from `start` on: that
    /// level and the one just generated, the only ones the next level's successors can meet.
    mutating func slideWindow(keepingFrom start: Int) {
        window.removeAll(reservingFor: entries.count - start)
        for index in start..<entries.count {
            let entry = entries[index]
            _ = window.insert(entry & StateTable.keyMask, tag: RushHourGeometry.tag(of: entry))
        }
    }
}
