// The Sudoku solvers by the names users pick them with; the default (fastest) first.

public enum SudokuSolvers {
    public static let all: [any PuzzleSolver<SudokuPuzzle>] = [SudokuBandSolver(), SudokuBitsetSolver(), SudokuNorvigSolver()]

    public static let names = all.map(\.name)

    public static func named(_ name: String) -> (any PuzzleSolver<SudokuPuzzle>)? {
        all.first { $0.name == name }
    }
}
