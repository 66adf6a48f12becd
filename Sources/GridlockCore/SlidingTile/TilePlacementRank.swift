// A compact index for a group's placement on the 4x4 board: the rank of its cells as a partial
// permutation, 16 x 15 x ... x (16 - k + 1) entries for k tiles, every one a real placement.
//
//   tile j of the group at cell c_j, the cells taken by tiles 0..<j left out:
//     digit_j = c_j - (cells below c_j taken by tiles 0..<j)     0 ..< 16 - j
//     rank    = (...(digit_0 * 15 + digit_1) * 14 + digit_2 ...)
//
// The sparse index (4 bits a cell, 16^k entries) needs no ranking, but for 8 tiles it is 4 GiB
// of which 12% are placements: ranked, the 8-tile table is 518,918,400 entries.

enum TilePlacementRank {
    /// How many placements k tiles have: 16! / (16 - k)!.
    static func count(tiles k: Int) -> Int {
        (0..<k).reduce(1) { $0 * (16 - $1) }
    }

    /// The rank of the cells `cells[0..<k]` (distinct, 0..<16).
    @inline(__always)
    static func rank(_ cells: UnsafePointer<UInt8>, count k: Int) -> Int {
        var taken: UInt32 = 0
        var rank = 0
        for slot in 0..<k {
            let cell = UInt32(cells[slot])
            let below = taken & ((1 << cell) &- 1)
            rank = rank &* (16 - slot) &+ Int(cell) &- below.nonzeroBitCount
            taken |= 1 << cell
        }
        return rank
    }

    /// The cells of rank `rank`, into `cells[0..<k]`.
    static func unrank(_ rank: Int, count k: Int, into cells: UnsafeMutablePointer<UInt8>) {
        var digits = (UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
                      UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0))
        withUnsafeMutableBytes(of: &digits) { digits in
            var rest = rank
            for slot in stride(from: k - 1, through: 0, by: -1) {
                let base = 16 - slot
                digits[slot] = UInt8(rest % base)
                rest /= base
            }
            var taken: UInt32 = 0
            for slot in 0..<k {
                // The digit-th free cell, counting from 0.
                var free = ~taken & 0xFFFF
                for _ in 0..<Int(digits[slot]) { free &= free - 1 }
                let cell = UInt8(free.trailingZeroBitCount)
                cells[slot] = cell
                taken |= 1 << UInt32(cell)
            }
        }
    }
}
