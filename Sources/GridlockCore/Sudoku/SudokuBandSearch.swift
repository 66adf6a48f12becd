// The search of the `bands` solver: sweep the rules (SudokuBandRules.swift) until they settle,
// then branch on a cell with the fewest digits left (two, almost always), each child a copy of
// the frame with one digit decided. A frame is three registers' worth (192 bytes): copying it
// is cheaper than undoing.
//
// Generic over `Build` only so that each module naming its own build type compiles its own copy
// (GridlockX86V4's, for x86-64-v4); the copies are the same code.

/// A compiled copy of the `bands` search; see `SudokuBandSolver.search`.
public protocol SudokuBandsBuild {}

/// The copy compiled with the rest of GridlockCore, for every x86-64 (and other CPUs).
public enum PortableSudokuBands: SudokuBandsBuild {}

@usableFromInline
enum SudokuBandSweep { case contradiction, solved, changed, settled }

@usableFromInline
struct SudokuBandSearch<Build: SudokuBandsBuild> {
    @usableFromInline typealias Rules = SudokuBandRules
    @usableFromInline typealias Masks = SudokuBandMasks
    @usableFromInline var tally: SudokuSearchTally

    @inlinable
    init(tally: SudokuSearchTally) {
        self.tally = tally
    }

    @inlinable
    mutating func search(_ frame: SudokuBands) {
        guard tally.enterNode() else { return }
        var frame = frame
        switch propagate(&frame) {
        case .contradiction: return
        case .solved:
            tally.found(tally.firstSolution == nil ? frame.cells() : [])
            return
        case .changed, .settled:
            guard let cell = Self.branchCell(frame) else { return }
            for digit in 0..<9 where frame.allows(digit, at: cell) {
                var child = frame
                child.decide(digit, at: cell)
                tally.guesses += 1
                search(child)
                if tally.isDone { return }
            }
        }
    }

    /// Sweeps until the frame is solved, contradicts itself, or stops changing.
    @inlinable
    mutating func propagate(_ frame: inout SudokuBands) -> SudokuBandSweep {
        while true {
            tally.propagations += 1
            let outcome = Self.sweep(&frame)
            if outcome != .changed { return outcome }
        }
    }

    /// One pass of every rule over the whole frame.
    @inlinable @inline(__always)
    static func sweep(_ frame: inout SudokuBands) -> SudokuBandSweep {
        let before = frame
        guard let top = Rules.matchRowsToBoxes(frame.top), let middle = Rules.matchRowsToBoxes(frame.middle),
              let bottom = Rules.matchRowsToBoxes(frame.bottom) else { return .contradiction }
        // Every row has a cell now, as crowdedRows needs.
        let crowdedTop = Rules.crowdedRows(top), crowdedMiddle = Rules.crowdedRows(middle)
        let crowdedBottom = Rules.crowdedRows(bottom)
        frame = SudokuBands(top: top, middle: middle, bottom: bottom)
        if Rules.orAcross(crowdedTop | crowdedMiddle | crowdedBottom) == 0 { return verdictOnFullGrid(frame) }

        Rules.matchBandsToColumns(&frame)
        let (loneColumns, columnsCovered) = Rules.loneColumns(frame)
        guard columnsCovered else { return .contradiction }
        let loneCells = Rules.spread(loneColumns)
        guard let decidedTop = decided(frame.top, crowded: crowdedTop, loneCells: loneCells),
              let decidedMiddle = decided(frame.middle, crowded: crowdedMiddle, loneCells: loneCells),
              let decidedBottom = decided(frame.bottom, crowded: crowdedBottom, loneCells: loneCells)
        else { return .contradiction }

        // Two digits decided in one cell: no solution. Left alone, neither would leave the cell,
        // and a branch on it would decide nothing new.
        let (cellsTop, clashTop) = Rules.coverage(decidedTop), (cellsMiddle, clashMiddle) = Rules.coverage(decidedMiddle)
        let (cellsBottom, clashBottom) = Rules.coverage(decidedBottom)
        guard clashTop | clashMiddle | clashBottom == 0 else { return .contradiction }
        let decidedColumns = Rules.spread(
            Rules.columns(decidedTop) | Rules.columns(decidedMiddle) | Rules.columns(decidedBottom))
        frame.top = eliminate(around: decidedTop, cells: cellsTop, in: frame.top, decidedColumns: decidedColumns)
        frame.middle = eliminate(around: decidedMiddle, cells: cellsMiddle, in: frame.middle, decidedColumns: decidedColumns)
        frame.bottom = eliminate(around: decidedBottom, cells: cellsBottom, in: frame.bottom, decidedColumns: decidedColumns)
        let changes = (frame.top ^ before.top) | (frame.middle ^ before.middle) | (frame.bottom ^ before.bottom)
        return Rules.orAcross(changes) != 0 ? .changed : .settled
    }

