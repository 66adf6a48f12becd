// The searches this module compiles for x86-64-v4.
//
// Everything here is built with `-march=x86-64-v4` (Package.swift): none of it may run unless
// `CPUFeatures.runsX86V4` said yes, and that question is asked outside this module, in code
// built for every x86-64 (GridlockCommands' SolverPaths installs these at start). Even a
// `static let` here would run its initializer with these instructions.

import GridlockCore

public enum X86V4Searches {
    /// `bfs` with its window in buckets: the same states, counts and moves as the portable one.
    @Sendable
    public static func rushHourBFS(_ puzzle: RushHourPuzzle, options: SolveOptions) -> SolveResult {
        RushHourBFSSolver().search(puzzle, options: options, window: BucketStateTable.self)
    }

    /// `bidirectional` with its two visited sets in buckets: the same as the portable one.
    @Sendable
    public static func rushHourBidirectional(_ puzzle: RushHourPuzzle, options: SolveOptions) -> SolveResult {
        RushHourBidirectionalSolver().search(puzzle, options: options, table: BucketStateTable.self)
    }
}

/// GridlockX86V4's copy of the `bands` Sudoku search.
public enum X86V4SudokuBands: SudokuBandsBuild {}

extension X86V4Searches {
    /// `bands` with a band in one AVX-512 register: the same answers and counts as the portable one.
    @Sendable
    public static func sudokuBands(_ puzzle: SudokuPuzzle, options: SolveOptions) -> SolveResult {
        SudokuBandSolver().search(puzzle, options: options, build: X86V4SudokuBands.self)
    }
}
