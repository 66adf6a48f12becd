// Breadth-first layers over packed tile states, shared by `bfs` and `bidirectional`: a visited
// table that also holds how each state was reached, and the current and next layer.
//
//   table key   the packed state itself up to 14 cells (56 bits); for 15 and 16 cells its
//               rank among all permutations (16! < 2^45), so every key fits StateTable's 56
//   tag         bits 0-1 the direction the last tile slid, bits 2-7 the depth (mod 64: the
//               bidirectional search reads it on each side, 40 at most on the 15-puzzle)
//
// The start's tag has depth 0; walking back from a state undoes the slide its tag names until
// the start is reached.

struct TileLayers: ~Copyable {
    let geometry: TileGeometry
    let start: UInt64
    private let ranked: Bool
    var table = StateTable()
    var frontier: [UInt64]
    var next: [UInt64] = []
    var depth = 0
    var frontierBytes = 0

    init(geometry: TileGeometry, start: UInt64) {
        self.geometry = geometry
        self.start = start
        ranked = geometry.cellCount > 14
        frontier = [start]
        _ = table.insert(key(start), tag: 0)
    }

    @inline(__always)
    func key(_ state: UInt64) -> UInt64 {
        ranked ? Self.rank(state, cells: geometry.cellCount) : state
    }

    /// The permutation's rank (Lehmer code, read in mixed radix n, n-1, ..., 1).
    static func rank(_ state: UInt64, cells: Int) -> UInt64 {
        var used: UInt32 = 0
        var rank: UInt64 = 0
        for cell in 0..<cells {
            let tile = UInt32((state >> UInt64(4 * cell)) & 15)
            let smallerUsed = (used & ((1 << tile) &- 1)).nonzeroBitCount
            rank = rank &* UInt64(cells - cell) &+ UInt64(Int(tile) - smallerUsed)
            used |= 1 << tile
        }
        return rank
    }

    static func tag(direction: TileDirection, depth: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: depth << 2) | direction.rawValue
    }

    func depth(ofTag tag: UInt8) -> Int { Int(tag >> 2) }

    /// Expands every state of the frontier; `visit` sees each new state (already stored) and
    /// returns false to stop at once. Stops too (`overBudget`) when the table's next growth
    /// could take this side past `budgetBytes`. Returns the successors generated, duplicates
    /// included.
    mutating func expandLayer(
        budgetBytes: Int = .max, _ visit: (UInt64) -> Bool
    ) -> (examined: Int, stopped: Bool, overBudget: Bool) {
        var examined = 0
        let childDepth = depth + 1
        for state in frontier {
            let blank = TileGeometry.blank(of: state)
            for move in geometry.moves[blank] {
                let child = TileGeometry.slide(state, tile: move.tile, blank: blank)
                examined += 1
                guard table.insert(key(child), tag: Self.tag(direction: move.direction, depth: childDepth)) else { continue }
                if next.count == next.capacity { next.growFrontier() }
                next.append(child)
                if !visit(child) { return (examined, true, false) }
                // A table grows by half its size at once: count that half before it happens.
                if table.memoryBytes * 3 / 2 + (frontier.capacity + next.capacity) * 8 > budgetBytes {
                    return (examined, true, true)
                }
            }
        }
        return (examined, false, false)
    }

    /// Makes the next layer the frontier.
    mutating func advance() {
        frontierBytes = max(frontierBytes, (frontier.capacity + next.capacity) * 8)
        swap(&frontier, &next)
        next.removeAll(keepingCapacity: true)
        depth += 1
    }

    var memoryBytes: Int { table.memoryBytes + max(frontierBytes, (frontier.capacity + next.capacity) * 8) }

    /// The moves from the start to `state`, by undoing each state's last slide.
    func path(to state: UInt64) -> [SolutionMove] {
        geometry.path(from: start, to: state) { TileDirection(rawValue: table.tag(of: key($0))! & 3)! }
    }
}

extension TileGeometry {
    /// The moves from `start` to `state`, walking back: `lastSlide` names the direction of the
    /// slide that made each state, and undoing it gives the state before.
    func path(from start: UInt64, to state: UInt64, lastSlide: (UInt64) -> TileDirection) -> [SolutionMove] {
        var moves: [SolutionMove] = []
        var current = state
        while current != start {
            let direction = lastSlide(current)
            let blank = TileGeometry.blank(of: current)
            // The tile slid from `blank` (now empty) to `landed`.
            let landed = cell(from: blank, sliding: direction)!
            let value = UInt8((current >> UInt64(4 * landed)) & 15)
            moves.append(solutionMove(tileValue: value, from: blank, to: landed, direction: direction))
            current = TileGeometry.slide(current, tile: landed, blank: blank)
        }
        return moves.reversed()
    }
}
