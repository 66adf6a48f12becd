// Generated puzzles have exactly one solution, by both solvers' counts, and the same seed gives
// the same puzzles.

import GridlockCore
import Testing

@Suite("Sudoku generator")
struct SudokuGeneratorTests {
    static func generate(count: Int, givens: Int, seed: UInt64, boxSide: Int = 3) -> [SudokuPuzzle] {
        var random = SplitMix64(seed: seed)
        let generator = SudokuGenerator(boxSide: boxSide, targetGivens: givens)
        return (0..<count).map { _ in generator.puzzle(using: &random) }
    }

    @Test("every generated puzzle has exactly one solution", arguments: [(3, 25), (3, 30), (2, 6)])
    func unique(boxSide: Int, givens: Int) {
        for puzzle in Self.generate(count: 25, givens: givens, seed: 5, boxSide: boxSide) {
            for solver in SudokuSolvers.all {
                let result = solver.solve(puzzle, options: SolveOptions(solutionLimit: 2))
                #expect(result.solutionCount == 1, "\(solver.name): \(puzzle.lineText)")
            }
        }
    }

    @Test("givens land at the target or just above it")
    func nearTarget() {
        let puzzles = Self.generate(count: 25, givens: 25, seed: 9)
        #expect(puzzles.allSatisfy { (25...27).contains($0.givens) })
        #expect(puzzles.filter { $0.givens == 25 }.count >= 20)
    }

    @Test("the same seed gives the same puzzles, another seed others")
    func seeded() {
        let first = Self.generate(count: 5, givens: 28, seed: 42).map(\.lineText)
        #expect(first == Self.generate(count: 5, givens: 28, seed: 42).map(\.lineText))
        #expect(first != Self.generate(count: 5, givens: 28, seed: 43).map(\.lineText))
        #expect(Set(first).count == 5)
    }
}
