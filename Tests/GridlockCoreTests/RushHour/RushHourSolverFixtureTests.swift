// Every solver against the golden corpus: exactly the listed MOVES, and every solution replayed
// by the independent validator.

import GridlockCore
import Testing

@Suite("Rush Hour solvers on the fixtures")
struct RushHourSolverFixtureTests {
    static let solvers: [any PuzzleSolver<RushHourPuzzle>] = RushHourSolvers.all

    @Test("every solver returns the listed optimal moves", arguments: Fixtures.smallFiles, RushHourSolvers.names)
    func listedMoves(file: String, solverName: String) throws {
        let solver = try #require(RushHourSolvers.named(solverName))
        for puzzle in Fixtures.rushHour(file) {
            let result = solver.solve(puzzle, options: SolveOptions())
            try expectOptimal(result, puzzle)
        }
    }

    @Test("bfs and bidirectional agree with the database on a spread of every move count")
    func databaseSpread() throws {
        for puzzle in Fixtures.rushHour(Fixtures.spread) {
            for solver in [RushHourBFSSolver() as any PuzzleSolver<RushHourPuzzle>, RushHourBidirectionalSolver()] {
                try expectOptimal(solver.solve(puzzle, options: SolveOptions()), puzzle)
            }
        }
    }

    @Test("reference agrees with the database on a sample of the spread, and bfs counts its levels alike")
    func referenceOnSpread() throws {
        for (index, puzzle) in Fixtures.rushHour(Fixtures.spread).enumerated() where index % 12 == 0 {
            let reference = RushHourReferenceSolver().solve(puzzle, options: SolveOptions())
            try expectOptimal(reference, puzzle)
            let bfs = RushHourBFSSolver().solve(puzzle, options: SolveOptions())
            RushHourRandomBoardTests.expectSameFinishedLevels(bfs, reference, puzzle)
        }
    }

    @Test("bfs --full explores exactly the listed cluster", arguments: Fixtures.smallFiles + [Fixtures.spread])
    func fullCluster(file: String) {
        for puzzle in Fixtures.rushHour(file) {
            let result = RushHourBFSSolver().solve(puzzle, options: SolveOptions(exploreWholeCluster: true))
            #expect(result.cluster == puzzle.expectedCluster, "\(puzzle.testName)")
            #expect(result.moves ?? -1 == puzzle.expectedMoves, "\(puzzle.testName)")
        }
    }

    private func expectOptimal(_ result: SolveResult, _ puzzle: RushHourPuzzle) throws {
        let expected = try #require(puzzle.expectedMoves)
        if expected < 0 {
            #expect(result.status == .unsolvable, "\(puzzle.testName)")
        } else {
            #expect(result.status == .solved, "\(puzzle.testName)")
            #expect(result.moves == expected, "\(puzzle.testName)")
            #expect(throws: Never.self, "\(puzzle.testName)") {
                try RushHourSolutionValidator.validate(result.solution, for: puzzle)
            }
        }
    }
}
