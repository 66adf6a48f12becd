// Building a group's table under the ranked index (TilePlacementRank.swift): the 7-8 split's
// groups, whose sparse tables and (placement, blank cell) search would not fit in memory (16^9
// states for 8 tiles).
//
// The search runs over (placement, blank region): the blank moves among the cells no tile of
// the group holds at no cost, so all of one connected region of them is one state, named by its
// lowest cell. A group tile next to the region slides into it for one move, and the blank's new
// region is grown from the cell the tile left. A placement's entry is the level at which the
// search first meets it, in any region: the fewest moves of the group's tiles, as the sparse
// builder's minimum over blank cells gives (the tests compare the two on small groups).
//
// Memory for 8 tiles: the table (a byte per placement, 495 MiB), the regions seen (16 bits per
// placement, 990 MiB) and two levels of states (8 bytes each; the widest level of the 8-tile
// group holds 175 million). Measured for blank-first: 1.43 billion states in 39 levels,
// 1,014 s and 4.6 GiB at the peak on one core (docs/benchmarks.md).

extension TilePatternDatabase {
    /// Each cell's neighbours on the 4x4 board, as a bit per cell.
    static let neighbourMasks: [UInt32] = (0..<16).map { cell in
        var mask: UInt32 = 0
        if cell >= 4 { mask |= 1 << (cell - 4) }
        if cell < 12 { mask |= 1 << (cell + 4) }
        if cell % 4 > 0 { mask |= 1 << (cell - 1) }
        if cell % 4 < 3 { mask |= 1 << (cell + 1) }
        return mask
    }

    /// The cells of `free` connected to `start` (which is one of them).
    @inline(__always)
    static func region(from start: Int, free: UInt32) -> UInt32 {
        var region: UInt32 = 1 << start
        while true {
            // Down, up, right (not out of column 3) and left (not out of column 0).
            let grown = (region | region << 4 | region >> 4 | (region << 1) & 0xEEEE | (region >> 1) & 0x7777) & free
            if grown == region { return region }
            region = grown
        }
    }

    /// The group's table under the ranked index; `level` hears each level's number and states
    /// as the search reaches it.
    static func buildRankedGroup(_ group: [UInt8], goalTiles: [UInt8], level report: (Int, Int) -> Void = { _, _ in }) -> [UInt8] {
        let size = group.count
        let unreached: UInt8 = 255
        let placements = TilePlacementRank.count(tiles: size)
        var table = [UInt8](repeating: unreached, count: placements)
        var seen = [UInt16](repeating: 0, count: placements)
        var cells = [UInt8](repeating: 0, count: 16)
        for (slot, tile) in group.enumerated() { cells[slot] = UInt8(goalTiles.firstIndex(of: tile)!) }
        let blank = goalTiles.firstIndex(of: 0)!
        let neighbours = neighbourMasks
        table.withUnsafeMutableBufferPointer { table in
            seen.withUnsafeMutableBufferPointer { seen in
                cells.withUnsafeMutableBufferPointer { cellsBuffer in
                    let cells = cellsBuffer.baseAddress!
                    var occupied: UInt32 = 0
                    for slot in 0..<size { occupied |= 1 << UInt32(cells[slot]) }
                    let startRegion = region(from: blank, free: ~occupied & 0xFFFF).trailingZeroBitCount
                    let startRank = TilePlacementRank.rank(cells, count: size)
                    table[startRank] = 0
                    seen[startRank] = 1 << startRegion
                    var current: [UInt64] = [UInt64(startRank) << 4 | UInt64(startRegion)]
                    var next: [UInt64] = []
                    var level: UInt8 = 0
                    while !current.isEmpty {
                        report(Int(level), current.count)
                        for state in current {
                            let rank = Int(state >> 4)
                            TilePlacementRank.unrank(rank, count: size, into: cells)
                            var occupied: UInt32 = 0
                            for slot in 0..<size { occupied |= 1 << UInt32(cells[slot]) }
                            let free = ~occupied & 0xFFFF
                            let area = region(from: Int(state & 15), free: free)
                            for slot in 0..<size {
                                let from = Int(cells[slot])
                                var targets = neighbours[from] & area
                                while targets != 0 {
                                    let to = targets.trailingZeroBitCount
                                    targets &= targets - 1
                                    cells[slot] = UInt8(to)
                                    let movedRank = TilePlacementRank.rank(cells, count: size)
                                    let movedFree = (free | 1 << UInt32(from)) & ~(1 << UInt32(to))
                                    let movedRegion = region(from: from, free: movedFree).trailingZeroBitCount
                                    let bit = UInt16(1) << movedRegion
                                    if seen[movedRank] & bit == 0 {
                                        seen[movedRank] |= bit
                                        if table[movedRank] == unreached { table[movedRank] = level + 1 }
                                        next.append(UInt64(movedRank) << 4 | UInt64(movedRegion))
                                    }
                                }
                                cells[slot] = UInt8(from)
                            }
                        }
                        swap(&current, &next)
                        next.removeAll(keepingCapacity: true)
                        level += 1
                    }
                }
            }
        }
        return table
    }
}
