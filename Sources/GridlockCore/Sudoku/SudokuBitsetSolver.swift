// The fast 9x9 solver: digit-major bitsets. For each digit, the set of cells where it may still
// go (81 bits in two words, see SudokuBitsetTables.swift), plus the set of unfilled cells. A
// frame is 20 words; placing digit d at cell c clears c from every digit and c's peers from d.
//
//   naked singles    count candidates per cell for all 81 cells at once with two
//                    accumulators (seen once, seen twice) over the nine digit sets:
//                    unfilled & ~once is a dead cell, unfilled & ~twice are singles
//   hidden singles   a digit's set within a unit has exactly one cell: place it there;
//                    an empty one is a contradiction. Only (digit, unit) pairs changed since
//                    they were last checked are looked at: each placement marks its cell's
//                    three units dirty for the digits it removes, and its peers' units for its
//                    own digit. A node after a guess checks ~25 pairs instead of all 243; the
//                    full scan took 63% of the time (perf) before this.
//   locked           pointing and claiming, per digit, band and stack, through a 512-entry
//   candidates       table (SudokuLockedCandidates.swift), once singles run dry
//   guess            among the cells with two candidates (twice & ~thrice), the one with the
//                    most open and two-candidate peers (more for the guess to propagate to);
//                    else the cell with the fewest candidates
//
// Measured on top95 (docs/benchmarks.md): branching on the first two-candidate cell took 65
// search nodes a puzzle, the peer score 41, locked candidates 12, and 2x the puzzles per
// second. Before the dirty-unit bookkeeping, the full hidden-single scan took 63% of the time.
//
// Against Norvig's cell-major masks this does the naked-single work for all cells in 18 word
// operations per digit instead of one peer walk per elimination. Other sizes go to `norvig`.

public struct SudokuBitsetSolver: PuzzleSolver {
    public let name = "bitset"

    public init() {}

    static let frameWords = 20
    static let unfilledWord = 18

    public func solve(_ puzzle: SudokuPuzzle, options: SolveOptions) -> SolveResult {
        guard puzzle.side == 9 else {
            var result = SudokuNorvigSolver().solve(puzzle, options: options)
            result.solvedBy = "norvig"
            return result
        }
        let frameWords = Self.frameWords
        let frames = UnsafeMutablePointer<UInt64>.allocate(capacity: frameWords * 82)
        defer { frames.deallocate() }
        let dirtyUnits = UnsafeMutablePointer<UInt32>.allocate(capacity: 9)
        defer { dirtyUnits.deallocate() }
        dirtyUnits.initialize(repeating: (1 << 27) - 1, count: 9)
        for digit in 0..<9 {
            frames[digit * 2] = SudokuBitsetTables.allLow
            frames[digit * 2 + 1] = SudokuBitsetTables.allHigh
        }
        frames[Self.unfilledWord] = SudokuBitsetTables.allLow
        frames[Self.unfilledWord + 1] = SudokuBitsetTables.allHigh
        var search = BitsetSearch(tally: SudokuSearchTally(options), dirtyUnits: dirtyUnits)
        var consistent = true
        for cell in 0..<81 where puzzle.cells[cell] != 0 {
            let digit = Int(puzzle.cells[cell]) - 1
            guard search.isCandidate(frames, digit, cell) else {
                consistent = false
                break
            }
            search.place(frames, digit, cell)
        }
        if consistent { search.search(frames) } else { _ = search.tally.enterNode() }
        return search.tally.result(memoryBytes: frameWords * 82 * MemoryLayout<UInt64>.stride)
    }
}

struct BitsetSearch {
    var tally: SudokuSearchTally
    let peers = SudokuBitsetTables.peers
    let units = SudokuBitsetTables.units
    let unfilled = SudokuBitsetSolver.unfilledWord
    /// Per digit, the units whose candidate sets changed since they were last checked for
    /// hidden singles. Empty whenever propagation finished, so frames need not carry it.
    let dirtyUnits: UnsafeMutablePointer<UInt32>
    let unitsOfCell = SudokuBitsetTables.unitsOfCell
    let unitsOfPeers = SudokuBitsetTables.unitsOfPeers

    @inline(__always)
    func isCandidate(_ frame: UnsafeMutablePointer<UInt64>, _ digit: Int, _ cell: Int) -> Bool {
        let (word, bit) = SudokuBitsetTables.position(of: cell)
        return frame[digit * 2 + word] & bit != 0
    }

