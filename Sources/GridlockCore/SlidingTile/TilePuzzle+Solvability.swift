// Which arrangements can reach the goal, decided without searching.
//
// Sliding a tile sideways keeps the reading order of the tiles. Sliding one up or down moves
// it past width-1 others: on an odd-width board that keeps the parity of the inversions; on an
// even-width board it flips it, and the blank changes row. So
//     inversions(tiles without the blank) + (width even ? row of the blank : 0)   (mod 2)
// never changes, and an arrangement reaches the goal exactly when it agrees with the goal's.

extension TilePuzzle {
    static func invariant(_ tiles: [UInt8], width: Int) -> Int {
        let numbers = tiles.filter { $0 != 0 }
        var inversions = 0
        for (index, tile) in numbers.enumerated() {
            for later in numbers[(index + 1)...] where later < tile { inversions += 1 }
        }
        let blankRow = tiles.firstIndex(of: 0)! / width
        return (inversions + (width % 2 == 0 ? blankRow : 0)) % 2
    }

    /// Why the goal cannot be reached, or nil when it can.
    public var unsolvableReason: String? {
        let here = Self.invariant(tiles, width: width)
        let there = Self.invariant(goalTiles, width: width)
        guard here != there else { return nil }
        let what = width % 2 == 0 ? "the parity of the inversions plus the blank's row" : "the parity of the inversions"
        return "\(what) differs from the \(goal.rawValue) goal's, and no move changes it: half of all arrangements cannot reach a given goal"
    }
}
