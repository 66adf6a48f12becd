// `gridlock generate`: new puzzles, seeded and reproducible, one per line on standard output.

import ArgumentParser
import Foundation
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
        usage: "gridlock generate sudoku [<options>]",
        discussion: """
            Each puzzle has exactly one solution (counted by the solver) and as close to --givens \
            givens as uniqueness allows: below about 22 on 9x9, most grids cannot go lower, and \
            the generator keeps the closest it finds. The same --seed always gives the same \
            puzzles. The first line is a // comment with the command, which every Gridlock \
            reader skips.

            Example:
              gridlock generate sudoku --count 100 --givens 25 --seed 1 > new.txt
              gridlock solve new.txt --count 2
            """
    )

    @Option(help: "How many puzzles.")
    var count = 10

    @Option(help: "The number of givens to aim at: by default 6 on 4x4, 25 on 9x9, 120 on 16x16 (about as few as most grids allow).")
    var givens: Int?

    /// The target: the user's, or the size's default (a 9x9 default would not fit a 4x4 grid).
    var targetGivens: Int { givens ?? [2: 6, 3: 25, 4: 120][boxSide ?? 3]! }

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "Grid size: 4x4, 9x9 or 16x16.")
    var size = "9x9"

    @Option(help: "Fresh grids to try per puzzle when removal stalls above --givens.")
    var attempts = 20

    var boxSide: Int? { ["4x4": 2, "9x9": 3, "16x16": 4][size] }

    func validate() throws {
        guard let boxSide else { throw ValidationError("--size must be 4x4, 9x9 or 16x16") }
        guard (1...GenerateLimits.count).contains(count) else { throw ValidationError("--count must be from 1 to \(GenerateLimits.count)") }
        guard (0...(boxSide * boxSide * boxSide * boxSide)).contains(targetGivens) else {
            throw ValidationError("--givens must be between 0 and the number of cells (\(boxSide * boxSide * boxSide * boxSide) on \(size))")
        }
        guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1") }
    }

    func run() throws {
        let generator = SudokuGenerator(boxSide: boxSide!, targetGivens: targetGivens, attempts: attempts)
        var random = SplitMix64(seed: seed)
        print("// gridlock generate sudoku --count \(count) --givens \(targetGivens) --seed \(seed) --size \(size)")
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

/// Bounds on what a generator is asked for, checked before anything is allocated for it.
/// How long a searching generator may look: tries a puzzle, and seconds in all.
struct GenerateEffort: ParsableArguments {
    @Option(help: "Boards to try for each puzzle before giving up on it (default: rushhour 50000, about 13 s; tilt 1000, about 9 s, its tries solving bigger spaces). Raise it for rare targets.")
    var tries: Int?

    @Option(help: "Give up after this many seconds in all (default: no limit).")
    var timeout: Double?

    func validate() throws {
        if let tries, !(1...1_000_000_000).contains(tries) { throw ValidationError("--tries must be from 1 to 1000000000") }
        try TimeLimit.check(timeout)
    }

    /// Whether the run's --timeout has passed, for a generator to poll.
    func deadline() -> @Sendable () -> Bool { TimeLimit.deadline(timeout) }

    /// Why puzzle `index` (from 0) was not found, `tries` a puzzle.
    func failure(_ target: String, puzzle index: Int, tries: Int, timedOut: Bool) -> CommandFailure {
        let why = timedOut ? "within --timeout \(timeout ?? 0) s" : "in \(tries) tries (--tries)"
        return CommandFailure("no board met \(target) for puzzle \(index + 1) \(why): raise it, or try fewer moves or another size")
    }
}

enum GenerateLimits {
    /// Puzzles in one run: a list of this many is allocated up front.
    static let count = 10_000_000
    /// Threads: more than a machine could have only waits.
    static let threads = 1_024
}
