// Both Sudoku solvers against Norvig's sets, the independent validator on every answer, and
// solution counts on puzzles with none, one, two and many solutions.

import GridlockCore
import Testing

@Suite("Sudoku solvers")
struct SudokuSolverTests {
    @Test("every puzzle of Norvig's sets is solved and the answer validates", arguments: Fixtures.sudokuFiles, SudokuSolvers.names)
    func solvesNorvigSets(file: String, solverName: String) throws {
        let solver = try #require(SudokuSolvers.named(solverName))
        for puzzle in Fixtures.sudoku(file) {
            let result = solver.solve(puzzle, options: SolveOptions())
            #expect(result.status == .solved, "\(puzzle.lineText)")
            let solution = try #require(result.solvedPosition)
            try SudokuSolutionValidator.validate(solution, for: puzzle)
        }
    }

    @Test("the two solvers find the same unique solution and count exactly one", arguments: Fixtures.sudokuFiles)
    func solversAgreeOnUniqueness(file: String) {
        for puzzle in Fixtures.sudoku(file) {
            let results = SudokuSolvers.all.map { $0.solve(puzzle, options: SolveOptions(solutionLimit: 2)) }
            #expect(results.allSatisfy { $0.solutionCount == 1 && $0.status == .solved }, "\(puzzle.lineText)")
            #expect(Set(results.map(\.solvedPosition)).count == 1)
        }
    }

    /// Row 1 forces a 9 into r1c9, where column 9 already has one: no rule broken by the givens,
    /// yet no solution.
    static let noSolution = "12345678." + "........9" + String(repeating: ".", count: 63)

    @Test("a puzzle whose givens are consistent but have no solution is unsolvable", arguments: SudokuSolvers.names)
    func unsolvable(solverName: String) throws {
        let solver = try #require(SudokuSolvers.named(solverName))
        let result = solver.solve(try SudokuPuzzle.parseLine(Self.noSolution), options: SolveOptions(solutionLimit: 2))
        #expect(result.status == .unsolvable)
        #expect(result.solutionCount == 0)
        #expect(result.solvedPosition == nil)
    }

    @Test("an unsolvable puzzle that needs search to prove it", arguments: SudokuSolvers.names)
    func unsolvableAfterSearch(solverName: String) throws {
        let solver = try #require(SudokuSolvers.named(solverName))
        // A top95 puzzle with one given changed so that this solver's propagation alone cannot
        // see the clash.
        let puzzle = try #require(Self.brokenByOneGiven(Fixtures.sudoku("top95.txt"), solver: solver))
        let result = solver.solve(puzzle, options: SolveOptions(solutionLimit: 2))
        #expect(result.status == .unsolvable)
        #expect((result.statistics.guesses ?? 0) > 0)
    }

    @Test("a unique rectangle left blank gives exactly two solutions", arguments: SudokuSolvers.names)
    func twoSolutions(solverName: String) throws {
        let solver = try #require(SudokuSolvers.named(solverName))
        let puzzle = try #require(Self.puzzleWithTwoSolutions())
        let result = solver.solve(puzzle, options: SolveOptions(solutionLimit: 5))
        #expect(result.solutionCount == 2)
        #expect(result.status == .solved)
    }

    @Test("the empty grid counts up to the limit", arguments: SudokuSolvers.names, [4, 9, 16])
    func manySolutions(solverName: String, side: Int) throws {
        let solver = try #require(SudokuSolvers.named(solverName))
        let puzzle = try SudokuPuzzle(cells: [UInt8](repeating: 0, count: side * side))
        let result = solver.solve(puzzle, options: SolveOptions(solutionLimit: 10))
        #expect(result.solutionCount == 10)
        try SudokuSolutionValidator.validate(try #require(result.solvedPosition), for: puzzle)
    }

    @Test("the step cap cuts a search off instead of answering", arguments: SudokuSolvers.names)
    func stepCap(solverName: String) throws {
        let solver = try #require(SudokuSolvers.named(solverName))
        let hardest = try #require(Fixtures.sudoku("top95.txt").first {
            (solver.solve($0, options: SolveOptions()).statistics.searchNodes ?? 0) > 2
        })
        let nodes = try #require(solver.solve(hardest, options: SolveOptions()).statistics.searchNodes)
        let capped = solver.solve(hardest, options: SolveOptions(maxSteps: nodes - 1))
        #expect(capped.status == .cutoff)
        #expect(capped.cutoffReason == .maxSteps)
        // It stops at the cap, not one node past it.
        #expect(capped.statistics.searchNodes == nodes - 1)
        #expect(solver.solve(hardest, options: SolveOptions(maxSteps: nodes)).status == .solved)
    }

    @Test("statistics count nodes, guesses and propagation steps", arguments: SudokuSolvers.names)
    func statistics(solverName: String) throws {
        let solver = try #require(SudokuSolvers.named(solverName))
        let easy = solver.solve(Fixtures.sudoku("easy50.txt")[0], options: SolveOptions())
        #expect(easy.statistics.searchNodes == 1, "the first easy50 puzzle falls to propagation alone")
        #expect(easy.statistics.guesses == 0)
        #expect((easy.statistics.propagations ?? 0) > 0)
        #expect(easy.moves == nil)
    }

    // MARK: - Making puzzles with known counts

    /// The puzzle's solution with one cell blanked per unit rectangle: two digits a and b on
    /// rows r1, r2 and columns c1, c2, in exactly two boxes, can swap; blanking the four cells
    /// leaves exactly two completions of an otherwise full grid.
    static func puzzleWithTwoSolutions() -> SudokuPuzzle? {
        for source in Fixtures.sudoku("easy50.txt") {
            let solved = SudokuNorvigSolver().solve(source, options: SolveOptions()).solvedPosition!
            let cells = solved.utf8.map { SudokuPuzzle.digit(for: $0)! }
            func at(_ row: Int, _ column: Int) -> UInt8 { cells[row * 9 + column] }
            for r1 in 0..<9 { for r2 in (r1 + 1)..<9 { for c1 in 0..<9 { for c2 in (c1 + 1)..<9 {
                let twoBoxes = (r1 / 3 == r2 / 3) != (c1 / 3 == c2 / 3)
                guard twoBoxes, at(r1, c1) == at(r2, c2), at(r1, c2) == at(r2, c1) else { continue }
                var blanked = cells
                for (row, column) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] { blanked[row * 9 + column] = 0 }
                return try? SudokuPuzzle(cells: blanked)
            } } } }
        }
        return nil
    }

    /// Changes one given to another digit that breaks no rule among the givens, keeping the first
    /// change whose puzzle `solver` needs a guess to refute.
    static func brokenByOneGiven(_ puzzles: [SudokuPuzzle], solver: any PuzzleSolver<SudokuPuzzle>) -> SudokuPuzzle? {
        for puzzle in puzzles {
            if let broken = brokenByOneGiven(puzzle, solver: solver) { return broken }
        }
        return nil
    }

    static func brokenByOneGiven(_ puzzle: SudokuPuzzle, solver: any PuzzleSolver<SudokuPuzzle>) -> SudokuPuzzle? {
        for cell in puzzle.cells.indices where puzzle.cells[cell] != 0 {
            for digit in UInt8(1)...9 where digit != puzzle.cells[cell] {
                var cells = puzzle.cells
                cells[cell] = digit
                guard let changed = try? SudokuPuzzle(cells: cells) else { continue }
                let result = solver.solve(changed, options: SolveOptions())
                if result.status == .unsolvable, (result.statistics.guesses ?? 0) > 0 { return changed }
            }
        }
        return nil
    }
}