    /// The cells of a band decided now: each lane's lone rows (as they were before the stack
    /// matching, which may only have emptied them), its lone columns, and the cells where its
    /// digit is the only one left. Nil when a cell has no digit left.
    @inlinable @inline(__always)
    static func decided(_ band: DigitLanes, crowded: DigitLanes, loneCells: DigitLanes) -> DigitLanes? {
        let (once, twice) = Rules.coverage(band)
        guard once == Masks.band else { return nil }
        return band & (~crowded | loneCells | DigitLanes(repeating: once & ~twice))
    }

    /// A band after its decided cells (`cells`, in any lane) leave their rows (in their lane),
    /// their cells (in the other lanes) and their columns (in every band, in their lane).
    @inlinable @inline(__always)
    static func eliminate(
        around decided: DigitLanes, cells: UInt32, in band: DigitLanes, decidedColumns: DigitLanes
    ) -> DigitLanes {
        band & ~Rules.rows(holding: decided) & ~DigitLanes(repeating: cells) & ~decidedColumns | decided
    }

    /// Every row of every lane holds one cell: a solution if no two digits share a cell and
    /// no digit repeats in a column (the band matching already keeps boxes apart).
    @inlinable
    static func verdictOnFullGrid(_ frame: SudokuBands) -> SudokuBandSweep {
        guard Rules.coverage(frame.top).once == Masks.band, Rules.coverage(frame.middle).once == Masks.band,
              Rules.coverage(frame.bottom).once == Masks.band, Rules.loneColumns(frame).allCovered
        else { return .contradiction }
        return .solved
    }

    /// The cell to branch on: of the cells with two digits left, the one with the most open
    /// and two-digit peers (the most for the guess to propagate to); else the first cell with
    /// the fewest digits. Nil when every cell is down to one digit, which in a frame not solved
    /// is a contradiction.
    @inlinable
    static func branchCell(_ frame: SudokuBands) -> Int? {
        // Per band (lane 3 unused): the cells with two digits or more, and those with exactly two.
        var open = SIMD4<UInt32>(), pairs = SIMD4<UInt32>()
        for band in 0..<3 {
            let (_, twice, thrice) = Rules.coverageToThree(frame[band])
            open[band] = twice
            pairs[band] = twice & ~thrice
        }
        guard pairs != .zero else { return fewestDigitsCell(frame, open: open) }
        var best = -1, bestScore = -1
        for band in 0..<3 {
            var candidates = pairs[band]
            while candidates != 0 {
                let bit = candidates.trailingZeroBitCount
                candidates &= candidates &- 1
                let column = (1 as UInt32) << UInt32(bit % 9) &* Masks.rowStarts
                let box = (0x7 as UInt32) << UInt32(bit % 9 / 3 * 3) &* Masks.rowStarts
                let line = Masks.row << UInt32(bit / 9 * 9)
                var score = 0
                for other in 0..<3 {
                    let peers = other == band ? column | box | line : column
                    score += (open[other] & peers).nonzeroBitCount + (pairs[other] & peers).nonzeroBitCount
                }
                if score > bestScore {
                    best = band * 27 + bit
                    bestScore = score
                }
            }
        }
        return best
    }

    /// The first open cell with the fewest digits left, where no cell is down to two (rare: 2
    /// of 634 branches on top95 and hardest), as `bitset` chooses.
    @inlinable
    static func fewestDigitsCell(_ frame: SudokuBands, open: SIMD4<UInt32>) -> Int? {
        var best: Int?, fewest: UInt32 = .max
        for band in 0..<3 {
            var cells = open[band]
            let lanes = frame[band]
            while cells != 0 {
                let bit = UInt32(cells.trailingZeroBitCount)
                cells &= cells &- 1
                let digits = (lanes &>> bit & 1).wrappedSum()
                if digits < fewest {
                    best = band * 27 + Int(bit)
                    fewest = digits
                }
            }
        }
        return best
    }
}

extension SudokuBands {
    @inlinable
    init(top: DigitLanes, middle: DigitLanes, bottom: DigitLanes) {
        self.top = top
        self.middle = middle
        self.bottom = bottom
    }
}
