// The 9x9 bitset solver's geometry: an 81-cell set as two 64-bit words.
//
//   word 0 (lo)  bits 0...62   cells 0...62   rows 1-7
//   word 1 (hi)  bits 0...17   cells 63...80  rows 8-9
//
// No row straddles the two words. Tables are allocated once and never freed, so hot loops read
// them through plain pointers, without the bounds and lazy-initialisation checks of arrays.

enum SudokuBitsetTables {
    /// Cells 0...62 in word 0, the rest in word 1.
    static let cellsInLowWord = 63
    static let allLow: UInt64 = (1 << 63) - 1
    static let allHigh: UInt64 = (1 << 18) - 1

    /// Every cell's peers, two words per cell.
    nonisolated(unsafe) static let peers: UnsafePointer<UInt64> = build(count: 81) { cell, geometry in
        (cell * geometry.peerCount..<(cell + 1) * geometry.peerCount).map { geometry.peers[$0] }
    }

    /// Every unit's cells, two words per unit: rows, then columns, then boxes.
    nonisolated(unsafe) static let units: UnsafePointer<UInt64> = build(count: 27) { unit, geometry in
        Array(geometry.units[(unit * 9)..<((unit + 1) * 9)])
    }

    /// The three units of each cell as a 27-bit set (bit u for unit u).
    nonisolated(unsafe) static let unitsOfCell: UnsafePointer<UInt32> = buildUnitSets { cell, geometry in
        [cell * 3, cell * 3 + 1, cell * 3 + 2].map { geometry.cellUnits[$0] }
    }

    /// The units a placement at the cell can change for its own digit: those of its peers,
    /// less its own three (where the digit is now placed, so nothing is left to find).
    nonisolated(unsafe) static let unitsOfPeers: UnsafePointer<UInt32> = buildUnitSets { cell, geometry in
        let own = (0..<3).map { geometry.cellUnits[cell * 3 + $0] }
        let peerUnits = (0..<geometry.peerCount).flatMap { index in
            (0..<3).map { geometry.cellUnits[geometry.peers[cell * geometry.peerCount + index] * 3 + $0] }
        }
        return peerUnits.filter { !own.contains($0) }
    }

    private static func buildUnitSets(_ units: (Int, SudokuGeometry) -> [Int]) -> UnsafePointer<UInt32> {
        let geometry = SudokuGeometry.forBoxSide(3)
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 81)
        for cell in 0..<81 {
            table[cell] = units(cell, geometry).reduce(0) { $0 | 1 << UInt32($1) }
        }
        return UnsafePointer(table)
    }

    /// The word and bit of a cell.
    @inline(__always)
    static func position(of cell: Int) -> (word: Int, bit: UInt64) {
        cell < cellsInLowWord ? (0, 1 << UInt64(cell)) : (1, 1 << UInt64(cell - cellsInLowWord))
    }

    private static func build(count: Int, cells: (Int, SudokuGeometry) -> [Int]) -> UnsafePointer<UInt64> {
        let geometry = SudokuGeometry.forBoxSide(3)
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: count * 2)
        table.initialize(repeating: 0, count: count * 2)
        for index in 0..<count {
            for cell in cells(index, geometry) {
                let (word, bit) = position(of: cell)
                table[index * 2 + word] |= bit
            }
        }
        return UnsafePointer(table)
    }
}
