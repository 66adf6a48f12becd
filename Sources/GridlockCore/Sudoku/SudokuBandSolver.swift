// `bands`: the fastest 9x9 solver. Each band of three rows is one vector of nine digit lanes
// (SudokuBands.swift); every rule runs on all nine digits at once (SudokuBandRules.swift), and
// the search sweeps them to a fixpoint before it branches (SudokuBandSearch.swift).
//
// On x86-64-v4 CPUs the search compiled for them (GridlockX86V4) is installed as `wideSearch`
// at start (SolverPaths), where a band is one AVX-512 register; elsewhere the same search runs
// compiled for every x86-64, four SSE2 registers a band. Both give the same answers and counts.
// Other sizes go to `norvig`.

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
        var consistent = true
        for cell in 0..<81 where puzzle.cells[cell] != 0 {
            let digit = Int(puzzle.cells[cell]) - 1
            // A given whose row already holds the same digit elsewhere: no solution.
            guard frame.allows(digit, at: cell) else {
                consistent = false
                break
            }
            frame.decide(digit, at: cell)
        }
        if consistent { search.search(frame) } else { _ = search.tally.enterNode() }
        return search.tally.result(memoryBytes: MemoryLayout<SudokuBands>.stride * 82)
    }
}
