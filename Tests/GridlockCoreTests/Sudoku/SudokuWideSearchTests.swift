// `bands` compiled for x86-64-v4 (GridlockX86V4) against its portable copy: the same grids,
// nodes, guesses, sweeps and solution counts on every Sudoku fixture. Skipped, and said so, on
// a CPU without x86-64-v4. In a debug build both reach the search through its generic entry
// point; scripts/check-portable compares the release binary's specialized copy.

import GridlockCore
import GridlockX86V4
import Testing

@Suite("bands on x86-64-v4", .enabled(if: CPUFeatures.runsX86V4, "this CPU lacks x86-64-v4"))
struct SudokuWideSearchTests {
    @Test("every fixture, first solutions and counts up to 2 and 200: the same on both copies",
          arguments: Fixtures.sudokuFiles + ["sparse.txt"], [1, 2, 200])
    func sameAnswers(file: String, limit: Int) {
        let options = SolveOptions(solutionLimit: limit)
        for puzzle in Fixtures.sudoku(file) {
            let wide = X86V4Searches.sudokuBands(puzzle, options: options)
            let portable = SudokuBandSolver().search(puzzle, options: options, build: PortableSudokuBands.self)
            #expect(wide.status == portable.status && wide.solutionCount == portable.solutionCount, "\(puzzle.lineText)")
            #expect(wide.solvedPosition == portable.solvedPosition, "\(puzzle.lineText)")
            #expect(wide.statistics == portable.statistics, "\(puzzle.lineText)")
        }
    }
}
