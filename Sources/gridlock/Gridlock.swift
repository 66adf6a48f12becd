// `gridlock`: parse, wire, run. Everything testable lives in GridlockCore.

import ArgumentParser

@main
struct Gridlock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Solve sliding-block puzzles in batches, fast, with statistics you can trust.",
        discussion: """
            Puzzles are Unblock Me / Rush Hour boards, in any of three formats:
              a database line   23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419
              a grid            ..B...        (one row per line, blank line between boards,
                                AAB...>        > or < marks the escape chute)
              JSON              {"width":6,"height":6,"exit":{...},"blocks":[...]}
            Files may mix them; lines starting with // are comments.

            Examples:
              gridlock batch data/samples/unblockme.txt
              gridlock solve 'ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo'
              gridlock solve data/samples/unblockme.txt --show
              gridlock solve - --format json < boards.txt
              gridlock bench data/rushhour/rush_18k.txt --solver bfs,bidirectional
            """,
        subcommands: [
            SolveCommand.self, BatchCommand.self, BenchCommand.self, ReportCommand.self, ExportCommand.self,
            CoordinatorCommand.self, WorkerCommand.self, SinkCommand.self,
        ]
    )
}
