// What puzzle designers ask of a position (the Magnetic Block Puzzle seed's grading): how many
// states are reachable, how many are goals, from how many a goal can still be reached (useful)
// and from how many not (dead ends), the best solution's length, how many distinct optimal move
// sequences there are, and the hardest useful state.
//
//   distance to a goal   breadth-first from every goal at once over the reversed edges
//   solutions            states in order of that distance: a goal has one (the empty
//                        sequence); another, the sum over its successors one step nearer
//   hardest              the largest distance to a goal over useful states
//
// Counts of sequences can exceed 64 bits on big open boards: they saturate at UInt64.max and
// say so (`solutionsSaturated`).

public struct StateSpaceAnalysis: Sendable, Codable, Hashable {
    public var reachable: Int
    public var goalStates: Int
    public var useful: Int
    public var deadEnds: Int
    /// Optimal moves from the given position, or nil when no goal is reachable.
    public var bestMoves: Int?
    /// Distinct optimal move sequences from the given position.
    public var solutions: UInt64?
    public var solutionsSaturated: Bool
    /// The largest optimal distance to a goal over all useful states.
    public var hardest: Int?
    /// Reachable states by their distance (in moves) from the given position.
    public var depthHistogram: [Int]
    /// Useful states by their optimal distance to a goal.
    public var goalDistanceHistogram: [Int]

    enum CodingKeys: String, CodingKey {
        case reachable, goalStates, useful, deadEnds, bestMoves, solutions, solutionsSaturated, hardest
        case depthHistogram, goalDistanceHistogram
    }

    /// Every key always present: `bestMoves`, `solutions` and `hardest` are null, not missing,
    /// when no goal is reachable.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reachable, forKey: .reachable)
        try container.encode(goalStates, forKey: .goalStates)
        try container.encode(useful, forKey: .useful)
        try container.encode(deadEnds, forKey: .deadEnds)
        try container.encode(bestMoves, forKey: .bestMoves)
        try container.encode(solutions, forKey: .solutions)
        try container.encode(solutionsSaturated, forKey: .solutionsSaturated)
        try container.encode(hardest, forKey: .hardest)
        try container.encode(depthHistogram, forKey: .depthHistogram)
        try container.encode(goalDistanceHistogram, forKey: .goalDistanceHistogram)
    }

    /// The reversed edges, as compressed rows.
    static func reversed(_ graph: StateGraph) -> (offsets: [Int32], sources: [Int32]) {
        let count = graph.count
        var offsets = [Int32](repeating: 0, count: count + 1)
        for target in graph.targets { offsets[Int(target) + 1] += 1 }
        for state in 0..<count { offsets[state + 1] += offsets[state] }
        var fill = offsets
        var sources = [Int32](repeating: 0, count: graph.targets.count)
        for state in 0..<count {
            for edge in Int(graph.offsets[state])..<Int(graph.offsets[state + 1]) {
                let target = Int(graph.targets[edge])
                sources[Int(fill[target])] = Int32(state)
                fill[target] += 1
            }
        }
        return (offsets, sources)
    }

    /// Each state's distance to the nearest goal (-1: none reachable), and the useful states in
    /// order of that distance.
    public static func distancesToGoal(_ graph: StateGraph) -> (distance: [Int32], order: [Int32]) {
        let count = graph.count
        let (reverseOffsets, sources) = graph.isSymmetric ? (graph.offsets, graph.targets) : reversed(graph)
        // Distance to the nearest goal.
        var distance = [Int32](repeating: -1, count: count)
        var order: [Int32] = []
        order.reserveCapacity(count)
        for state in 0..<count where graph.isGoal[state] {
            distance[state] = 0
            order.append(Int32(state))
        }
        var position = 0
        while position < order.count {
            let state = Int(order[position])
            position += 1
            for edge in Int(reverseOffsets[state])..<Int(reverseOffsets[state + 1]) {
                let source = Int(sources[edge])
                if distance[source] < 0 {
                    distance[source] = distance[state] + 1
                    order.append(Int32(source))
                }
            }
        }
        return (distance, order)
    }

    public static func of(_ graph: StateGraph) -> StateSpaceAnalysis {
        let count = graph.count
        let (distance, order) = distancesToGoal(graph)
        // Optimal sequences, nearest states first (`order` is sorted by distance).
        var ways = [UInt64](repeating: 0, count: count)
        var saturated = false
        for state in order.map(Int.init) {
            if distance[state] == 0 {
                ways[state] = 1
                continue
            }
            var total: UInt64 = 0
            for edge in Int(graph.offsets[state])..<Int(graph.offsets[state + 1]) {
                let target = Int(graph.targets[edge])
                guard distance[target] == distance[state] - 1 else { continue }
                let (sum, overflow) = total.addingReportingOverflow(ways[target])
                total = overflow ? .max : sum
                if overflow || ways[target] == .max { saturated = true }
            }
            ways[state] = total
        }
        var depthHistogram: [Int] = []
        for depth in graph.depth {
            while depthHistogram.count <= Int(depth) { depthHistogram.append(0) }
            depthHistogram[Int(depth)] += 1
        }
        var goalDistanceHistogram: [Int] = []
        for state in order.map(Int.init) {
            let value = Int(distance[state])
            while goalDistanceHistogram.count <= value { goalDistanceHistogram.append(0) }
            goalDistanceHistogram[value] += 1
        }
        let reachedGoal = count > 0 && distance[0] >= 0
        return StateSpaceAnalysis(
            reachable: count, goalStates: graph.isGoal.count { $0 }, useful: order.count, deadEnds: count - order.count,
            bestMoves: reachedGoal ? Int(distance[0]) : nil, solutions: reachedGoal ? ways[0] : nil,
            solutionsSaturated: reachedGoal && saturated, hardest: order.isEmpty ? nil : goalDistanceHistogram.count - 1,
            depthHistogram: depthHistogram, goalDistanceHistogram: goalDistanceHistogram)
    }
}
