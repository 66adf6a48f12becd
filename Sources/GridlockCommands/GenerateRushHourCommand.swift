// `gridlock generate rushhour`: puzzles of a chosen optimal length, spread over threads.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockClusterBase
import GridlockCore

struct GenerateRushHourCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rushhour",
        abstract: "Generate Rush Hour puzzles whose optimal solution has a chosen length.",
        usage: "gridlock generate rushhour [<options>]",
        discussion: """
            Each puzzle is the hardest state of the cluster of a random legal layout, kept when \
            its optimal length is --moves (or more, with --at-least), as in Fogleman's database. \
            Every output is solved again by bfs, which must agree on the length and the cluster \
            size. 6x6 puzzles print as database lines (MOVES BOARD CLUSTER NAME), other sizes as \
            JSON. The work is spread over --threads; the output depends only on --seed.

            Example:
              gridlock generate rushhour --moves 30 --count 10 --seed 1 > hard.txt
              gridlock solve hard.txt
            """
    )

    @Option(help: "The optimal length to hit.")
    var moves = 20

    @Flag(help: "Accept any length from --moves up.")
    var atLeast = false

    @Option(help: "How many puzzles.")
    var count = 10

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "Fixed 1x1 blocks per layout (0 to 2).")
    var walls = 0

    @Option(help: "The board, WxH (the exit is at the right end of row (H-1)/2, from 0).")
    var size = "6x6"

    @Option(help: "Threads to search with: one per core unless given.")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var effort: GenerateEffort

    /// The most moves any 6x6 board needs, walls or not: Fogleman's census of every 6x6
    /// cluster found 51. A longer target there can never be met.
    static let longest6x6 = 51

    var dimensions: (width: Int, height: Int)? { TileReadOptions.size(size[...]) }

    func validate() throws {
        guard let dimensions, (3...8).contains(dimensions.width), (3...8).contains(dimensions.height) else {
            throw ValidationError("--size is WIDTHxHEIGHT, each from 3 to 8")
        }
        guard (0...2).contains(walls) else { throw ValidationError("--walls is 0, 1 or 2") }
        if dimensions.width == 6, dimensions.height == 6, moves > Self.longest6x6 {
            throw ValidationError("--moves \(moves): no 6x6 board needs more than \(Self.longest6x6) moves (Fogleman's census of every cluster)")
        }
        guard (1...GenerateLimits.count).contains(count), moves >= 1, (1...GenerateLimits.threads).contains(threads) else {
            throw ValidationError("--count must be from 1 to \(GenerateLimits.count), --moves at least 1, --threads from 1 to \(GenerateLimits.threads)")
        }
    }

    func run() throws {
        var generator = RushHourGenerator(targetMoves: moves)
        generator.width = dimensions!.width
        generator.height = dimensions!.height
        generator.walls = walls
        generator.atLeast = atLeast
        let results = Shared<[RushHourGenerator.Found?]>(Array(repeating: nil, count: count))
        let next = Shared(0)
        let clock = ContinuousClock()
        let started = clock.now
        let seed = seed, count = count, generatorForThreads = generator, tries = effort.tries ?? 50_000, timedOut = effort.deadline()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.update { value in defer { value += 1 }; return value }
                guard index < count, !timedOut() else { return }
                let found = generatorForThreads.puzzle(seed: seed, index: index, maxAttempts: tries, isCancelled: timedOut)
                let done = results.update { list in list[index] = found; return list.count { $0 != nil } }
                if StandardError.isTerminal { StandardError.write("\r\u{1B}[Kgenerate: \(done) of \(count)") }
            }
        }
        if StandardError.isTerminal { StandardError.write("\r\u{1B}[K") }
        print("// gridlock generate rushhour --moves \(moves)\(atLeast ? " --at-least" : "") --count \(count) --seed \(seed) --walls \(walls) --size \(size)")
        var attempts = 0
        for (index, found) in results.update({ $0 }).enumerated() {
            guard var found else { throw effort.failure("--moves \(moves)", puzzle: index, tries: tries, timedOut: timedOut()) }
            attempts += found.attempts
            let check = RushHourBFSSolver().solve(found.puzzle, options: SolveOptions(exploreWholeCluster: true))
            guard check.moves == found.moves, check.cluster == found.cluster else {
                throw ValidationError("puzzle \(index + 1) failed its check: bfs says \(check.moves ?? -1) moves, cluster \(check.cluster ?? -1)")
            }
            found.puzzle.expectedMoves = found.moves
            found.puzzle.expectedCluster = found.cluster
            found.puzzle.label = "gen-\(seed)-\(index + 1)"
            if let board = found.puzzle.databaseBoard {
                print("\(found.moves) \(board) \(found.cluster) \(found.puzzle.label!)")
            } else {
                print(found.puzzle.jsonText)
            }
        }
        let seconds = Double(seconds: started.duration(to: clock.now))
        StandardError.write("generate: \(count) puzzles of \(moves)\(atLeast ? "+" : "") moves in \(seconds.milliseconds) on \(threads) threads, \(attempts.grouped) layouts tried, each checked by bfs\n")
    }
}
