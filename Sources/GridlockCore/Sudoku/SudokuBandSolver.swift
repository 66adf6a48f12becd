// `bands`: the fastest 9x9 solver. Each band of three rows is one vector of nine digit lanes
// (SudokuBands.swift); every rule runs on all nine digits at once (SudokuBandRules.swift), and
// the search sweeps them to a fixpoint before it branches (SudokuBandSearch.swift).
//
// On x86-64-v4 CPUs the search compiled for them (GridlockX86V4) is installed as `wideSearch`
// at start (SolverPaths), where a band is one AVX-512 register; elsewhere the same search runs
// compiled for every x86-64, four SSE2 registers a band. Both give the same answers and counts.
// Other sizes go to `norvig`.
//
// Measured on top95 (docs/benchmarks.md, issue 17's sixth increment), puzzles a second in
// process, parsing included: 160,000-177,000 on x86-64-v4, 94,000 portable, against 78,000-83,000
// for `bitset`, with the same search nodes a puzzle on every fixture (11.8 on top95: its rules
// are bitset's, applied to all digits at once).
// What made it, and what did not:
//   - masks as numbers: `.!=` and `replacing(with:where:)` on SIMD16<UInt32> compiled to a loop
//     through memory, lane by lane; with them the search ran 12,000 puzzles a second. Every mask
//     is now arithmetic (a row's bits plus 0x1FF carry into bit 9 when one is set).
//   - the branch: the first two-digit cell took 23.2 nodes a puzzle, `bitset`'s peer score 11.8
//     (without a two-digit cell, both take the cell with the fewest digits)
//   - two digits decided in one cell are a contradiction, checked in every sweep: without it the
//     peer score chose such a cell, whose branch decided nothing new, and recursed to the end of
//     the stack
//   - lone columns change no node count on top95, but leaving them out was not faster (148,000-
//     152,000 against 156,000), so the rule set stays complete
//   - the branch's counts by halving the lanes instead of reading them one by one: 3% of a
//     whole `solve` on 9,500 Sudokus to under 1%

import Synchronization

public struct SudokuBandSolver: PuzzleSolver {
    public var name: String { "bands" }

    public init() {}

    public func solve(_ puzzle: SudokuPuzzle, options: SolveOptions) -> SolveResult {
        guard puzzle.side == 9 else {
            var result = SudokuNorvigSolver().solve(puzzle, options: options)
            result.solvedBy = "norvig"
            return result
        }
        if let wide = Self.wideSearch.withLock({ $0 }) { return wide.search(puzzle, options) }
        return search(puzzle, options: options, build: PortableSudokuBands.self)
    }

    /// The search compiled for a wider CPU, when one is installed (GridlockX86V4).
    public static let wideSearch = Mutex<InstalledSearch<SudokuPuzzle>?>(nil)

    /// The search of a 9x9 puzzle, in the copy compiled by `Build`'s module.
    @inlinable
    public func search<Build: SudokuBandsBuild>(
        _ puzzle: SudokuPuzzle, options: SolveOptions, build: Build.Type
    ) -> SolveResult {
        precondition(puzzle.side == 9, "the bands search is for 9x9 grids")
        var search = SudokuBandSearch<Build>(tally: SudokuSearchTally(options))
        var frame = SudokuBands()
        // `cells` is a public var: a caller can get past the model's checks, so a digit out of
        // range or a grid of another length is an unsolvable grid here, not a lane out of bounds.
        var consistent = puzzle.cells.count == 81
        for cell in 0..<81 where consistent && puzzle.cells[cell] != 0 {
            let digit = Int(puzzle.cells[cell]) - 1
            // A given whose row already holds the same digit elsewhere: no solution.
            guard digit < 9, frame.allows(digit, at: cell) else {
                consistent = false
                break
            }
            frame.decide(digit, at: cell)
        }
        if consistent { search.search(frame) } else { _ = search.tally.enterNode() }
        return search.tally.result(memoryBytes: MemoryLayout<SudokuBands>.stride * 82)
    }
}
