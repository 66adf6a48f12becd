// Where puzzles come from: arguments that are puzzle text, files, or `-` for standard input.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore

/// One input document and the name it is reported under.
struct PuzzleInput {
    var name: String
    var text: String

    /// Reads each argument: `-` is standard input, an existing path is a file, anything else is
    /// the text of a puzzle.
    static func read(_ arguments: [String]) throws -> [PuzzleInput] {
        var inputs: [PuzzleInput] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "-" {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                inputs.append(PuzzleInput(name: "stdin", text: String(decoding: data, as: UTF8.self)))
            } else if FileManager.default.fileExists(atPath: argument) {
                guard let data = FileManager.default.contents(atPath: argument) else {
                    throw ValidationError("cannot read \(argument)")
                }
                inputs.append(PuzzleInput(name: argument, text: String(decoding: data, as: UTF8.self)))
            } else if looksLikePath(argument) {
                throw ValidationError("no such file: \(argument) (a puzzle given as an argument is one line: a Rush Hour database line, an 81-character Sudoku, tile numbers, a tilt board with rows joined by /, or JSON)")
            } else {
                inputs.append(PuzzleInput(name: "argument \(index + 1)", text: argument))
            }
        }
        return inputs
    }

    /// The same arguments for a batch, which reads its files as it goes.
    static func jobInputs(_ arguments: [String]) throws -> [JobInput] {
        try arguments.enumerated().map { index, argument in
            if argument == "-" { return .standardInput }
            if FileManager.default.fileExists(atPath: argument) { return .file(argument) }
            if looksLikePath(argument) {
                throw ValidationError("no such file: \(argument)")
            }
            return .text(name: "argument \(index + 1)", argument)
        }
    }

    /// A path-like argument that does not exist is a typo, not a puzzle.
    private static func looksLikePath(_ argument: String) -> Bool {
        if argument.hasSuffix(".txt") || argument.hasSuffix(".json") { return true }
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