    @inline(__always)
    mutating func place(_ frame: UnsafeMutablePointer<UInt64>, _ digit: Int, _ cell: Int) {
        let (word, bit) = SudokuBitsetTables.position(of: cell)
        let cellUnits = unitsOfCell[cell]
        for other in 0..<9 {
            let had = frame[other * 2 + word] & bit
            dirtyUnits[other] |= had == 0 ? 0 : cellUnits
            frame[other * 2 + word] &= ~bit
        }
        // The digit leaves the peers that still had it: their units change for it.
        var removed0 = frame[digit * 2] & peers[cell * 2], removed1 = frame[digit * 2 + 1] & peers[cell * 2 + 1]
        var touched: UInt32 = 0
        while removed0 != 0 {
            touched |= unitsOfCell[removed0.trailingZeroBitCount]
            removed0 &= removed0 &- 1
        }
        while removed1 != 0 {
            touched |= unitsOfCell[SudokuBitsetTables.cellsInLowWord + removed1.trailingZeroBitCount]
            removed1 &= removed1 &- 1
        }
        dirtyUnits[digit] |= touched & ~cellUnits
        frame[digit * 2] &= ~peers[cell * 2]
        frame[digit * 2 + 1] &= ~peers[cell * 2 + 1]
        frame[digit * 2 + word] |= bit
        frame[unfilled + word] &= ~bit
        tally.propagations += 1
    }

    /// Places the only digit left at `cell`; false if an earlier placement took it away.
    @inline(__always)
    mutating func placeSingle(_ frame: UnsafeMutablePointer<UInt64>, _ cell: Int) -> Bool {
        for digit in 0..<9 where isCandidate(frame, digit, cell) {
            place(frame, digit, cell)
            return true
        }
        return false
    }

    /// Places singles until none is left; false on a contradiction.
    mutating func propagate(_ frame: UnsafeMutablePointer<UInt64>) -> Bool {
        while true {
            var once0: UInt64 = 0, once1: UInt64 = 0, twice0: UInt64 = 0, twice1: UInt64 = 0
            for digit in 0..<9 {
                let low = frame[digit * 2], high = frame[digit * 2 + 1]
                twice0 |= once0 & low
                twice1 |= once1 & high
                once0 |= low
                once1 |= high
            }
            let open0 = frame[unfilled], open1 = frame[unfilled + 1]
            if open0 & ~once0 != 0 || open1 & ~once1 != 0 { return false }
            var singles0 = open0 & ~twice0, singles1 = open1 & ~twice1
            if singles0 | singles1 != 0 {
                while singles0 != 0 {
                    let cell = singles0.trailingZeroBitCount
                    singles0 &= singles0 &- 1
                    if !placeSingle(frame, cell) { return false }
                }
                while singles1 != 0 {
                    let cell = SudokuBitsetTables.cellsInLowWord + singles1.trailingZeroBitCount
                    singles1 &= singles1 &- 1
                    if !placeSingle(frame, cell) { return false }
                }
                continue
            }
            if open0 | open1 == 0 { return true }
            switch placeHiddenSingles(frame) {
            case .contradiction: return false
            case .placed: continue
            case .none: if !removeLockedCandidates(frame) { return true }
            }
        }
    }

    enum HiddenSingles { case none, placed, contradiction }

    mutating func placeHiddenSingles(_ frame: UnsafeMutablePointer<UInt64>) -> HiddenSingles {
        var placedAny = false
        // Locals, so the loop keeps them in registers: placements write through pointers,
        // which the compiler must otherwise assume can change anything it read from `self`.
        let units = units, dirtyUnits = dirtyUnits, unfilled = unfilled
        for digit in 0..<9 {
            var dirty = dirtyUnits[digit]
            guard dirty != 0 else { continue }
            dirtyUnits[digit] = 0
            var mask0 = frame[digit * 2], mask1 = frame[digit * 2 + 1]
            while dirty != 0 {
                let unit = dirty.trailingZeroBitCount
                dirty &= dirty &- 1
                let low = mask0 & units[unit * 2], high = mask1 & units[unit * 2 + 1]
                if low | high == 0 { return .contradiction }
                // One cell: no word has two bits, and not both words have one.
                guard (low & (low &- 1)) | (high & (high &- 1)) == 0, low == 0 || high == 0,
                      low & frame[unfilled] | high & frame[unfilled + 1] != 0 else { continue }
                let cell = low != 0 ? low.trailingZeroBitCount : SudokuBitsetTables.cellsInLowWord + high.trailingZeroBitCount
                place(frame, digit, cell)
                placedAny = true
                dirty |= dirtyUnits[digit]
                dirtyUnits[digit] = 0
                mask0 = frame[digit * 2]
                mask1 = frame[digit * 2 + 1]
            }
        }
        return placedAny ? .placed : .none
    }

