// The rules of the `bands` solver, each applied to all nine digits at once (one lane each; see
// SudokuBands.swift for the frame). One sweep applies them all; `SudokuBandSearch.propagate`
// sweeps until nothing changes.
//
//   band matching    within a band, each digit's three rows go to three different boxes. A
//                    triad (a row's three cells in one box) can hold the digit only if the
//                    other two rows can still take the other two boxes: a 3x3 matching,
//                    tested for all nine triads with rotations of the band's bits. This is
//                    pointing and claiming, both ways, and the row and box hidden singles too:
//                    after it, a box with one cell leaves its row one cell
//   stack matching   the same across bands: within a stack, the three bands' boxes take the
//                    stack's three columns one each
//   singles          a row with one cell decides it (row and box hidden singles); so does a
//                    column with one cell in all three bands, and a cell with one digit left
//   eliminations     a decided cell leaves its row in its lane, the other digits' lanes, and
//                    its column in the other bands
//
// All of it is shifts, ANDs and ORs on the lanes, with no branch per digit or per cell: the
// work of a sweep does not grow with what changed, and on AVX-512 a band is one register.
// tdoku (Dillon) showed how far vector code takes Sudoku; these rules and this layout are
// our own (its triads are a different representation).

@usableFromInline
enum SudokuBandRules {
    @usableFromInline typealias Masks = SudokuBandMasks

    /// Row r takes the bits of row r+1 (rows of a band, or bands of a stack, in turn).
    @inlinable @inline(__always)
    static func nextRow(_ bits: DigitLanes) -> DigitLanes {
        (bits &>> 9 | bits &<< 18) & Masks.band
    }

    /// Row r takes the bits of row r+2.
    @inlinable @inline(__always)
    static func rowAfterNext(_ bits: DigitLanes) -> DigitLanes {
        (bits &>> 18 | bits &<< 9) & Masks.band
    }

    /// The entries of a 3x3 matrix (rows 9 bits apart) that lie on a perfect matching, given
    /// the matrix with its columns turned by one and by two. Entry (r, c) is kept if (r+1, c+1)
    /// and (r+2, c+2) are set, or (r+1, c+2) and (r+2, c+1).
    @inlinable @inline(__always)
    static func onMatching(_ matrix: DigitLanes, columnsNext: DigitLanes, columnsAfterNext: DigitLanes) -> DigitLanes {
        matrix & (nextRow(columnsNext) & rowAfterNext(columnsAfterNext) | nextRow(columnsAfterNext) & rowAfterNext(columnsNext))
    }

    /// Band matching: keeps the triads on a matching of rows to boxes. Nil when some digit has
    /// no matching left in this band.
    @inlinable @inline(__always)
    static func matchRowsToBoxes(_ band: DigitLanes) -> DigitLanes? {
        let triads = (band | band &>> 1 | band &>> 2) & Masks.triadStarts
        // Triad bits sit 3 apart within a row: box k takes box k+1's (and k+2's) bit.
        let boxesNext = (triads &>> 3 & (0x9 * Masks.rowStarts)) | (triads &<< 6 & (0x40 * Masks.rowStarts))
        let boxesAfterNext = (triads &>> 6 & Masks.rowStarts) | (triads &<< 3 & (0x48 * Masks.rowStarts))
        let kept = onMatching(triads, columnsNext: boxesNext, columnsAfterNext: boxesAfterNext)
        if orAcross(isZero(kept) & Masks.digitLanes) != 0 { return nil }
        return band & (kept | kept &<< 1 | kept &<< 2)
    }

    /// The columns (9 bits) where a band's lanes have a cell.
    @inlinable @inline(__always)
    static func columns(_ band: DigitLanes) -> DigitLanes {
        (band | band &>> 9 | band &>> 18) & Masks.row
    }

    /// Nine column bits copied to all three rows of a band.
    @inlinable @inline(__always)
    static func spread(_ columns: DigitLanes) -> DigitLanes {
        columns | columns &<< 9 | columns &<< 18
    }

    /// Stack matching: within each stack, keeps a band's column only if the other two bands can
    /// take the stack's other two columns.
    @inlinable @inline(__always)
    static func matchBandsToColumns(_ frame: inout SudokuBands) {
        // Rows of this matrix are bands; bit 3s+j of a row is column j of stack s.
        let matrix = columns(frame.top) | columns(frame.middle) &<< 9 | columns(frame.bottom) &<< 18
        let columnsNext = (matrix &>> 1 & (0xDB * Masks.rowStarts)) | (matrix &<< 2 & (0x124 * Masks.rowStarts))
        let columnsAfterNext = (matrix &>> 2 & (0x49 * Masks.rowStarts)) | (matrix &<< 1 & (0x1B6 * Masks.rowStarts))
        let kept = onMatching(matrix, columnsNext: columnsNext, columnsAfterNext: columnsAfterNext)
        frame.top &= spread(kept & Masks.row)
        frame.middle &= spread(kept &>> 9 & Masks.row)
        frame.bottom &= spread(kept &>> 18)
    }

