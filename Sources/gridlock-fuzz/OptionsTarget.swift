// The third fuzz target: command lines, as a careless or hostile user types them. An input is
// the arguments after `gridlock`, separated by NUL bytes. Each is parsed and validated as
// `gridlock` does, and its error message and exit status worked out as `gridlock` prints
// them, but no command runs: a number out of range must be a usage error, never a trap while
// parsing, validating or writing the message. Selected with GRIDLOCK_FUZZ_TARGET=options.

import ArgumentParser
import GridlockCommands

enum OptionsTarget {
    static let maximumArguments = 24

    static func run(_ input: [UInt8]) {
        let arguments = input.split(separator: 0, omittingEmptySubsequences: false).prefix(maximumArguments).map {
            String(decoding: $0, as: UTF8.self)
        }
        do {
            _ = try Gridlock.parseAsRoot(arguments)
        } catch {
            _ = Gridlock.fullMessage(for: error)
            _ = Gridlock.exitCode(for: error)
        }
    }

    /// Seeds: the command lines of the README and `--help` examples, and the ones that once
    /// crashed, each subcommand's help among them.
    static let seeds: [[String]] = [
        ["solve", "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo", "--timeout=inf"],
        ["solve", "x", "--memory-budget=1e10"],
        ["solve", "99999999999999999999 1 2 3 4 5 6 7 0", "--kind", "tiles"],
        ["bench", "data/rushhour/rush_18k.txt", "--solver", "bfs,bidirectional", "--limit=-1", "--repeats", "3"],
        ["batch", "data/samples/unblockme.txt", "--workers", "2", "--batch", "name", "--resume-changed"],
        ["batch", "data/sudoku/top95.txt", "--solver", "bitset,norvig", "--max-states", "100", "--timeout", "0.5"],
        ["generate", "rushhour", "--threads", "9223372036854775807", "--count", "5", "--moves", "1000"],
        ["generate", "tilt", "--moves", "65", "--size", "8x8", "--colours", "26", "--blocks", "52"],
        ["generate", "tiles", "--size", "4x4", "--moves", "40", "--count", "1000", "--seed", "7"],
        ["generate", "sudoku", "--count", "100", "--givens", "25", "--seed", "1", "--size", "16x16"],
        ["analyze", "x", "--max-states", "0", "--timeout", "1e300"],
        ["report", "results.sqlite", "--format", "markdown", "--batch", "b"],
        ["export", "results.sqlite", "--format", "csv"],
        ["collection", "list", "c.sqlite", "--kind", "tilt"],
        ["coordinator", "--bind", "tcp://*:5555", "--key-file", "k", "--lease-seconds", "-1"],
        ["worker", "--processes", "0", "--memory-budget", "nan"],
        ["sink", "--db", "r.sqlite", "--bind", "ipc:///tmp/x"],
        ["hint", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", "--help"],
        ["pdb", "build", "--size", "5x5"],
        ["key", "k", "--help"],
        ["--help"],
    ]

    static var seedInputs: [[UInt8]] {
        seeds.map { Array($0.joined(separator: "\u{0}").utf8) }
    }
}
