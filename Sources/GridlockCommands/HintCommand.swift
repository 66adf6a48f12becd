// `gridlock hint`: the next step for a person solving a Sudoku by hand.

import ArgumentParser
import GridlockCore

struct HintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hint",
        abstract: "Say which Sudoku cell logic forces next, with the digit and the reason.",
        discussion: """
            Looks for a hidden single (the only place for a digit in a box, row or column), then \
            a naked single (a cell with one candidate left), using the givens only, so each hint \
            can be checked by eye. When nothing is forced it names the cell with the fewest \
            candidates to guess at; when a cell or a unit has no candidate, it says the puzzle \
            has no solution. Apply the hint, run again for the next.

            Examples:
              gridlock hint data/sudoku/top95.txt
              gridlock hint data/sudoku/top95.txt --format json
            """
    )

    @Argument(help: "Sudoku puzzles: files, '-' for standard input, or an 81-character line.")
    var puzzles: [String]

    @OptionGroup var cap: InputCapOption

    @Option(help: "Output: text for people, json for one object per line.")
    var format: SolveCommand.OutputFormat = .text

    func run() throws {
        let records = PuzzleInput.records(try PuzzleInput.read(puzzles, maximumBytes: cap.maximumBytes), kind: .sudoku)
        guard !records.isEmpty else { throw ValidationError("no puzzles in the input") }
        var unreadable = 0
        for (record, source) in records {
            let place = "\(source.file):\(source.line)"
            do {
                let hint = SudokuHint.next(for: try SudokuPuzzle.parse(record))
                switch format {
                case .text: print("\(place): \(hint.text)")
                case .json: print(JSONLine.encode(HintLine(source: place, hint: hint)))
                }
            } catch {
                unreadable += 1
                switch format {
                case .text: print("\(place): invalid: \(error)")
                case .json: print(JSONLine.encode(HintLine(source: place, error: error.description)))
                }
            }
        }
        if unreadable > 0 { throw ExitCode(1) }
    }

    struct HintLine: Encodable {
        var source: String
        var hint: SudokuHint?
        var error: String?
    }
}
