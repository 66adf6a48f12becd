// Every tile solver against an oracle: the census of the 8-puzzle (a full breadth-first search
// from the goal gives every state's optimal distance), Korf's 1985 node counts, and each other
// on seeded scrambles of the 15-puzzle. Every solution is replayed by the validator.

import GridlockCore
import Testing

@Suite("Tile solvers")
struct TileSolverTests {
    static let goal3x3 = try! TilePuzzle(width: 3, height: 3, tiles: TileGoal.blankLast.tiles(cells: 9))

    @Test("the 8-puzzle census: 181,440 states, 31 moves at most, two states that far")
    func census() {
        let result = TileBFSSolver().solve(Self.goal3x3, options: SolveOptions(exploreWholeCluster: true))
        #expect(result.cluster == 181_440)
        #expect(result.statistics.enqueuedPerLevel.count - 1 == 31)
        #expect(result.statistics.enqueuedPerLevel.last == 2)
        #expect(result.statistics.levelReached == 31)
    }

    @Test("bfs checks its deadline within a level, not only between levels: it stops part way through one")
    func cancelledWithinALevel() {
        // One of the two states 31 moves from the goal: every level is searched before it is found.
        let hardest = try! TilePuzzle(width: 3, height: 3, tiles: [8, 6, 7, 2, 5, 4, 3, 0, 1])
        let census = TileBFSSolver().solve(hardest, options: SolveOptions(exploreWholeCluster: true))
        let wholeLevels = Set(census.statistics.enqueuedPerLevel.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1) })
        // The 16th look: past the first levels' 14 boundaries, inside a level of thousands.
        final class Looks: @unchecked Sendable { var count = 0 }
        let looks = Looks()
        var options = SolveOptions(isCancelled: {
            looks.count += 1
            return looks.count >= 16
        })
        options.stopReason = .timeout
        let result = TileBFSSolver().solve(hardest, options: options)
        #expect(result.status == .cutoff && result.cutoffReason == .timeout)
        #expect(!wholeLevels.contains(result.statistics.statesStored), "stopped at a level's end: \(result.statistics.statesStored)")
        #expect(result.statistics.statesStored < 181_440)
    }

    /// Every 8-puzzle state's optimal distance, from one breadth-first search of the goal's
    /// component (an independent oracle: a plain dictionary, no packed states).
    static let distances: [[UInt8]: Int] = {
        var distance: [[UInt8]: Int] = [goal3x3.tiles: 0]
        var layer = [goal3x3.tiles]
        var depth = 0
        while !layer.isEmpty {
            depth += 1
            var next: [[UInt8]] = []
            for tiles in layer {
                let blank = tiles.firstIndex(of: 0)!
                for neighbour in [blank - 3, blank + 3, blank % 3 > 0 ? blank - 1 : -1, blank % 3 < 2 ? blank + 1 : -1]
                where (0..<9).contains(neighbour) {
                    var child = tiles
                    child.swapAt(blank, neighbour)
                    if distance[child] == nil {
                        distance[child] = depth
                        next.append(child)
                    }
                }
            }
            layer = next
        }
        return distance
    }()

    @Test("all solvers find the optimal length on 1,000 seeded random 8-puzzles", arguments: ["bidirectional", "astar", "idastar", "idastar-md", "idastar-pdb"])
    func randomEightPuzzles(solverName: String) throws {
        let solver = try #require(TileSolvers.named(solverName))
        var random = SplitMix64(seed: 1)
        let generator = TileGenerator(width: 3, height: 3)
        for _ in 0..<1_000 {
            let puzzle = generator.randomSolvable(using: &random)
            let result = solver.solve(puzzle, options: SolveOptions())
            #expect(result.moves == Self.distances[puzzle.tiles], "\(solverName) on \(puzzle.lineText)")
            #expect(throws: Never.self) { try TileSolutionValidator.validate(result.solution, for: puzzle) }
        }
    }

    @Test("bfs agrees with the oracle on a seeded sample of 60")
    func bfsSample() {
        var random = SplitMix64(seed: 1)
        let generator = TileGenerator(width: 3, height: 3)
        for _ in 0..<60 {
            let puzzle = generator.randomSolvable(using: &random)
            let result = TileBFSSolver().solve(puzzle, options: SolveOptions())
            #expect(result.moves == Self.distances[puzzle.tiles])
            #expect(throws: Never.self) { try TileSolutionValidator.validate(result.solution, for: puzzle) }
        }
    }

    @Test("bidirectional, astar, idastar and idastar-md agree on 15-puzzle scrambles up to 40 moves")
    func fifteenScrambles() throws {
        var random = SplitMix64(seed: 7)
        let generator = TileGenerator(width: 4, height: 4)
        for moves in stride(from: 4, through: 40, by: 4) {
            let puzzle = generator.scramble(moves: moves, using: &random)
            let lengths = try ["bidirectional", "astar", "idastar", "idastar-md"].map { name in
                let result = try #require(TileSolvers.named(name)).solve(puzzle, options: SolveOptions())
                try TileSolutionValidator.validate(result.solution, for: puzzle)
                return result.moves
            }
            #expect(Set(lengths).count == 1, "\(puzzle.lineText): \(lengths)")
            #expect((lengths[0] ?? 99) <= moves)
        }
    }

    @Test("idastar-md generates exactly Korf's 1985 node counts (less the root)", arguments: [79, 12])
    func korfNodeCounts(instance: Int) throws {
        let line = Fixtures.text("tiles/korf100.txt").split(separator: "\n").first { $0.hasPrefix("\(instance) ") }!
        let nodes = Fixtures.text("tiles/korf100_ida_md_nodes.txt").split(separator: "\n")
            .first { $0.hasPrefix("\(instance) ") }!.split(separator: " ")[1]
        let puzzle = try TilePuzzle.parse(String(line))
        let result = TileIDAStarSolver(heuristic: .manhattan).solve(puzzle, options: SolveOptions())
        #expect(result.moves == puzzle.expectedMoves)
        #expect(result.statistics.examined + 1 == Int(nodes))
        try TileSolutionValidator.validate(result.solution, for: puzzle)
    }

    @Test("the memory budget stops bidirectional with its reason instead of growing")
    func memoryBudget() {
        var random = SplitMix64(seed: 3)
        let puzzle = TileGenerator(width: 4, height: 4).scramble(moves: 60, using: &random)
        let result = TileBidirectionalSolver().solve(puzzle, options: SolveOptions(memoryBudgetBytes: 4 << 20))
        #expect(result.status == .cutoff)
        #expect(result.cutoffReason == .memoryBudget)
        #expect(result.statistics.memoryBytes <= 4 << 20)
        #expect(result.reason?.contains("depths") == true)
    }

    @Test("the memory budget stops bfs too, naming the last depth it searched in full")
    func bfsMemoryBudget() {
        var random = SplitMix64(seed: 3)
        let puzzle = TileGenerator(width: 4, height: 4).scramble(moves: 60, using: &random)
        let result = TileBFSSolver().solve(puzzle, options: SolveOptions(memoryBudgetBytes: 4 << 20))
        #expect(result.status == .cutoff)
        #expect(result.cutoffReason == .memoryBudget)
        #expect(result.statistics.memoryBytes <= 4 << 20)
        // The last level in the counts is the partial one; the reason names the whole one before it.
        let partial = result.statistics.enqueuedPerLevel.count - 1
        #expect(result.reason?.contains("up to depth \(partial - 1) is known") == true)
    }

    @Test("the validator refuses a wrong move and an unfinished board")
    func validatorNegatives() throws {
        let puzzle = try TilePuzzle.parse("1 2 3 4 5 6 7 0 8")
        let right = TileBFSSolver().solve(puzzle, options: SolveOptions()).solution
        try TileSolutionValidator.validate(right, for: puzzle)
        var wrong = right
        wrong[0].text = "8 right"
        #expect(throws: TileSolutionValidator.Failure.self) { try TileSolutionValidator.validate(wrong, for: puzzle) }
        #expect(throws: TileSolutionValidator.Failure.self) { try TileSolutionValidator.validate([], for: puzzle) }
    }
}
