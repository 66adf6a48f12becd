// Locked candidates (pointing and claiming) for the bitset solver, one digit and one band or
// stack at a time, through a 512-entry table.
//
// A band is three rows; its nine "minirows" are where a row meets a box. For one digit, mark
// the minirows that still hold a candidate: a 3x3 matrix, rows of the band by boxes.
//
//      box 0 1 2
//   row 0  x . .      row 0 is confined to box 0 (claiming): box 0 loses the digit in rows 1-2
//   row 1  x x .      box 2 is confined to row 2 (pointing): row 2 loses it in boxes 0-1
//   row 2  . x x
//
// Both rules say: a matrix row with one mark clears the rest of that mark's column, and a
// column with one mark clears the rest of its row. `keptMinirows[matrix]` is the matrix after
// both rules to a fixpoint. A stack (three columns of boxes) gives the same matrix with bands
// for rows and columns for columns, so the same table serves it.
//
// Layout of a band value: 27 bits, row r of the band at bits 9r..9r+8, column c at bit c.
// Bands in the solver's two words: band 0 = word 0 bits 0-26, band 1 = bits 27-53, band 2 =
// word 0 bits 54-62 then word 1 bits 0-17.

enum SudokuLockedCandidates {
    static let bandMask: UInt64 = (1 << 27) - 1

    /// The matrix after pointing and claiming, for every matrix (bit 3*row + column).
    nonisolated(unsafe) static let keptMinirows: UnsafePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 512)
        for matrix in 0..<512 { table[matrix] = UInt16(fixpoint(matrix)) }
        return UnsafePointer(table)
    }()

    /// The band cells of a set of minirows.
    nonisolated(unsafe) static let minirowCells: UnsafePointer<UInt32> = {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 512)
        for minirows in 0..<512 {
            var cells: UInt32 = 0
            for index in 0..<9 where minirows & (1 << index) != 0 {
                cells |= 0b111 << UInt32(9 * (index / 3) + 3 * (index % 3))
            }
            table[minirows] = cells
        }
        return UnsafePointer(table)
    }()

    private static func fixpoint(_ start: Int) -> Int {
        func bit(_ row: Int, _ column: Int) -> Int { 1 << (3 * row + column) }
        var matrix = start
        var previous = -1
        while matrix != previous {
            previous = matrix
            for row in 0..<3 {
                let marks = (0..<3).filter { matrix & bit(row, $0) != 0 }
                if marks.count == 1 { for other in 0..<3 where other != row { matrix &= ~bit(other, marks[0]) } }
            }
            for column in 0..<3 {
                let marks = (0..<3).filter { matrix & bit($0, column) != 0 }
                if marks.count == 1 { for other in 0..<3 where other != column { matrix &= ~bit(marks[0], other) } }
            }
        }
        return matrix
    }

    /// The minirows of a band that hold a candidate: bits 0,3,...,24 of (band | band>>1 |
    /// band>>2) gathered into nine bits.
    @inline(__always)
    static func occupiedMinirows(_ band: UInt64) -> Int {
        var bits = (band | band >> 1 | band >> 2) & 0x124_9249
        bits = (bits | bits >> 2) & 0x30C_30C3
        bits = (bits | bits >> 4) & 0xF00_F00F
        bits = (bits | bits >> 8) & 0x1_00FF
        bits = (bits | bits >> 8) & 0x1FF
        return Int(bits)
    }

    /// The three bands of a digit's set.
    @inline(__always)
    static func bands(_ low: UInt64, _ high: UInt64) -> (UInt64, UInt64, UInt64) {
        (low & bandMask, (low >> 27) & bandMask, (low >> 54) | (high << 9) & bandMask)
    }

    /// Applies pointing and claiming in every band and stack to one digit's set.
    @inline(__always)
    static func reduce(_ low: UInt64, _ high: UInt64) -> (UInt64, UInt64) {
        var (band0, band1, band2) = bands(low, high)
        band0 &= UInt64(minirowCells[Int(keptMinirows[occupiedMinirows(band0)])])
        band1 &= UInt64(minirowCells[Int(keptMinirows[occupiedMinirows(band1)])])
        band2 &= UInt64(minirowCells[Int(keptMinirows[occupiedMinirows(band2)])])
        // Stacks: which columns each band still uses, three columns of a stack at a time.
        let columns0 = (band0 | band0 >> 9 | band0 >> 18) & 0x1FF
        let columns1 = (band1 | band1 >> 9 | band1 >> 18) & 0x1FF
        let columns2 = (band2 | band2 >> 9 | band2 >> 18) & 0x1FF
        var cleared0: UInt64 = 0, cleared1: UInt64 = 0, cleared2: UInt64 = 0
        for stack in 0..<3 {
            let shift = UInt64(3 * stack)
            let first: UInt64 = (columns0 >> shift) & 7
            let second: UInt64 = ((columns1 >> shift) & 7) << 3
            let third: UInt64 = ((columns2 >> shift) & 7) << 6
            let matrix = Int(first | second | third)
            let removed = UInt64(matrix & ~Int(keptMinirows[matrix]))
            guard removed != 0 else { continue }
            cleared0 |= (removed & 7) << shift
            cleared1 |= ((removed >> 3) & 7) << shift
            cleared2 |= ((removed >> 6) & 7) << shift
        }
        band0 &= ~(cleared0 | cleared0 << 9 | cleared0 << 18)
        band1 &= ~(cleared1 | cleared1 << 9 | cleared1 << 18)
        band2 &= ~(cleared2 | cleared2 << 9 | cleared2 << 18)
        return (band0 | band1 << 27 | (band2 & 0x1FF) << 54, band2 >> 9)
    }
}
