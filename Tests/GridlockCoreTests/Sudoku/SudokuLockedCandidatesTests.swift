// The pointing-and-claiming table on the matrices the file's comment draws, and the band
// arithmetic on a digit's 81-cell set.

@testable import GridlockCore
import Testing

@Suite("Sudoku locked candidates")
struct SudokuLockedCandidatesTests {
    /// Bit 3*row + column of the 3x3 minirow matrix.
    static func matrix(_ rows: [String]) -> Int {
        var bits = 0
        for (row, text) in rows.enumerated() {
            for (column, mark) in text.enumerated() where mark == "x" { bits |= 1 << (3 * row + column) }
        }
        return bits
    }

    @Test("claiming and pointing clear what the rules say, to a fixpoint")
    func table() {
        let start = Self.matrix(["x..", "xx.", ".xx"])
        // Row 0 in box 0 only: box 0 loses rows 1-2. Then row 1 is in box 1 only: box 1 loses
        // row 2. Then box 1 and box 0 point at rows 1 and 0, which changes nothing more.
        #expect(Int(SudokuLockedCandidates.keptMinirows[start]) == Self.matrix(["x..", ".x.", "..x"]))
        let free = Self.matrix(["xx.", "x.x", ".xx"])
        #expect(Int(SudokuLockedCandidates.keptMinirows[free]) == free, "no line or box is confined")
    }

    @Test("minirows are read from a band's cells")
    func occupancy() {
        // Row 0 column 4 (box 1), row 2 column 8 (box 2).
        let band: UInt64 = 1 << 4 | 1 << (18 + 8)
        #expect(SudokuLockedCandidates.occupiedMinirows(band) == 1 << 1 | 1 << 8)
    }

    @Test("a digit confined to one row of a box leaves the rest of that row, across the word boundary")
    func pointingInTheLastBand() {
        // Box 7 (rows 6-8, columns 0-2) holds the digit only in row 7; row 7 has it elsewhere too.
        var cells: [Int] = [7 * 9 + 0, 7 * 9 + 1, 7 * 9 + 5, 6 * 9 + 5, 8 * 9 + 8, 6 * 9 + 8]
        cells += [0, 13, 26]
        var low: UInt64 = 0, high: UInt64 = 0
        for cell in cells {
            if cell < 63 { low |= 1 << UInt64(cell) } else { high |= 1 << UInt64(cell - 63) }
        }
        let (newLow, newHigh) = SudokuLockedCandidates.reduce(low, high)
        let rowSevenColumnFive = 7 * 9 + 5 - 63
        #expect(newHigh & (1 << UInt64(rowSevenColumnFive)) == 0, "r8c6 cleared by the pointing box")
        #expect(newHigh & (1 << UInt64(7 * 9 + 1 - 63)) != 0, "the box's own cell r8c2 stays")
        // r8c1 goes too, by the stack rule: box 1 holds the digit only in column 1 (r1c1), so
        // column 1 loses it in the other bands.
        #expect(newHigh & (1 << UInt64(7 * 9 - 63)) == 0)
        #expect(newLow & (1 << 0) != 0)
    }
}
