// Norvig's solver ("Solving Every Sudoku Puzzle"), on bitmasks: each cell holds the set of
// digits still possible, one bit per digit.
//
//   assign(c, d)      eliminate every other digit from c
//   eliminate(c, d)   remove d from c; if c is left with one digit, eliminate that digit from
//                     c's peers (naked single); if a unit of c now has one place for d, assign
//                     d there (hidden single); an empty cell or a digit with no place fails
//   search            pick the unfilled cell with the fewest candidates, try each on a copy
//
// Works for every size (4x4, 9x9, 16x16). The copies live in one stack of frames allocated per
// solve, one frame per depth, so the search loop never allocates.

public struct SudokuNorvigSolver: PuzzleSolver {
    public let name = "norvig"

    public init() {}

    public func solve(_ puzzle: SudokuPuzzle, options: SolveOptions) -> SolveResult {
        let geometry = puzzle.geometry
        let frameSize = geometry.cellCount
        let frames = UnsafeMutablePointer<UInt32>.allocate(capacity: frameSize * (frameSize + 1))
        defer { frames.deallocate() }
        var search = NorvigSearch(geometry: geometry, tally: SudokuSearchTally(options))
        let full = UInt32((1 << geometry.side) - 1) << 1
        frames.initialize(repeating: full, count: frameSize)
        var consistent = true
        for cell in 0..<frameSize where puzzle.cells[cell] != 0 && consistent {
            consistent = search.assign(frames, cell, 1 << UInt32(puzzle.cells[cell]))
        }
        if consistent { search.search(frames, depth: 0) } else { _ = search.tally.enterNode() }
        return search.tally.result(memoryBytes: frameSize * (frameSize + 1) * MemoryLayout<UInt32>.stride)
    }
}

/// One solve's state: the geometry's tables and the counters. Frames are passed as pointers.
struct NorvigSearch {
    let geometry: SudokuGeometry
    var tally: SudokuSearchTally

    func isSingle(_ mask: UInt32) -> Bool { mask & (mask &- 1) == 0 }

    mutating func assign(_ values: UnsafeMutablePointer<UInt32>, _ cell: Int, _ digitBit: UInt32) -> Bool {
        var others = values[cell] & ~digitBit
        while others != 0 {
            let bit = others & (0 &- others)
            others &= others &- 1
            if !eliminate(values, cell, bit) { return false }
        }
        return true
    }

    mutating func eliminate(_ values: UnsafeMutablePointer<UInt32>, _ cell: Int, _ digitBit: UInt32) -> Bool {
        guard values[cell] & digitBit != 0 else { return true }
        values[cell] &= ~digitBit
        tally.propagations += 1
        let left = values[cell]
        if left == 0 { return false }
        if isSingle(left) {
            let peerCount = geometry.peerCount
            for index in (cell * peerCount)..<((cell + 1) * peerCount) {
                if !eliminate(values, geometry.peers[index], left) { return false }
            }
        }
        let side = geometry.side
        for unitIndex in (cell * 3)..<(cell * 3 + 3) {
            let unit = geometry.cellUnits[unitIndex]
            var place = -1
            var places = 0
            for index in (unit * side)..<((unit + 1) * side) where values[geometry.units[index]] & digitBit != 0 {
                places += 1
                place = geometry.units[index]
                if places > 1 { break }
            }
            if places == 0 { return false }
            if places == 1, !assign(values, place, digitBit) { return false }
        }
        return true
    }

    mutating func search(_ values: UnsafeMutablePointer<UInt32>, depth: Int) {
        guard tally.enterNode() else { return }
        let cellCount = geometry.cellCount
        var best = -1
        var bestCount = Int.max
        for cell in 0..<cellCount {
            let count = values[cell].nonzeroBitCount
            if count > 1, count < bestCount {
                best = cell
                bestCount = count
                if count == 2 { break }
            }
        }
        guard best >= 0 else {
            let cells = tally.firstSolution == nil ? (0..<cellCount).map { UInt8(values[$0].trailingZeroBitCount) } : []
            tally.found(cells)
            return
        }
        let next = values + cellCount
        var candidates = values[best]
        while candidates != 0, !tally.isDone {
            let bit = candidates & (0 &- candidates)
            candidates &= candidates &- 1
            next.update(from: values, count: cellCount)
            tally.guesses += 1
            if assign(next, best, bit) { search(next, depth: depth + 1) }
        }
    }
}
