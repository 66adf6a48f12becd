// Everything reachable from a position, as a graph: states numbered in breadth-first order from
// the start (state 0), successors in one flat array (compressed sparse rows), goal flags, and
// each state's distance from the start. Built by a kind's explorer (StateGraph+Explore.swift);
// read by the analysis (StateSpaceAnalysis.swift).
//
//   offsets   [0, 3, 5, ...]     state s's successors are targets[offsets[s] ..< offsets[s+1]]
//   targets   [1, 2, 3, 0, 4, ...]

public struct StateGraph: Sendable {
    public internal(set) var offsets: [Int32] = [0]
    public internal(set) var targets: [Int32] = []
    public internal(set) var isGoal: [Bool] = []
    public internal(set) var depth: [Int32] = []
    /// Each state's key, for the one-word explorers (Rush Hour, tiles); empty otherwise.
    public internal(set) var keys: [UInt64] = []
    /// Every move can be undone (Rush Hour, tiles): the reversed graph is the graph itself.
    public internal(set) var isSymmetric = false

    public var count: Int { isGoal.count }

    public init() {}

    /// The graph of a one-word explorer whose moves can all be undone (Rush Hour, tiles).
    init(reversibleOffsets offsets: [Int32], targets: [Int32], goals: [Bool], depths: [Int32], keys: [UInt64]) {
        self.offsets = offsets
        self.targets = targets
        isGoal = goals
        depth = depths
        self.keys = keys
        isSymmetric = true
    }
}

/// A map from 64-bit state keys to state numbers: open addressing with linear probing, each key
/// beside its number so a probe touches one cache line, for the explorers of kinds whose states
/// are one word (Rush Hour, tiles up to 16 cells). On the largest Rush Hour cluster the probes
/// are most of the exploring time: they miss the cache, since the map outgrows it.
struct KeyIndexMap: ~Copyable {
    private struct Slot {
        var key: UInt64
        var value: Int32
    }

    private var slots: UnsafeMutablePointer<Slot>
    private var capacity: Int
    private(set) var count = 0
    private static let empty = UInt64.max

    init(capacity: Int = 1 << 14) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(key: Self.empty, value: 0), count: capacity)
    }

    deinit {
        slots.deallocate()
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: UInt64(capacity)).high)
    }

    /// The key's number, adding it with `next` if it is new; and whether it was new.
    @inline(__always)
    mutating func index(of key: UInt64, orInsert next: Int32) -> (Int32, Bool) {
        if count * 10 >= capacity * 7 { grow() }
        var position = slot(key)
        while true {
            let found = slots[position].key
            if found == key { return (slots[position].value, false) }
            if found == Self.empty {
                slots[position] = Slot(key: key, value: next)
                count += 1
                return (next, true)
            }
            position += 1
            if position == capacity { position = 0 }
        }
    }

    private mutating func grow() {
        let old = slots, oldCapacity = capacity
        capacity *= 2
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(key: Self.empty, value: 0), count: capacity)
        for index in 0..<oldCapacity where old[index].key != Self.empty {
            var position = slot(old[index].key)
            while slots[position].key != Self.empty {
                position += 1
                if position == capacity { position = 0 }
            }
            slots[position] = old[index]
        }
        old.deallocate()
    }
}

extension StateGraph {
    /// Breadth-first from `start` over one-word states whose moves can all be undone;
    /// `successors` calls its sink for each.
    static func explore(
        start: UInt64, isGoal: (UInt64) -> Bool, limit: Int, successors: (UInt64, (UInt64) -> Void) -> Void
    ) -> StateGraph? {
        // Local arrays, moved into the graph at the end: appends to a stored property pay a
        // uniqueness check each, and there are millions.
        var map = KeyIndexMap()
        var keys: [UInt64] = [start]
        var offsets: [Int32] = [0], targets: [Int32] = [], goals: [Bool] = [], depths: [Int32] = [0]
        _ = map.index(of: start, orInsert: 0)
        var position = 0
        while position < keys.count {
            if keys.count > limit { return nil }
            let key = keys[position]
            goals.append(isGoal(key))
            let depth = depths[position] + 1
            successors(key) { next in
                let (index, isNew) = map.index(of: next, orInsert: Int32(keys.count))
                if isNew {
                    keys.append(next)
                    depths.append(depth)
                }
                targets.append(index)
            }
            offsets.append(Int32(targets.count))
            position += 1
        }
        return StateGraph(reversibleOffsets: offsets, targets: targets, goals: goals, depths: depths, keys: keys)
    }

    /// Breadth-first from `start` over any hashable states (tilt boards).
    static func explore<State: Hashable>(
        start: State, isGoal: (State) -> Bool, limit: Int, successors: (State) -> [State]
    ) -> StateGraph? {
        var graph = StateGraph()
        var index: [State: Int32] = [start: 0]
        var states = [start]
        graph.depth.append(0)
        var position = 0
        while position < states.count {
            if states.count > limit { return nil }
            let state = states[position]
            graph.isGoal.append(isGoal(state))
            for next in successors(state) {
                if let known = index[next] {
                    graph.targets.append(known)
                } else {
                    index[next] = Int32(states.count)
                    graph.targets.append(Int32(states.count))
                    states.append(next)
                    graph.depth.append(graph.depth[position] + 1)
                }
            }
            graph.offsets.append(Int32(graph.targets.count))
            position += 1
        }
        return graph
    }
}
