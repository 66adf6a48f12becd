// The frame's inner edges to a fraction of a pixel. BoardFinder finds them as lines of edge
// pixels, each at the middle row (or column) of its band, rounded down: up to a pixel and a
// half off where the edge is blurred. A block's end is a gap of a few pixels between it and
// its tile's edge (2% of the tile in some apps), so a grid a pixel off sees every gap on one
// side of its tiles and none on the other, and the board is refused as off its tiles.

extension BoardGrid {
    /// The grid with each side moved to the centre of the change across it nearest where it
    /// was found, within a twentieth of a tile (3 pixels at least).
    func refined(_ edges: EdgeMap) -> BoardGrid {
        var grid = self
        let reach = max(3, Int(tile * 0.05))
        // Along the middle of each side only: the frame's corners may be rounded.
        let xs = Array(stride(from: Int(left + tileWidth * 0.5), to: Int(right - tileWidth * 0.5), by: 2))
        let ys = Array(stride(from: Int(top + tileHeight * 0.5), to: Int(bottom - tileHeight * 0.5), by: 2))
        func across(_ y: Int) -> Int {
            guard y >= 0, y < edges.height else { return 0 }
            return xs.reduce(0) { $0 + ($1 >= 0 && $1 < edges.width ? Int(edges.strengthAcross($1, y)) : 0) }
        }
        func along(_ x: Int) -> Int {
            guard x >= 0, x < edges.width else { return 0 }
            return ys.reduce(0) { $0 + ($1 >= 0 && $1 < edges.height ? Int(edges.strengthAlong(x, $1)) : 0) }
        }
        let least = Int(edges.threshold) * max(xs.count, ys.count) / 2
        grid.top = Self.centre(near: top, reach: reach, least: least, strength: across)
        grid.bottom = Self.centre(near: bottom, reach: reach, least: least, strength: across)
        grid.left = Self.centre(near: left, reach: reach, least: least, strength: along)
        grid.right = Self.centre(near: right, reach: reach, least: least, strength: along)
        return grid
    }

    /// Where, near `position`, the frame's change lies: the strength-weighted centre of the
    /// band around the peak of change nearest `position` (a block's edge a few pixels inside a
    /// faint frame is a stronger peak, and no side), as a boundary between pixels (a change
    /// between pixels i-1 and i, pixel i spanning [i, i+1), is measured equally at both, centre
    /// i - 0.5). `position` itself where no peak is clearly there (at least `least`).
    static func centre(near position: Double, reach: Int, least: Int, strength: (Int) -> Int) -> Double {
        let found = Int(position)
        let strengths = (found - reach - 1...found + reach + 1).map { strength($0) }
        // Peaks inside the window (its ends only give their neighbours a side to compare).
        let peaks = (1..<strengths.count - 1).filter { index in
            strengths[index] >= least && strengths[index] >= strengths[index - 1] && strengths[index] >= strengths[index + 1]
        }
        let offset = found - reach - 1
        guard let peak = peaks.min(by: { (abs(Double($0 + offset) - position), -strengths[$0]) < (abs(Double($1 + offset) - position), -strengths[$1]) })
        else { return position }
        var weighted = 0.0, total = 0.0
        // The band: the rows next to the peak whose change is at least half of it.
        for direction in [-1, 1] {
            var index = peak + (direction > 0 ? 1 : 0)
            while index >= 0, index < strengths.count, strengths[index] * 2 >= strengths[peak] {
                weighted += Double(index + offset) * Double(strengths[index])
                total += Double(strengths[index])
                index += direction
            }
        }
        return weighted / total + 0.5
    }
}