    /// Each row of each lane: all nine bits where the row has two cells or more, else none.
    /// Every row must have a cell (matching guarantees it), so one subtraction serves all three.
    @inlinable @inline(__always)
    static func crowdedRows(_ band: DigitLanes) -> DigitLanes {
        let extra = band & (band &- Masks.rowStarts)
        return rows(holding: extra)
    }

    /// All nine bits of each row of `bits` that has any bit (lanes of 27 bits at most: the third
    /// row is not masked).
    @inlinable @inline(__always)
    static func rows(holding bits: DigitLanes) -> DigitLanes {
        // A row's nine bits plus 0x1FF carry into bit 9 exactly when one is set.
        let first = ((bits & Masks.row) &+ Masks.row) &>> 9
        let second = ((bits &>> 9 & Masks.row) &+ Masks.row) &>> 9
        let third = ((bits &>> 18) &+ Masks.row) &>> 9
        return (0 &- first) & Masks.row | (0 &- second) & (Masks.row << 9) | (0 &- third) & (Masks.row << 18)
    }

    /// 1 in each lane that is zero, else 0 (for lanes of 31 bits or fewer).
    @inlinable @inline(__always)
    static func isZero(_ lanes: DigitLanes) -> DigitLanes {
        ((lanes | (0 &- lanes)) &>> 31) ^ 1
    }

    /// The OR of all sixteen lanes.
    @inlinable @inline(__always)
    static func orAcross(_ lanes: DigitLanes) -> UInt32 {
        let eight = lanes.lowHalf | lanes.highHalf
        let four = eight.lowHalf | eight.highHalf
        let two = four.lowHalf | four.highHalf
        return two[0] | two[1]
    }

    /// Over the nine digit lanes: the cells some lane has, and the cells two or more have.
    @inlinable @inline(__always)
    static func coverage(_ band: DigitLanes) -> (once: UInt32, twice: UInt32) {
        let once8 = band.lowHalf | band.highHalf, twice8 = band.lowHalf & band.highHalf
        let once4 = once8.lowHalf | once8.highHalf
        let twice4 = twice8.lowHalf | twice8.highHalf | once8.lowHalf & once8.highHalf
        let once2 = once4.lowHalf | once4.highHalf
        let twice2 = twice4.lowHalf | twice4.highHalf | once4.lowHalf & once4.highHalf
        return (once2[0] | once2[1], twice2[0] | twice2[1] | once2[0] & once2[1])
    }

    /// Over the nine digit lanes: the cells some lane has, two or more have, three or more have.
    /// For choosing a branch; the same halving as `coverage`, with a third count.
    @inlinable @inline(__always)
    static func coverageToThree(_ band: DigitLanes) -> (once: UInt32, twice: UInt32, thrice: UInt32) {
        let (low8, high8) = (band.lowHalf, band.highHalf)
        let once8 = low8 | high8, twice8 = low8 & high8
        let once4 = once8.lowHalf | once8.highHalf
        let twice4 = twice8.lowHalf | twice8.highHalf | once8.lowHalf & once8.highHalf
        let thrice4 = twice8.lowHalf & once8.highHalf | once8.lowHalf & twice8.highHalf
        let once2 = once4.lowHalf | once4.highHalf
        let twice2 = twice4.lowHalf | twice4.highHalf | once4.lowHalf & once4.highHalf
        let thrice2 = thrice4.lowHalf | thrice4.highHalf | twice4.lowHalf & once4.highHalf | once4.lowHalf & twice4.highHalf
        return (
            once2[0] | once2[1], twice2[0] | twice2[1] | once2[0] & once2[1],
            thrice2[0] | thrice2[1] | twice2[0] & once2[1] | once2[0] & twice2[1]
        )
    }

    /// Per lane, the columns (9 bits) with exactly one cell in the three bands, and whether
    /// every column of every digit still has a cell.
    @inlinable @inline(__always)
    static func loneColumns(_ frame: SudokuBands) -> (lone: DigitLanes, allCovered: Bool) {
        var once = DigitLanes(repeating: 0), twice = DigitLanes(repeating: 0)
        countColumns(of: frame.top, once: &once, twice: &twice)
        countColumns(of: frame.middle, once: &once, twice: &twice)
        countColumns(of: frame.bottom, once: &once, twice: &twice)
        let covered = orAcross((once ^ Masks.row) & (Masks.row &* Masks.digitLanes)) == 0
        return (once & ~twice, covered)
    }

    @inlinable @inline(__always)
    static func countColumns(of band: DigitLanes, once: inout DigitLanes, twice: inout DigitLanes) {
        for shift: UInt32 in stride(from: 0, through: 18, by: 9) {
            let row = band &>> shift & Masks.row
            twice |= once & row
            once |= row
        }
    }
}
