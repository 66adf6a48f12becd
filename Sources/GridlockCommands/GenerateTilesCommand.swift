// `gridlock generate tiles`: scrambles and uniformly random solvable boards.

import ArgumentParser
import Foundation
import GridlockCore

struct GenerateTilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Generate sliding-tile boards: scrambles of k moves, or uniformly random solvable ones.",
        usage: "gridlock generate tiles [<options>]",
        discussion: """
            A scramble makes --moves random slides from the goal, never undoing the previous \
            one, so its optimal solution is at most that long. Without --moves, each board is \
            uniformly random among those that can reach the goal. The same --seed always gives \
            the same boards; lines carry a WxH: prefix unless the board is square. With \
            --goal blank-first each board is printed as JSON, which records its goal.

            Examples:
              gridlock generate tiles --size 4x4 --moves 40 --count 1000 --seed 7
              gridlock generate tiles --size 3x3 --count 1000 --seed 1 \\
                | gridlock bench - --solver bfs,idastar
            """
    )

    @Option(help: "The board, WxH.")
    var size = "4x4"

    @Option(help: "Random slides from the goal (omit for uniformly random solvable boards).")
    var moves: Int?

    @Option(help: "How many boards.")
    var count = 10

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "The goal: blank-last or blank-first.")
    var goal: TileGoal = .blankLast

    var dimensions: (width: Int, height: Int)? { TileReadOptions.size(size[...]) }

    func validate() throws {
        guard let dimensions, TilePuzzle.sides.contains(dimensions.width), TilePuzzle.sides.contains(dimensions.height) else {
            throw ValidationError("--size is WIDTHxHEIGHT, each from 2 to 8")
        }
        guard (1...GenerateLimits.count).contains(count) else { throw ValidationError("--count must be from 1 to \(GenerateLimits.count)") }
        // A scramble walks --moves slides: past a million it is a uniform board (which no
        // --moves gives faster), and Int.max of them never ended.
        if let moves, !(0...1_000_000).contains(moves) {
            throw ValidationError("--moves must be from 0 to 1000000 (leave it out for uniformly random boards)")
        }
    }

    func run() throws {
        let generator = TileGenerator(width: dimensions!.width, height: dimensions!.height, goal: goal)
        var random = SplitMix64(seed: seed)
        let how = moves.map { " --moves \($0)" } ?? ""
        print("// gridlock generate tiles --size \(size)\(how) --count \(count) --seed \(seed) --goal \(goal.rawValue)")
        for _ in 0..<count {
            let puzzle = moves.map { generator.scramble(moves: $0, using: &random) } ?? generator.randomSolvable(using: &random)
            // A line means the default goal when read back; another goal needs JSON, which says it.
            print(goal == .blankLast ? puzzle.lineText : puzzle.jsonText)
        }
    }
}
