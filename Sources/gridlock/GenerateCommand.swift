// `gridlock generate`: new puzzles, seeded and reproducible, one per line on standard output.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate puzzles, seeded and reproducible.",
        subcommands: [GenerateRushHourCommand.self, GenerateSudokuCommand.self, GenerateTilesCommand.self, GenerateTiltCommand.self]
    )
}

struct GenerateSudokuCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sudoku",
        abstract: "Generate Sudoku with exactly one solution.",
        discussion: """
            Each puzzle has exactly one solution (counted by the solver) and as close to --givens
            givens as uniqueness allows: below about 22 on 9x9, most grids cannot go lower, and
            the generator keeps the closest it finds. The same --seed always gives the same
            puzzles. The first line is a // comment with the command, which every Gridlock
            reader skips.

            Example:
              gridlock generate sudoku --count 100 --givens 25 --seed 1 > new.txt
              gridlock solve new.txt --count 2
            """
    )

    @Option(help: "How many puzzles.")
    var count = 10

    @Option(help: "The number of givens to aim at.")
    var givens = 25

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "Grid size: 4x4, 9x9 or 16x16.")
    var size = "9x9"

    @Option(help: "Fresh grids to try per puzzle when removal stalls above --givens.")
    var attempts = 20

    var boxSide: Int? { ["4x4": 2, "9x9": 3, "16x16": 4][size] }

    func validate() throws {
        guard let boxSide else { throw ValidationError("--size must be 4x4, 9x9 or 16x16") }
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        guard (0...(boxSide * boxSide * boxSide * boxSide)).contains(givens) else {
            throw ValidationError("--givens must be between 0 and the number of cells")
        }
        guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1") }
    }

    func run() throws {
        let generator = SudokuGenerator(boxSide: boxSide!, targetGivens: givens, attempts: attempts)
        var random = SplitMix64(seed: seed)
        print("// gridlock generate sudoku --count \(count) --givens \(givens) --seed \(seed) --size \(size)")
        var histogram: [Int: Int] = [:]
        let clock = ContinuousClock()
        let started = clock.now
        for index in 0..<count {
            let puzzle = generator.puzzle(using: &random)
            histogram[puzzle.givens, default: 0] += 1
            print(puzzle.lineText)
            if StandardError.isTerminal {
                StandardError.write("\r\u{1B}[Kgenerate: \(index + 1) of \(count)")
            }
        }
        let seconds = Double(seconds: started.duration(to: clock.now))
        let spread = histogram.sorted { $0.key < $1.key }.map { "\($0.key) givens ×\($0.value)" }.joined(separator: ", ")
        if StandardError.isTerminal { StandardError.write("\r\u{1B}[K") }
        StandardError.write("generate: \(count) puzzles in \(seconds.milliseconds), each with one solution: \(spread)\n")
    }
}

struct GenerateTilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Generate sliding-tile boards: scrambles of k moves, or uniformly random solvable ones.",
        discussion: """
            A scramble makes --moves random slides from the goal, never undoing the previous
            one, so its optimal solution is at most that long. Without --moves, each board is
            uniformly random among those that can reach the goal. The same --seed always gives
            the same boards; lines carry a WxH: prefix unless the board is square. With
            --goal blank-first each board is printed as JSON, which records its goal.

            Examples:
              gridlock generate tiles --size 4x4 --moves 40 --count 1000 --seed 7
              gridlock generate tiles --size 3x3 --count 1000 --seed 1 | gridlock bench - --solver bfs,idastar
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
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        if let moves, moves < 0 { throw ValidationError("--moves cannot be negative") }
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

struct GenerateRushHourCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rushhour",
        abstract: "Generate Rush Hour puzzles whose optimal solution has a chosen length.",
        discussion: """
            Each puzzle is the hardest state of the cluster of a random legal layout, kept when
            its optimal length is --moves (or more, with --at-least), as in Fogleman's database.
            Every output is solved again by bfs, which must agree on the length and the cluster
            size. 6x6 puzzles print as database lines (MOVES BOARD CLUSTER NAME), other sizes as
            JSON. The work is spread over --threads; the output depends only on --seed.

            Example:
              gridlock generate rushhour --moves 30 --count 100 --seed 1 > hard.txt
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

    @Option(help: "Threads to search with (default: one per core).")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    var dimensions: (width: Int, height: Int)? { TileReadOptions.size(size[...]) }

    func validate() throws {
        guard let dimensions, (3...8).contains(dimensions.width), (3...8).contains(dimensions.height) else {
            throw ValidationError("--size is WIDTHxHEIGHT, each from 3 to 8")
        }
        guard (0...2).contains(walls) else { throw ValidationError("--walls is 0, 1 or 2") }
        guard count >= 1, moves >= 1, threads >= 1 else { throw ValidationError("--count, --moves and --threads must be at least 1") }
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
        let seed = seed, count = count, generatorForThreads = generator
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.update { value in defer { value += 1 }; return value }
                guard index < count else { return }
                let found = generatorForThreads.puzzle(seed: seed, index: index)
                let done = results.update { list in list[index] = found; return list.count { $0 != nil } }
                if StandardError.isTerminal { StandardError.write("\r\u{1B}[Kgenerate: \(done) of \(count)") }
            }
        }
        if StandardError.isTerminal { StandardError.write("\r\u{1B}[K") }
        print("// gridlock generate rushhour --moves \(moves)\(atLeast ? " --at-least" : "") --count \(count) --seed \(seed) --walls \(walls) --size \(size)")
        var attempts = 0
        for (index, found) in results.update({ $0 }).enumerated() {
            guard var found else { throw ValidationError("no layout met the target for puzzle \(index + 1)") }
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

struct GenerateTiltCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilt",
        abstract: "Generate tilt puzzles whose best solution has a chosen length, with their dead-end share.",
        discussion: """
            Random boards, each analysed whole (gridlock analyze) and kept when its optimal
            length is --moves. Each line is the board with rows joined by /, then a label with
            the analysis: moves, reachable states and the share of dead ends (states from which
            no goal can be reached), the seed author's measure of difficulty.

            Example:
              gridlock generate tilt --colours 3 --blocks 8 --moves 12 --count 50 --seed 1
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

    var dimensions: (width: Int, height: Int)? { TileReadOptions.size(size[...]) }

    func validate() throws {
        guard let dimensions, (2...8).contains(dimensions.width), (2...8).contains(dimensions.height) else {
            throw ValidationError("--size is WIDTHxHEIGHT, each from 2 to 8")
        }
        guard (1...26).contains(colours), blocks >= 2 * colours else {
            throw ValidationError("--colours is 1 to 26, and --blocks at least two per colour")
        }
        guard count >= 1, moves >= 1 else { throw ValidationError("--count and --moves must be at least 1") }
    }

    func run() throws {
        var generator = TiltGenerator(targetMoves: moves)
        generator.width = dimensions!.width
        generator.height = dimensions!.height
        generator.colours = colours
        generator.blocks = blocks
        print("// gridlock generate tilt --colours \(colours) --blocks \(blocks) --moves \(moves) --count \(count) --seed \(seed) --size \(size)")
        for index in 0..<count {
            guard let found = generator.puzzle(seed: seed, index: index) else {
                throw ValidationError("no board met --moves \(moves) for puzzle \(index + 1) in 200,000 tries: try fewer moves or another size")
            }
            let share = (found.deadEndShare * 100).formatted(decimals: 0)
            print("\(found.puzzle.lineText) gen-\(seed)-\(index + 1):moves=\(moves),reachable=\(found.analysis.reachable),deadEnds=\(share)%")
        }
    }
}
