// The goal set and the walk back to it, for the bidirectional solver.
//
// A goal is any legal board with the prisoner touching the chute's edge: every other movable
// block anywhere on its own line, no two overlapping. They are enumerated block by block with
// an occupancy word, depth first; most are not in the start's cluster, which is the price of
// searching backward without knowing the cluster.

extension RushHourGeometry {
    /// Every goal state's key, or nil when there are more than `limit`. Out of the searches'
    /// inlinable bodies: there, this closure (which does not depend on the table's type) was
    /// emitted in GridlockX86V4 under the generic search's name, a symbol portable code shares,
    /// and the linker kept that copy, with AVX in it (scripts/check-portable caught it).
    @usableFromInline
    func goals(limit: Int) -> [UInt64]? {
        var goals: [UInt64] = []
        return forEachGoal(limit: limit) { goals.append($0) } > limit ? nil : goals
    }

    /// Calls `body` with the key of every goal state, stopping once more than `limit` have been
    /// produced. Returns how many were produced.
    func forEachGoal(limit: Int, _ body: (UInt64) -> Void) -> Int {
        var produced = 0
        let prisonerMask = masks[prisoner * Self.stride + goalPosition]
        let start = UInt64(goalPosition) << UInt64(prisoner * Self.bitsPerBlock)
        func place(_ block: Int, occupied: UInt64, key: UInt64) {
            guard produced <= limit else { return }
            if block == movable.count {
                produced += 1
                body(key)
                return
            }
            if block == prisoner {
                place(block + 1, occupied: occupied, key: key)
                return
            }
            for position in 0..<positionCount[block] {
                let mask = masks[block * Self.stride + position]
                if mask & occupied == 0 {
                    place(block + 1, occupied: occupied | mask, key: key | UInt64(position) << UInt64(block * Self.bitsPerBlock))
                }
            }
        }
        if prisonerMask & walls == 0 {
            place(0, occupied: walls | prisonerMask, key: start)
        }
        return produced
    }

    /// The moves from `key` to the root of a backward search, following `table`'s tags: each
    /// tag says where the block was one step nearer the goal.
    @usableFromInline
    func pathToRoot<Table: SearchStateTable & ~Copyable>(in table: borrowing Table, from key: UInt64, puzzle: RushHourPuzzle) -> [SolutionMove] {
        var moves: [SolutionMove] = []
        var key = key
        var tag = table.tag(of: key)!
        while tag != Self.rootTag {
            let (block, nearerGoal) = Self.untag(tag)
            let current = Self.position(of: block, in: key)
            moves.append(solutionMove(in: puzzle, block: block, from: current, to: nearerGoal))
            key = Self.key(key, moving: block, from: current, to: nearerGoal)
            tag = table.tag(of: key)!
        }
        return moves
    }
}
