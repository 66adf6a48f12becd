// `gridlock generate tilt`: boards of a chosen optimal length, with their dead-end share.

import ArgumentParser
import Foundation
import GridlockCore

struct GenerateTiltCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilt",
        abstract: "Generate tilt puzzles whose best solution has a chosen length, with their dead-end share.",
        usage: "gridlock generate tilt [<options>]",
        discussion: """
            Random boards, each analysed whole (gridlock analyze) and kept when its optimal \
            length is --moves. Each line is the board with rows joined by /, then a label with \
            the analysis: moves, reachable states and the share of dead ends (states from which \
            no goal can be reached), the seed author's measure of difficulty.

            Example:
              gridlock generate tilt --colours 3 --blocks 8 --moves 12 --count 5 --seed 1
            """
    )

    @Option(help: "Colours (letters a, b, ...).")
    var colours = 3

    @Option(help: "Blocks in all, dealt to the colours in turn.")
    var blocks = 8

    @Option(help: "The optimal length to hit.")
    var moves = 6

    @Option(help: "How many puzzles.")
    var count = 10

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "The board, WxH, up to 8x8.")
    var size = "6x6"

    @OptionGroup var effort: GenerateEffort

    @OptionGroup var memoryBudget: MemoryBudgetOption

    var dimensions: (width: Int, height: Int)? { TileReadOptions.size(size[...]) }

    func validate() throws {
        guard let dimensions, (2...8).contains(dimensions.width), (2...8).contains(dimensions.height) else {
            throw ValidationError("--size is WIDTHxHEIGHT, each from 2 to 8")
        }
        guard (1...26).contains(colours), blocks >= 2 * colours else {
            throw ValidationError("--colours is 1 to 26, and --blocks at least two per colour")
        }
        guard (1...GenerateLimits.count).contains(count), moves >= 1 else {
            throw ValidationError("--count must be from 1 to \(GenerateLimits.count), --moves at least 1")
        }
    }

    func run() throws {
        var generator = TiltGenerator(targetMoves: moves)
        generator.width = dimensions!.width
        generator.height = dimensions!.height
        generator.colours = colours
        generator.blocks = blocks
        generator.memoryBudgetBytes = memoryBudget.bytes
        print("// gridlock generate tilt --colours \(colours) --blocks \(blocks) --moves \(moves) --count \(count) --seed \(seed) --size \(size)")
        let timedOut = effort.deadline(), tries = effort.tries ?? 1_000
        for index in 0..<count {
            guard let found = generator.puzzle(seed: seed, index: index, maxAttempts: tries, isCancelled: timedOut) else {
                throw effort.failure("--moves \(moves)", puzzle: index, tries: tries, timedOut: timedOut())
            }
            let share = (found.deadEndShare * 100).formatted(decimals: 0)
            print("\(found.puzzle.lineText) gen-\(seed)-\(index + 1):moves=\(moves),reachable=\(found.analysis.reachable),deadEnds=\(share)%")
        }
    }
}
