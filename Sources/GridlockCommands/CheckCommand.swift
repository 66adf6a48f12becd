// `gridlock check PUZZLE ANSWER`: an answer from anywhere, judged by Gridlock's validators.
// Reads the flags and the two texts, asks the pure AnswerCheck, prints, and exits 0 or 3.

import ArgumentParser
import Foundation
import GridlockCore

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check an answer from anywhere: legal moves that solve the puzzle, or a true claim of no solution.",
        usage: "gridlock check <puzzle> <answer> [<options>]",
        discussion: """
            ANSWER is one JSON object, as an outside solver prints it: \
            {"status":"solved","moves":["B down 2","A right 3"]}, or {"status":"unsolvable"}. \
            The moves are written as solve writes them: Rush Hour "BLOCK DIRECTION COUNT", \
            tiles "TILE DIRECTION" (the tile slides into the blank), tilt a direction (north, \
            east, south, west). A Sudoku's answer is its filled grid: \
            {"status":"solved","moves":["81 digits"]}. The output of solve --format json \
            (its "solution") is read too. ANSWER is the JSON itself, a file holding it, or - \
            for standard input. Each move is replayed by the kind's validator, which shares no \
            code with the solvers; a claim of no solution is checked by solving the puzzle with \
            the kind's default solver.

            Examples:
              gridlock check 'ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo' \\
                '{"status":"solved","moves":["D up 1","E down 1"]}'   # exit 3
              gridlock check '1 2 3 4 5 6 7 0 8' '{"status":"solved","moves":["8 left"]}'

            Exit status:
              0 the answer is right
              1 the puzzle's text or the answer cannot be read
                (a missing puzzle file, or a file of several puzzles without
                --line, is a usage error: 64)
              2 a claim of no solution that the search could not settle within its limits
              3 the answer is wrong: the first bad move is named
              64 the command line itself was wrong
            """
    )

    @OptionGroup var chosen: OnePuzzleOptions

    @Argument(help: "The answer: JSON text, a file holding it, or '-' for standard input.", completion: .file())
    var answer: String

    @Option(help: "A claim of no solution: stop the search that checks it after this many seconds.")
    var timeout: Double = 60

    @Option(help: "A claim of no solution: stop the search that checks it once it holds this many states.")
    var maxStates = SolveOptions.defaultMaxStates

    @OptionGroup var memoryBudget: MemoryBudgetOption

    @Option(help: "Output: text for people, json for one object.")
    var format: SolveCommand.OutputFormat = .text

    func validate() throws {
        guard chosen.puzzleArgument != "-" || answer != "-" else { throw ValidationError("only one of PUZZLE and ANSWER can be read from standard input") }
        guard maxStates > 0 else { throw ValidationError("--max-states must be positive") }
        try TimeLimit.check(timeout)
    }

    func run() throws {
        do {
            let (parsed, source) = try chosen.puzzle()
            let claim = try AnswerText.claim(try AnswerText.read(answer))
            if case .filled = claim, parsed.sudoku == nil {
                throw StatusError("a \(parsed.kind.rawValue) answer lists its moves, such as \"moves\":[\"B down 2\"]; one text is a Sudoku's filled grid", exitCode: 1)
            }
            let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
            let verdict = AnswerCheck.verdict(of: claim, for: parsed, options: SolveOptions.until(deadline, SolveOptions(maxStates: maxStates, memoryBudgetBytes: memoryBudget.bytes)))
            let (word, reason, status): (String, String, Int32) = switch verdict {
            case .correct(let reason): ("correct", reason, 0)
            case .unknown(let reason): ("unknown", reason, 2)
            case .wrong(let reason): ("wrong", reason, 3)
            }
            switch format {
            // The reason quotes the answer's own text: escaped, so no control character reaches the terminal.
            case .text: print("\(source.printable): \(word): \(reason.printable)")
            case .json: print(JSONLine.encode(CheckLine(source: source, kind: parsed.kind.rawValue, verdict: word, reason: reason)))
            }
            if status != 0 { throw ExitCode(status) }
        } catch let failure as StatusError {
            StandardError.write("Error: \(failure.description.printable)\n")
            throw ExitCode(failure.exitCode)
        }
    }

    struct CheckLine: Encodable {
        var source: String
        var kind: String
        var verdict: String
        var reason: String
    }
}

/// The answer's text and what it claims.
enum AnswerText {
    /// The most an answer may hold: a move list of any real puzzle is far shorter.
    static let maximumBytes = 16 << 20

    /// The JSON itself, a file's contents, or standard input's.
    static func read(_ argument: String) throws -> String {
        if argument == "-" { return try bounded(FileHandle.standardInput, from: "standard input") }
        let trimmed = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") { return argument }
        guard let handle = FileHandle(forReadingAtPath: argument) else {
            throw StatusError("the answer \(argument.printable) is neither JSON (it starts with '{') nor a file that can be read", exitCode: 1)
        }
        defer { try? handle.close() }
        return try bounded(handle, from: argument)
    }

    /// At most `maximumBytes` of UTF-8 text; a directory or a closed input is an error, not a trap.
    private static func bounded(_ handle: FileHandle, from name: String) throws -> String {
        let data: Data
        do {
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            throw StatusError("cannot read the answer from \(name.printable): \(error.localizedDescription)", exitCode: 1)
        }
        guard data.count <= maximumBytes else { throw StatusError("the answer in \(name.printable) is over \(maximumBytes >> 20) MiB", exitCode: 1) }
        guard let text = String(data: data, encoding: .utf8) else { throw StatusError("the answer in \(name.printable) is not UTF-8 text", exitCode: 1) }
        return text
    }

    /// What the JSON object says (AnswerCheck.answer): an unreadable answer exits 1.
    static func claim(_ text: String) throws -> AnswerCheck.Claim {
        do {
            return try AnswerCheck.answer(fromJSON: text).claim
        } catch {
            throw StatusError(error.description, exitCode: 1)
        }
    }
}
