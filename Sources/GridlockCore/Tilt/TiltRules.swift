// One tilt, on bitboards. Every unit (a connected group of one colour, or a plain block) moves
// one cell per step, all at once; a unit stops when any of its cells would enter a wall, leave
// the board, or enter a unit that is not moving. Which units move in a step is a fixpoint:
// start with all, drop those blocked by walls, edges or dropped units, until nothing changes
// (so a unit blocked only by another unit that moves in the same step does move, and units
// wedged into each other's shapes move or stop together). Steps repeat until none moves.
//
// The search calls this millions of times: units live in a stack buffer (a board of 64 cells
// has at most 64), the moving set is a bitmask over them, and a state is read from and written
// to flat words (each colour's board, then the plain blocks' board), so a tilt allocates nothing.

extension TiltPuzzle {
    /// The state after tilting toward `direction`; nil when nothing moves (not a move).
    public func tilted(_ state: TiltState, _ direction: TiltDirection) -> TiltState? {
        let words = state.colours + [state.plain]
        var next = [UInt64](repeating: 0, count: words.count)
        let moved = words.withUnsafeBufferPointer { from in
            next.withUnsafeMutableBufferPointer { into in tilt(from, direction, into: into) }
        }
        return moved ? TiltState(colours: Array(next.dropLast()), plain: next[next.count - 1]) : nil
    }

    /// Tilts the state in `state` (one board per colour, then the plain blocks' board) toward
    /// `direction`, writing the state after it to `next` (as many words); false when nothing
    /// moves, and `next` is then unspecified.
    func tilt(_ state: UnsafeBufferPointer<UInt64>, _ direction: TiltDirection, into next: UnsafeMutableBufferPointer<UInt64>) -> Bool {
        let board = board
        let colourCount = state.count - 1
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { cells in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { owner in
                // Units: each colour's connected groups, then each plain block alone.
                var count = 0
                for colour in 0...colourCount {
                    var rest = state[colour]
                    while rest != 0 {
                        let unit = colour == colourCount ? rest & (0 &- rest) : board.component(of: rest)
                        cells[count] = unit
                        owner[count] = colour
                        count += 1
                        rest &= ~unit
                    }
                }
                let all: UInt64 = count == 64 ? .max : (1 << UInt64(count)) - 1
                var movedAny = false
                while true {
                    var moving = all
                    for index in 0..<count where board.touchesEdge(cells[index], direction) { moving &= ~(1 << UInt64(index)) }
                    var changed = true
                    while changed, moving != 0 {
                        changed = false
                        var still = board.walls
                        var stopped = all & ~moving
                        while stopped != 0 {
                            still |= cells[stopped.trailingZeroBitCount]
                            stopped &= stopped &- 1
                        }
                        var candidates = moving
                        while candidates != 0 {
                            let index = candidates.trailingZeroBitCount
                            candidates &= candidates &- 1
                            if board.shifted(cells[index], direction) & still != 0 {
                                moving &= ~(1 << UInt64(index))
                                changed = true
                            }
                        }
                    }
                    guard moving != 0 else { break }
                    movedAny = true
                    while moving != 0 {
                        let index = moving.trailingZeroBitCount
                        moving &= moving &- 1
                        cells[index] = board.shifted(cells[index], direction)
                    }
                }
                guard movedAny else { return false }
                for word in 0...colourCount { next[word] = 0 }
                for index in 0..<count { next[owner[index]] |= cells[index] }
                return true
            }
        }
    }

    /// Solved, for a state in flat words: every colour's blocks form one connected group.
    func isSolved(_ state: UnsafeBufferPointer<UInt64>) -> Bool {
        let board = board
        for colour in 0..<(state.count - 1) where !board.isConnected(state[colour]) { return false }
        return true
    }
}
