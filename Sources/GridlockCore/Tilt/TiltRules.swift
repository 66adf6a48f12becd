// One tilt, on bitboards. Every unit (a connected group of one colour, or a plain block) moves
// one cell per step, all at once; a unit stops when any of its cells would enter a wall, leave
// the board, or enter a unit that is not moving. Which units move in a step is a fixpoint:
// start with all, drop those blocked by walls, edges or dropped units, until nothing changes
// (so a unit blocked only by another unit that moves in the same step does move, and units
// wedged into each other's shapes move or stop together). Steps repeat until none moves.

extension TiltPuzzle {
    /// The state after tilting toward `direction`; nil when nothing moves (not a move).
    public func tilted(_ state: TiltState, _ direction: TiltDirection) -> TiltState? {
        let board = board
        var units: [(colour: Int, cells: UInt64)] = []
        for (colour, set) in state.colours.enumerated() {
            for group in board.components(set) { units.append((colour, group)) }
        }
        var plain = state.plain
        while plain != 0 {
            units.append((-1, plain & (0 &- plain)))
            plain &= plain &- 1
        }
        var movedAny = false
        var moving = [Bool](repeating: true, count: units.count)
        while true {
            for index in units.indices { moving[index] = !board.touchesEdge(units[index].cells, direction) }
            var changed = true
            while changed {
                changed = false
                var still = board.walls
                for index in units.indices where !moving[index] { still |= units[index].cells }
                for index in units.indices where moving[index] && board.shifted(units[index].cells, direction) & still != 0 {
                    moving[index] = false
                    changed = true
                }
            }
            guard moving.contains(true) else { break }
            movedAny = true
            for index in units.indices where moving[index] {
                units[index].cells = board.shifted(units[index].cells, direction)
            }
        }
        guard movedAny else { return nil }
        var next = TiltState(colours: [UInt64](repeating: 0, count: state.colours.count), plain: 0)
        for unit in units {
            if unit.colour < 0 { next.plain |= unit.cells } else { next.colours[unit.colour] |= unit.cells }
        }
        return next
    }
}
