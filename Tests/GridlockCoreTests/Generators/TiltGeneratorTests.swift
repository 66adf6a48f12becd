// The tilt generator hits its target (checked by solving), reports the analysis it kept the
// board for, and repeats itself from the seed.

import GridlockCore
import Testing

@Suite("Tilt generator")
struct TiltGeneratorTests {
    static func generator() -> TiltGenerator {
        var generator = TiltGenerator(targetMoves: 3)
        generator.width = 4
        generator.height = 4
        generator.colours = 2
        generator.blocks = 4
        return generator
    }

    @Test("each board's best solution has the target length, by bfs and the validator")
    func hitsTarget() throws {
        for index in 0..<4 {
            let found = try #require(Self.generator().puzzle(seed: 3, index: index))
            let result = TiltBFSSolver().solve(found.puzzle, options: SolveOptions())
            #expect(result.moves == 3)
            try TiltSolutionValidator.validate(result.solution, for: found.puzzle)
            #expect(found.analysis.useful + found.analysis.deadEnds == found.analysis.reachable)
            #expect(try TiltPuzzle.parse(found.puzzle.lineText).start == found.puzzle.start)
        }
    }

    @Test("the same seed gives the same boards")
    func reproducible() throws {
        let first = try #require(Self.generator().puzzle(seed: 8, index: 1)).puzzle.lineText
        #expect(try #require(Self.generator().puzzle(seed: 8, index: 1)).puzzle.lineText == first)
    }
}
