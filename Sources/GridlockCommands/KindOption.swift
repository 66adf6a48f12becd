// `--kind` and `--solver` as every command reads them: the kind is detected from each puzzle
// unless given, and solver names are checked against every kind's solvers.

import ArgumentParser
import GridlockCluster
import GridlockCore

extension PuzzleKind: ExpressibleByArgument {}

/// `--kind`, and how to read tile boards: shared by every command that reads puzzles.
struct PuzzleReadOptions: ParsableArguments {
    @Option(help: KindChoice.help)
    var kind: KindChoice = .auto

    @Option(help: "Tiles: the goal, blank-last (1 2 ... N-1, then the blank) or blank-first (Korf's). Unless given: blank-last, or blank-first for Korf's 100 instances.")
    var goal: TileGoal?

    @Option(help: "Tiles: the board's size as WxH, for lines whose number of tiles is not a square (e.g. --size 3x2).")
    var size: String?

    var puzzleKind: PuzzleKind? { kind.kind }

    var tileOptions: TileReadOptions {
        TileReadOptions(goal: goal, size: size.flatMap { TileReadOptions.size($0[...]) })
    }

    func validate() throws {
        if let size, TileReadOptions.size(size[...]) == nil {
            throw ValidationError("--size is WIDTHxHEIGHT, e.g. 4x4 or 3x2")
        }
    }
}

/// `--max-input-size`: the most of one file (or of standard input) a command that reads its
/// puzzles whole takes. A batch streams its input and has no such cap.
struct InputCapOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The most one puzzle file (or standard input) may hold, with its unit; a larger one is refused as soon as it passes it. 64M unless given; a batch reads any size.",
        valueName: "size"), transform: MemorySize.named("--max-input-size"))
    var maxInputSize: MemorySize?

    var maximumBytes: Int { maxInputSize?.bytes ?? WholeInput.defaultMaximumBytes }
}

/// `--kind auto|rushhour|sudoku|tiles`.
enum KindChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, rushhour, sudoku, tiles, tilt

    var kind: PuzzleKind? { PuzzleKind(rawValue: rawValue) }

    static let help = ArgumentHelp(
        "The puzzle kind: \(allCases.map(\.rawValue).joined(separator: ", ")). auto tells each puzzle's kind from its shape.")
}

/// A comma-separated list of solver names, as `--solver bfs,bidirectional` gives it.
enum SolverList {
    static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    /// Every kind's solvers, for help texts: "rushhour: bfs, bidirectional, reference; sudoku: ...".
    static var catalogue: String {
        PuzzleKind.allCases.map { "\($0.rawValue): \($0.solverNames.joined(separator: ", "))" }.joined(separator: "; ")
    }

    /// The same, a kind a line, indented for a help text's list (80 columns).
    static var catalogueLines: String {
        PuzzleKind.allCases.map { "  \($0.rawValue): \($0.solverNames.joined(separator: ", "))" }.joined(separator: "\n")
    }

    /// Every solver name, for shell completion (`gridlock --generate-completion-script`).
    static var completion: CompletionKind {
        .list(Array(Set(PuzzleKind.allCases.flatMap(\.jobNames))).sorted())
    }

    static func check(_ list: String, kind: PuzzleKind?, external: [ExternalSolver] = []) throws {
        guard !names(list).isEmpty else {
            throw ValidationError("--solver '\(list.printable)' names no solver: give one or more, separated by commas; \(catalogue)")
        }
        // Twice the same solver would run every job twice, under one name: --repeats does that.
        var seen: Set<String> = []
        for name in names(list) where !seen.insert(name).inserted {
            throw ValidationError("--solver names '\(name.printable)' twice: name each solver once (--repeats runs each job more than once)")
        }
        let kinds = kind.map { [$0] } ?? PuzzleKind.allCases
        for name in names(list) where !kinds.contains(where: { $0.runs(name, external: external) }) {
            let outside = external.filter { kinds.contains($0.kind) }.map { "\($0.kind.rawValue):\($0.name)" }
            throw ValidationError(
                "unknown solver '\(name.printable)'; the solvers are \(kind.map { "\($0.rawValue): \($0.solverNames.joined(separator: ", "))" } ?? catalogue)"
                    + (outside.isEmpty ? " (an outside solver is named with --external KIND:NAME=COMMAND)" : "; outside: \(outside.joined(separator: ", "))"))
        }
    }
}
extension TileGoal: ExpressibleByArgument {}
