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
