// Where puzzles come from: arguments that are puzzle text, files (pictures scanned: ImageInput),
// or `-` for standard input.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockClusterBase
import GridlockCore
import ImageFile

/// One input document and the name it is reported under.
struct PuzzleInput {
    var name: String
    var text: String

    /// Reads each argument: `-` is standard input, an existing path is a file, anything else is
    /// the text of a puzzle. A file or standard input past `maximumBytes`, or binary, is refused.
    static func read(_ arguments: [String], maximumBytes: Int) throws -> [PuzzleInput] {
        var inputs: [PuzzleInput] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "-" {
                inputs.append(PuzzleInput(name: "stdin", text: try whole(STDIN_FILENO, name: "standard input", maximumBytes: maximumBytes)))
            } else if FileManager.default.fileExists(atPath: argument) {
                if let board = try ImageInput.puzzleText(argument) {
                    inputs.append(PuzzleInput(name: argument, text: board))
                    continue
                }
                // Read through a descriptor: FileManager's contents(atPath:) gives nothing for a
                // pipe (`solve <(...)`), whose size is unknown.
                let descriptor = open(argument, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw ValidationError("cannot read \(argument): \(String(cString: strerror(errno)))") }
                defer { close(descriptor) }
                inputs.append(PuzzleInput(name: argument, text: try whole(descriptor, name: argument, maximumBytes: maximumBytes)))
            } else if looksLikePath(argument) {
                try refuseUnreadableName(argument)
                throw ValidationError("no such file: \(argument) (a puzzle given as an argument is one line: a Rush Hour database line, an 81-character Sudoku, tile numbers, a tilt board with rows joined by /, or JSON)")
            } else {
                inputs.append(PuzzleInput(name: "argument \(index + 1)", text: argument))
            }
        }
        return inputs
    }

    /// One input read whole, within the cap; what goes wrong is said as a usage error (exit 64),
    /// as a missing file is.
    private static func whole(_ descriptor: Int32, name: String, maximumBytes: Int) throws -> String {
        do {
            return try WholeInput.read(descriptor: descriptor, name: name, maximumBytes: maximumBytes)
        } catch let error as ClusterError {
            throw ValidationError(error.description)
        }
    }

    /// The same arguments for a batch, which reads its files as it goes.
    static func jobInputs(_ arguments: [String]) throws -> [JobInput] {
        try arguments.enumerated().map { index, argument in
            if argument == "-" { return .standardInput }
            if FileManager.default.fileExists(atPath: argument) {
                // A picture is read whole up front: it is one board, not a stream of them.
                if let board = try ImageInput.puzzleText(argument) { return .text(name: argument, board) }
                return .file(argument)
            }
            if looksLikePath(argument) {
                try refuseUnreadableName(argument)
                throw ValidationError("no such file: \(argument)")
            }
            return .text(name: "argument \(index + 1)", argument)
        }
    }

    /// A name whose bytes are not UTF-8 reaches Swift with U+FFFD in them and can never be
    /// opened: said so, rather than "no such file" beside a file the user can see.
    private static func refuseUnreadableName(_ argument: String) throws {
        guard argument.contains("\u{FFFD}") else { return }
        throw ValidationError("no such file: \(argument): \(SmallFile.missing(argument))")
    }

    /// A path-like argument that does not exist is a typo, not a puzzle.
    private static func looksLikePath(_ argument: String) -> Bool {
        if argument.hasSuffix(".txt") || argument.hasSuffix(".json") || ImageFile.hasImageExtension(argument) { return true }
        // "docs/main" is a tilt board's shape too, but a directory called "docs" says it is a path.
        if let slash = argument.lastIndex(of: "/"), slash != argument.startIndex {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: String(argument[..<slash]), isDirectory: &isDirectory), isDirectory.boolValue { return true }
        }
        if TiltPuzzle.isSingleLineRecord(argument.trimmingCharacters(in: .whitespaces)[...]) { return false }
        return argument.contains("/") && !argument.hasPrefix("{")
    }

    /// Every puzzle record of every input, with where it came from.
    static func records(_ inputs: [PuzzleInput], kind: PuzzleKind?) -> [(record: PuzzleRecord, source: SolveReport.Source)] {
        inputs.flatMap { input in
            PuzzleKind.records(in: input.text, kind: kind).map {
                ($0, SolveReport.Source(file: input.name, line: $0.firstLine))
            }
        }
    }
}

/// Standard error, for progress and warnings: results go to standard output.
extension PuzzleInput {
    /// The one puzzle of a command that takes one (`render`, `check`): the argument's only
    /// puzzle, or in a file of several the one on (or spanning) `line`; and where it came from.
    static func one(from argument: String, line: Int?, kind: PuzzleKind?, maximumBytes: Int) throws -> (record: PuzzleRecord, source: String) {
        let inputs = try read([argument], maximumBytes: maximumBytes)
        let records = records(inputs, kind: kind)
        guard !records.isEmpty else { throw StatusError("no puzzle in \(inputs.first?.name ?? argument)", exitCode: 1) }
        let starts = records.prefix(8).map { String($0.record.firstLine) }.joined(separator: ", ") + (records.count > 8 ? ", ..." : "")
        if let line {
            guard let found = records.first(where: { $0.record.lines.contains { $0.number == line } }) else {
                throw ValidationError("no puzzle on line \(line) of \(inputs[0].name) (its puzzles start on lines \(starts))")
            }
            return (found.record, "\(found.source.file):\(found.record.firstLine)")
        }
        guard records.count == 1 else {
            throw ValidationError("\(inputs[0].name) holds \(records.count) puzzles: pick one with --line (they start on lines \(starts))")
        }
        return (records[0].record, "\(records[0].source.file):\(records[0].record.firstLine)")
    }
}

/// The one puzzle of `render` and `check`: the argument, how to read it, and --line.
struct OnePuzzleOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The puzzle: a file, '-' for standard input, or puzzle text.", valueName: "puzzle"), completion: .file())
    var puzzleArgument: String

    @OptionGroup var reading: PuzzleReadOptions
    @OptionGroup var cap: InputCapOption

    @Option(help: "In a file of several puzzles, the one on (or spanning) this line.")
    var line: Int?

    func validate() throws {
        if let line, line < 1 { throw ValidationError("--line counts from 1") }
    }

    /// The puzzle, read, and where it came from (file:line); unreadable, exit status 1.
    func puzzle() throws -> (ParsedPuzzle, String) {
        let (record, source) = try PuzzleInput.one(from: puzzleArgument, line: line, kind: reading.puzzleKind, maximumBytes: cap.maximumBytes)
        do {
            return (try ParsedPuzzle.parse(record, kind: reading.puzzleKind, tileOptions: reading.tileOptions), source)
        } catch {
            throw StatusError("\(source): \(error.description)", exitCode: 1)
        }
    }
}

/// A command's failure with its exit status (1 unreadable, 2 cut off, 3 wrong), printed as an
/// error without the usage.
struct StatusError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    init(_ description: String, exitCode: Int32) {
        self.description = description
        self.exitCode = exitCode
    }
}

enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// A batch's counts; in red on a terminal when an answer is wrong.
    static func tally(_ tally: BatchTally) {
        let line = "results: \(tally.summary)"
        if tally.wrong > 0, isTerminal {
            write("\u{1B}[1;31m\(line): \(tally.wrong) answers disagree with the input's\u{1B}[0m\n")
        } else {
            write(line + (tally.wrong > 0 ? ": \(tally.wrong) answers disagree with the input's" : "") + "\n")
        }
    }
}
