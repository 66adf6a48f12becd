// `gridlock collection`: keep puzzles with their analysis in SQLite, list and export them.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore

struct CollectionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection",
        abstract: "Keep puzzles with their analysis in a SQLite collection; list and export them.",
        discussion: """
            Examples:
              gridlock generate tilt --moves 6 --count 20 --seed 1 > tilt.txt
              gridlock collection add puzzles.sqlite tilt.txt
              gridlock collection list puzzles.sqlite
              gridlock collection export puzzles.sqlite --format json > tilt.jsonl
            """,
        subcommands: [CollectionAddCommand.self, CollectionListCommand.self, CollectionExportCommand.self]
    )
}

struct CollectionAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Analyse puzzles and add them to a collection (each once).",
        usage: "gridlock collection add <database> <puzzles> ... [<options>]")

    @Argument(help: "The collection's SQLite file (created if missing).")
    var database: String

    @Argument(help: "Puzzle files, '-' for standard input, or puzzle text.")
    var puzzles: [String]

    @OptionGroup var reading: PuzzleReadOptions
    @OptionGroup var cap: InputCapOption

    @Option(help: "Refuse positions with more reachable states than this.")
    var maxStates = 5_000_000

    func run() throws {
        let collection = try PuzzleCollection(path: database)
        var added = 0, known = 0, refused = 0
        for (record, source) in PuzzleInput.records(try PuzzleInput.read(puzzles, maximumBytes: cap.maximumBytes), kind: reading.puzzleKind) {
            let place = "\(source.file):\(source.line)"
            do {
                let puzzle = try ParsedPuzzle.parse(record, kind: reading.puzzleKind, tileOptions: reading.tileOptions)
                let analysis = try StateSpaceAnalysis.analyze(puzzle, maxStates: maxStates).get()
                if try collection.add(kind: puzzle.kind, text: record.text, label: puzzle.label, source: place, analysis: analysis) {
                    added += 1
                } else {
                    known += 1
                }
            } catch {
                refused += 1
                StandardError.write("\(place): not added: \(error)\n")
            }
        }
        StandardError.write("collection \(database): \(added) added, \(known) already there, \(refused) refused\n")
        if refused > 0 { throw ExitCode(1) }
    }
}

struct CollectionListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "A table of the collection's puzzles and their analysis.")

    @Argument(help: "The collection's SQLite file.")
    var database: String

    @Option(help: KindChoice.help)
    var kind: KindChoice = .auto

    func run() throws {
        let entries = try PuzzleCollection(path: database, readOnly: true).entries(kind: kind.kind)
        let rows = entries.map { entry -> [String] in
            let analysis = entry.analysis
            let share: Double = Double(analysis.deadEnds) / Double(max(1, analysis.reachable)) * 100
            let best: String = analysis.bestMoves.map { String($0) } ?? "-"
            let solutions: String = analysis.solutions.map { String($0) } ?? "-"
            let hardest: String = analysis.hardest.map { String($0) } ?? "-"
            let text = String(entry.text.split(separator: "\n").joined(separator: "/").prefix(40))
            return [String(entry.id), entry.kind, best, solutions, analysis.reachable.grouped, share.formatted(decimals: 1) + "%", hardest, text]
        }
        print(TextTable.aligned(header: ["id", "kind", "best", "solutions", "reachable", "dead ends", "hardest", "puzzle"], rows: rows))
    }
}

struct CollectionExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the collection's puzzles: as stored (line), or as their kind's JSON with the analysis.")

    @Argument(help: "The collection's SQLite file.")
    var database: String

    @Option(help: KindChoice.help)
    var kind: KindChoice = .auto

    @Option(help: "line: as stored; grid: each kind's multi-line grid, a blank line between; puzzle-json: each kind's own JSON; json: one object per puzzle with its analysis. All but json read back into every command.")
    var format: ExportFormat = .line

    enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
        case line, grid, json
        case puzzleJSON = "puzzle-json"
    }

    func run() throws {
        for entry in try PuzzleCollection(path: database, readOnly: true).entries(kind: kind.kind) {
            switch format {
            case .line: print(entry.text.contains("\n") ? entry.text + "\n" : entry.text)
            case .json: print(JSONLine.encode(entry))
            case .grid, .puzzleJSON:
                let puzzle = try ParsedPuzzle.parse(entry.text, kind: PuzzleKind(rawValue: entry.kind))
                print(format == .grid ? Self.grid(puzzle) + "\n" : Self.json(puzzle))
            }
        }
    }

    static func grid(_ puzzle: ParsedPuzzle) -> String {
        if let rushHour = puzzle.rushHour { return rushHour.gridText() }
        if let sudoku = puzzle.sudoku { return sudoku.gridText }
        if let tiles = puzzle.tiles { return tiles.gridText }
        return puzzle.tilt.map { $0.gridText($0.start) } ?? ""
    }

    static func json(_ puzzle: ParsedPuzzle) -> String {
        puzzle.rushHour?.jsonText ?? puzzle.sudoku?.jsonText ?? puzzle.tiles?.jsonText ?? puzzle.tilt?.jsonText ?? ""
    }
}
