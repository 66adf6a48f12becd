// `gridlock`'s command tree: parse, wire, run. Everything testable lives in GridlockCore and
// GridlockCluster; the executable only calls `main`.

import ArgumentParser
import Foundation
import GridlockBuildInfo

public struct Gridlock: ParsableCommand {
    public init() {}

    /// A blocked signal mask is inherited through fork and exec: a `solve` started by a parent
    /// that blocks SIGTERM (a test runner's thread did) ignored `kill` and ran on to its own end.
    /// The roles unblocked their two signals already (TerminationSignals); every command now
    /// unblocks SIGINT, SIGTERM and SIGHUP first, before any thread starts (threads inherit the
    /// mask too).
    static func unblockStopSignals() {
        var stop = sigset_t()
        sigemptyset(&stop)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stop, signal) }
        sigprocmask(SIG_UNBLOCK, &stop, nil)
    }

    public static func main() {
        unblockStopSignals()
        PatternDatabaseCache.installLoader()
        SolverPaths.install(environment: ProcessInfo.processInfo.environment)
        if let refusal = ArgumentCheck.refusal(Array(CommandLine.arguments.dropFirst()), known: configuration.subcommands.map { $0._commandName } + ["help"],
            shown: configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }) {
            FileHandle.standardError.write(Data("Error: \(refusal)\n".utf8))
            exit(withError: ExitCode.validationFailure)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch let usage as ValidationError {
            // A usage error found while a subcommand runs shows that subcommand's usage, as a
            // parse error does, not the root's list of subcommands.
            let subcommand = type(of: command)
            let usageLine = usageString(for: subcommand)
            let path = usageLine.split(separator: " ").prefix { !$0.hasPrefix("[") && !$0.hasPrefix("<") }.joined(separator: " ")
            FileHandle.standardError.write(Data("Error: \(usage.message)\nUsage: \(usageLine)\n  See '\(path) --help' for more information.\n".utf8))
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: error)
        }
    }

    public static let configuration = CommandConfiguration(
        abstract: "Solve sliding-block puzzles in batches, fast, with statistics you can trust.",
        discussion: """
            Puzzles are Unblock Me / Rush Hour boards, in any of three formats:
              a database line   23 ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo 58419
              a grid            ..B...        (one row per line, blank line between boards,
                                AAB...>        > or < marks the escape chute)
              JSON              {"width":6,"height":6,"exit":{...},"blocks":[...]}
            and Sudoku (4x4, 9x9, 16x16):
              a line            4.....8.5.3..........7......2...   (81 cells, . or 0 blank)
              a grid            4 . . | . . . | 8 . 5   (one row per line)
              JSON              {"grid":"4.....8.5.3..."}
            and sliding tiles (8-puzzle, 15-puzzle, any WxH from 2x2 to 8x8):
              a line            8 6 7 2 5 4 3 0 1     (0 or _ the blank; 3x2: 1 2 3 4 _ 5)
              Korf's line       1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57
              a grid            one row of numbers per line
              JSON              {"width":3,"height":3,"tiles":[...],"goal":"blank-last"}
            Files may mix them: each puzzle's kind is told from its shape, or set with \
            --kind. Lines starting with // are comments.

            Examples:
              gridlock batch data/samples/unblockme.txt
              gridlock solve 'ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo'
              gridlock solve data/samples/unblockme.txt --show
              gridlock render data/samples/unblockme.txt --line 10 --step 30 -o step30.png
              gridlock solve - --format json < data/samples/unblockme.txt
              gridlock bench data/rushhour/rush_18k.txt --solver bfs,bidirectional
              gridlock batch data/sudoku/top95.txt --solver bitset,norvig
              gridlock hint data/sudoku/top95.txt
              gridlock generate sudoku --count 100 --givens 25 --seed 1
              gridlock solve data/tiles/korf100.txt
              gridlock generate tiles --size 4x4 --moves 40 --count 1000 --seed 7

            Exit status, every command (the highest that applies):
              0   done: every puzzle solved or proved unsolvable; a role stopped cleanly
              1   some input could not be read (it is named, with its line), a file or
                  database could not be used, a resumed batch's input changed, (scan) a
                  digit read in doubt, or (compare --fail-above) a regression
              2   solve, batch, coordinator, bench, render: some job was cut off by a
                  limit or failed; check: a claim of no solution it could not settle
              3   a wrong answer: solve, batch, coordinator, bench (an answer disagrees
                  with the input's), analyze (the analysis disagrees with its MOVES or
                  CLUSTER), render (the solution failed validation), check (it is wrong)
              64  bad usage: an unknown flag, a value out of range, a role with no keys
              130, 143  batch, coordinator: stopped by SIGINT or SIGTERM before the end
            """,
        version: BuildInfo.versionLine + "\n" + SolverPaths.description(environment: ProcessInfo.processInfo.environment),
        subcommands: [
            SolveCommand.self, RenderCommand.self, BatchCommand.self, BenchCommand.self, ReportCommand.self, ExportCommand.self,
            AnalyzeCommand.self, CheckCommand.self, CollectionCommand.self, HintCommand.self, GenerateCommand.self, PatternDatabaseCommand.self,
            CoordinatorCommand.self, WorkerCommand.self, SinkCommand.self, KeyCommand.self, KeysCommand.self, CompareCommand.self, RerunCommand.self, SimulateWorkersCommand.self, PlotCommand.self, ScanCommand.self, SolverVersionCommand.self,
        ]
    )
}
