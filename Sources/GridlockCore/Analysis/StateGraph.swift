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

    /// The bytes held once `adding` more keys are in: when that passes the growth point, the
    /// old slots and the new (twice as many) together, during the copy.
    func bytesHeld(afterAdding adding: Int) -> Int {
        let bytes = capacity * MemoryLayout<Slot>.stride
        return (count + adding) * 10 >= capacity * 7 ? bytes * 3 : bytes
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

/// What an exploration may hold: states, and bytes of tables (checked, like a solver's, before
/// the tables' next growth would pass it: MemoryBudget.swift).
public struct ExplorationLimits: Sendable {
    public var maxStates: Int
    public var memoryBudgetBytes: Int
    /// The caller's time limit, polled with the other limits (the core has no clock).
    public var isCancelled: @Sendable () -> Bool

    public init(
        maxStates: Int, memoryBudgetBytes: Int = SolveOptions.defaultMemoryBudgetBytes, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) {
        self.maxStates = maxStates
        self.memoryBudgetBytes = memoryBudgetBytes
        self.isCancelled = isCancelled
    }

    /// Why exploring must stop with `states` found and tables that will hold `bytes` once they
    /// next grow; nil while it may go on.
    func refusal(states: Int, bytes: Int) -> AnalysisRefusal? {
        if states > maxStates { return .overLimit(maxStates) }
        if bytes > memoryBudgetBytes { return .overBudget(memoryBudgetBytes, states: states) }
        if isCancelled() { return .timedOut(states: states) }
        return nil
    }

    /// Room for the states and edges the expansions between two checks may add.
    static let margin = SolveOptions.growthMargin
}

extension StateGraph {
    /// The bytes of a graph's arrays once `adding` more states (and their edges) are in.
    static func bytesHeld(offsets: [Int32], targets: [Int32], goals: [Bool], depths: [Int32], keys: [UInt64], adding: Int) -> Int {
        offsets.bytesHeld(afterAdding: adding) + targets.bytesHeld(afterAdding: adding) + goals.bytesHeld(afterAdding: adding)
            + depths.bytesHeld(afterAdding: adding) + keys.bytesHeld(afterAdding: adding)
    }

    /// Breadth-first from `start` over one-word states whose moves can all be undone;
    /// `successors` calls its sink for each.
    static func explore(
        start: UInt64, isGoal: (UInt64) -> Bool, limits: ExplorationLimits, successors: (UInt64, (UInt64) -> Void) -> Void
    ) -> Result<StateGraph, AnalysisRefusal> {
        // Local arrays, moved into the graph at the end: appends to a stored property pay a
        // uniqueness check each, and there are millions.
        var map = KeyIndexMap()
        var keys: [UInt64] = [start]
        var offsets: [Int32] = [0], targets: [Int32] = [], goals: [Bool] = [], depths: [Int32] = [0]
        _ = map.index(of: start, orInsert: 0)
        var position = 0
        while position < keys.count {
            if position % SolveOptions.cancellationInterval == 0 {
                let margin = ExplorationLimits.margin
                let bytes = map.bytesHeld(afterAdding: margin)
                    + Self.bytesHeld(offsets: offsets, targets: targets, goals: goals, depths: depths, keys: keys, adding: margin)
                if let refusal = limits.refusal(states: keys.count, bytes: bytes) { return .failure(refusal) }
            }
            if keys.count > limits.maxStates { return .failure(.overLimit(limits.maxStates)) }
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
        return .success(StateGraph(reversibleOffsets: offsets, targets: targets, goals: goals, depths: depths, keys: keys))
    }

    /// Breadth-first from `start` over any hashable states (tilt boards); each state holds
    /// `heapBytes` of its own besides its slots.
    static func explore<State: Hashable>(
        start: State, isGoal: (State) -> Bool, limits: ExplorationLimits, heapBytes: Int, successors: (State) -> [State]
    ) -> Result<StateGraph, AnalysisRefusal> {
        var graph = StateGraph()
        var index: [State: Int32] = [start: 0]
        var states = [start]
        graph.depth.append(0)
        var position = 0
        while position < states.count {
            // At every state, with room for its few successors: these states are big.
            let bytes = index.bytesHeld(afterAdding: 4, bytesPerEntry: MemoryLayout<State>.stride + 4)
                + states.bytesHeld(afterAdding: 4) + (states.count + 4) * heapBytes
                + Self.bytesHeld(offsets: graph.offsets, targets: graph.targets, goals: graph.isGoal, depths: graph.depth, keys: [], adding: 4)
            if let refusal = limits.refusal(states: states.count, bytes: bytes) { return .failure(refusal) }
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
        return .success(graph)
    }
}
