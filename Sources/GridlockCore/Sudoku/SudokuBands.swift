// The frame of the `bands` solver: a 9x9 Sudoku's candidates as three bands of nine digit lanes.
//
//   band 0 (rows 1-3)   lane d: the cells where digit d+1 may still go, 27 bits,
//   band 1 (rows 4-6)           bit 9*row + column (row 0-2 within the band, column 0-8)
//   band 2 (rows 7-9)   lanes 9-15: zero, always
//
// A digit's lane in a band keeps the cell it was placed in: a row of a lane with one bit is a
// decided cell, which no rule takes away while the frame can still be solved (in a frame that
// cannot, the stack matching may empty it, and the next sweep's band matching says so). In
// every solution each row of each lane holds exactly one bit, which is what the rules in
// SudokuBandRules.swift lean on. Sixteen lanes of 32 bits are one AVX-512 register, or four SSE2 ones.

@usableFromInline typealias DigitLanes = SIMD16<UInt32>

@usableFromInline
struct SudokuBands {
    @usableFromInline var top: DigitLanes
    @usableFromInline var middle: DigitLanes
    @usableFromInline var bottom: DigitLanes

    /// Every digit possible everywhere.
    @inlinable
    init() {
        let open = SudokuBandMasks.band &* SudokuBandMasks.digitLanes
        top = open
        middle = open
        bottom = open
    }

    @inlinable
    subscript(band: Int) -> DigitLanes {
        get {
            switch band {
            case 0: top
            case 1: middle
            default: bottom
            }
        }
        set {
            switch band {
            case 0: top = newValue
            case 1: middle = newValue
            default: bottom = newValue
            }
        }
    }

    /// Whether `digit` (0-8) may still go at `cell` (0-80, row by row).
    @inlinable @inline(__always)
    func allows(_ digit: Int, at cell: Int) -> Bool {
        self[cell / 27][digit] & (1 << UInt32(cell % 27)) != 0
    }

    /// Puts `digit` at `cell`: the cell becomes the only one of its row in the digit's lane.
    /// The rules take it from there (the other digits, the box, the column).
    @inlinable @inline(__always)
    mutating func decide(_ digit: Int, at cell: Int) {
        let bit = UInt32(cell % 27)
        let row = bit / 9
        self[cell / 27][digit] = self[cell / 27][digit] & ~(SudokuBandMasks.row << (9 * row)) | 1 << bit
    }

    /// Takes `digit` away from `cell`.
    @inlinable
    mutating func remove(_ digit: Int, at cell: Int) {
        self[cell / 27][digit] &= ~(1 << UInt32(cell % 27))
    }

    /// The grid of a frame whose every row of every lane holds one bit: digits 1-9, row by row.
    @usableFromInline
    func cells() -> [UInt8] {
        var cells = [UInt8](repeating: 0, count: 81)
        for band in 0..<3 {
            let lanes = self[band]
            for digit in 0..<9 {
                var bits = lanes[digit]
                while bits != 0 {
                    cells[band * 27 + bits.trailingZeroBitCount] = UInt8(digit + 1)
                    bits &= bits &- 1
                }
            }
        }
        return cells
    }
}

/// The bit patterns of a band's 27 bits (bit 9*row + column).
@usableFromInline
enum SudokuBandMasks {
    @inlinable static var band: UInt32 { 0x7FF_FFFF }
    @inlinable static var row: UInt32 { 0x1FF }
    /// Bit 0 of each row: subtracting it takes one from each row at once.
    @inlinable static var rowStarts: UInt32 { 0x40201 }
    /// The first cell of each triad (a row's three cells within one box): bits 0, 3, 6 of each row.
    @inlinable static var triadStarts: UInt32 { 0x49 * rowStarts }
    /// 1 in the nine digit lanes, 0 in the padding. Masks are numbers, not `SIMDMask`s: Swift
    /// compiled `.!=` and `replacing(with:where:)` on these lanes to a loop through memory.
    @inlinable static var digitLanes: DigitLanes { DigitLanes(1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0) }
}
