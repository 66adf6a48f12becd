// `gridlock`: parse, wire, run. Everything testable lives in GridlockCore.

import ArgumentParser

@main
struct Gridlock: ParsableCommand {
    static func main() {
        PatternDatabaseCache.installLoader()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        abstract: "Solve sliding-block puzzles in batches, fast, with statistics you can trust.",
        discussion: """
            Puzzles are Unblock Me / Rush Hour boards, in any of three formats:
              a database line   23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419
              a grid            ..B...        (one row per line, blank line between boards,
                                AAB...>        > or < marks the escape chute)
              JSON              {"width":6,"height":6,"exit":{...},"blocks":[...]}
            and Sudoku (4x4, 9x9, 16x16):
              a line            4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
              a grid            4 . . | . . . | 8 . 5   (one row per line; spaces, | - + ignored)
              JSON              {"grid":"4.....8.5.3..."}
            Files may mix them (each puzzle's kind is told from its shape, or set with --kind);
            lines starting with // are comments.

            Examples:
              gridlock batch data/samples/unblockme.txt
              gridlock solve 'ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo'
              gridlock solve data/samples/unblockme.txt --show
              gridlock solve - --format json < boards.txt
              gridlock bench data/rushhour/rush_18k.txt --solver bfs,bidirectional
              gridlock batch data/sudoku/top95.txt --solver bitset,norvig
              gridlock hint '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'
              gridlock generate sudoku --count 100 --givens 25 --seed 1
            """,
        subcommands: [
            SolveCommand.self, BatchCommand.self, BenchCommand.self, ReportCommand.self, ExportCommand.self,
            HintCommand.self, GenerateCommand.self, PatternDatabaseCommand.self,
            CoordinatorCommand.self, WorkerCommand.self, SinkCommand.self,
        ]
    )
}
