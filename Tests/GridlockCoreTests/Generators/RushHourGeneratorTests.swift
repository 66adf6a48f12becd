// The Rush Hour generator hits its target, verified by an independent solve, and the same
// seed and index give the same puzzle.

import GridlockCore
import Testing

@Suite("Rush Hour generator")
struct RushHourGeneratorTests {
    @Test("each puzzle's optimal length is the target, and it is its cluster's hardest", arguments: [8, 12])
    func hitsTarget(moves: Int) throws {
        let generator = RushHourGenerator(targetMoves: moves)
        for index in 0..<3 {
            let found = try #require(generator.puzzle(seed: 5, index: index))
            let solved = RushHourBFSSolver().solve(found.puzzle, options: SolveOptions(exploreWholeCluster: true))
            #expect(solved.moves == moves)
            #expect(solved.cluster == found.cluster)
            let analysis = try StateSpaceAnalysis.analyze(ParsedPuzzle(found.puzzle), maxStates: 1_000_000).get()
            #expect(analysis.hardest == moves, "no state of the cluster is farther from a goal")
        }
    }

    @Test("the same seed and index give the same puzzle")
    func reproducible() throws {
        let generator = RushHourGenerator(targetMoves: 10)
        let first = try #require(generator.puzzle(seed: 9, index: 2))
        let again = try #require(generator.puzzle(seed: 9, index: 2))
        #expect(first.puzzle.blocks == again.puzzle.blocks)
        let other = try #require(generator.puzzle(seed: 9, index: 3))
        #expect(first.puzzle.blocks != other.puzzle.blocks)
    }
}