    /// Pointing and claiming for every digit with open cells (SudokuLockedCandidates.swift);
    /// marks the units of removed candidates dirty. Whether anything was removed.
    mutating func removeLockedCandidates(_ frame: UnsafeMutablePointer<UInt64>) -> Bool {
        var changed = false
        let open0 = frame[unfilled], open1 = frame[unfilled + 1]
        for digit in 0..<9 {
            let low = frame[digit * 2], high = frame[digit * 2 + 1]
            guard low & open0 | high & open1 != 0 else { continue }
            let (newLow, newHigh) = SudokuLockedCandidates.reduce(low, high)
            var removed0 = low & ~newLow, removed1 = high & ~newHigh
            guard removed0 | removed1 != 0 else { continue }
            changed = true
            frame[digit * 2] = newLow
            frame[digit * 2 + 1] = newHigh
            while removed0 != 0 {
                dirtyUnits[digit] |= unitsOfCell[removed0.trailingZeroBitCount]
                removed0 &= removed0 &- 1
            }
            while removed1 != 0 {
                dirtyUnits[digit] |= unitsOfCell[SudokuBitsetTables.cellsInLowWord + removed1.trailingZeroBitCount]
                removed1 &= removed1 &- 1
            }
        }
        return changed
    }

    /// The open cell to branch on: the first with two candidates, else one with the fewest.
    func branchCell(_ frame: UnsafeMutablePointer<UInt64>) -> Int {
        var once0: UInt64 = 0, once1: UInt64 = 0, twice0: UInt64 = 0, twice1: UInt64 = 0
        var thrice0: UInt64 = 0, thrice1: UInt64 = 0
        for digit in 0..<9 {
            let low = frame[digit * 2], high = frame[digit * 2 + 1]
            thrice0 |= twice0 & low
            thrice1 |= twice1 & high
            twice0 |= once0 & low
            twice1 |= once1 & high
            once0 |= low
            once1 |= high
        }
        let pairs0 = twice0 & ~thrice0 & frame[unfilled], pairs1 = twice1 & ~thrice1 & frame[unfilled + 1]
        if pairs0 | pairs1 != 0 {
            var best = -1, bestScore = -1
            var p0 = pairs0, p1 = pairs1
            let open0 = frame[unfilled], open1 = frame[unfilled + 1]
            while p0 | p1 != 0 {
                let cell: Int
                if p0 != 0 { cell = p0.trailingZeroBitCount; p0 &= p0 &- 1 } else { cell = 63 + p1.trailingZeroBitCount; p1 &= p1 &- 1 }
                let score = (open0 & peers[cell * 2]).nonzeroBitCount + (open1 & peers[cell * 2 + 1]).nonzeroBitCount + (pairs0 & peers[cell * 2]).nonzeroBitCount + (pairs1 & peers[cell * 2 + 1]).nonzeroBitCount
                if score > bestScore { best = cell; bestScore = score }
            }
            return best
        }
        var best = -1, bestCount = 10
        for cell in 0..<81 {
            let (word, bit) = SudokuBitsetTables.position(of: cell)
            guard frame[unfilled + word] & bit != 0 else { continue }
            var count = 0
            for digit in 0..<9 where frame[digit * 2 + word] & bit != 0 { count += 1 }
            if count < bestCount {
                best = cell
                bestCount = count
            }
        }
        return best
    }

    mutating func search(_ frame: UnsafeMutablePointer<UInt64>) {
        guard tally.enterNode() else { return }
        guard propagate(frame) else {
            // The parent frame was at its fixpoint: nothing is pending when it tries its next digit.
            dirtyUnits.update(repeating: 0, count: 9)
            return
        }
        if frame[unfilled] | frame[unfilled + 1] == 0 {
            let cells = solvedCells(frame)
            tally.found(cells)
            return
        }
        let cell = branchCell(frame)
        let next = frame + SudokuBitsetSolver.frameWords
        for digit in 0..<9 where isCandidate(frame, digit, cell) {
            next.update(from: frame, count: SudokuBitsetSolver.frameWords)
            tally.guesses += 1
            place(next, digit, cell)
            search(next)
            if tally.isDone { return }
        }
    }

    /// The digits of a full frame: each digit's set is exactly its cells.
    func solvedCells(_ frame: UnsafeMutablePointer<UInt64>) -> [UInt8] {
        if tally.firstSolution != nil { return [] }
        var cells = [UInt8](repeating: 0, count: 81)
        for digit in 0..<9 {
            var low = frame[digit * 2], high = frame[digit * 2 + 1]
            while low != 0 {
                cells[low.trailingZeroBitCount] = UInt8(digit + 1)
                low &= low &- 1
            }
            while high != 0 {
                cells[SudokuBitsetTables.cellsInLowWord + high.trailingZeroBitCount] = UInt8(digit + 1)
                high &= high &- 1
            }
        }
        return cells
    }
}
