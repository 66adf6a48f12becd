// `gridlock scan`: from a picture to a puzzle. Reads PNG and JPEG files (ImageFile), finds a
// Rush Hour board or a printed Sudoku grid in each (GridlockScan), and prints it as `solve`
// reads it. What could not be read, and every digit read in doubt, is named with the file on
// standard error; nothing is guessed silently.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockClusterBase
import GridlockCore
import GridlockScan
import ImageFile
import PNGFile

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read puzzles from pictures: Unblock Me / Rush Hour screenshots, printed Sudoku grids.",
        usage: "gridlock scan <images> ... [<options>]",
        discussion: """
            Finds the board in each PNG or JPEG image (a folder: every .png, .jpg and .jpeg \
            in it, in name order) and prints it as solve reads it. The board is the inside of \
            a frame of contrasting colour, divided into square tiles; the chute is a gap in \
            the frame beside one row; blocks are runs of 2 or 3 tiles with a seam between \
            neighbours, a lone tile a fixed block; the prisoner is the reddest block in the \
            chute's row. A Sudoku grid is the largest square of ink with ten lines each way; \
            its digits are read by a reader trained on installed fonts when gridlock was \
            built, and a digit it is unsure of (or that repeats in a row, column or box) is \
            printed, and flagged on standard error. docs/scanning.md lists every rule.

            An image in which some rule fails is named on standard error with what could not \
            be read, and the others are still printed. Exit status: 0 every image read \
            surely, 1 some image not read or some digit flagged, 64 bad usage.

            Examples:
              gridlock render '00 ooooooooooooooooAAoooooooooooooooooo' -o a.png
              gridlock scan a.png
              gridlock scan a.png --format grid --debug-overlay seen.png
              gridlock scan data/samples/sudoku-printed.png --kind sudoku --format json
            """)

    @Argument(help: "PNG or JPEG images, or folders of them.", completion: .file())
    var images: [String]

    @Option(help: "The kind of puzzle pictured: rushhour, sudoku, or auto (a Sudoku grid where one is found, else a Rush Hour board).")
    var kind: ScanKind = .auto

    @Option(help: "line (a Rush Hour board as the database's 36 characters where it has them, else its grid; a Sudoku grid as 81 characters, . for a blank), grid (one row a line, a blank line after each puzzle), or json (one object a line, with the file and the puzzle or the error, and each flagged digit).")
    var format: ScanFormat = .line

    @Option(name: .customLong("least-confidence"), help: "Refuse a Rush Hour board any part of which (a tile, the chute, the prisoner) was read with less confidence than this, 0.5-1: 0.6 unless told; 0.5 takes every reading the rules allow, some of them wrong; 1 only those where every sign agrees. --format json shows each part's.")
    var leastConfidence: Double = ScanConfidence.defaultLeast

    @Option(name: .customLong("debug-overlay"), help: "Write the image with what was found drawn on it (the board's grid, a mark a tile, the chute) to this PNG file; one image only.")
    var debugOverlay: String?

    enum ScanKind: String, ExpressibleByArgument, CaseIterable {
        case rushhour, sudoku, auto
    }

    enum ScanFormat: String, ExpressibleByArgument, CaseIterable {
        case line, grid, json
    }

    /// The largest image file read: a phone's screenshot is a few megabytes.
    static let maximumFileBytes = 64 << 20

    func run() throws {
        let files = try Self.imageFiles(images)
        guard leastConfidence >= 0.5, leastConfidence <= 1 else {
            throw ValidationError("--least-confidence \(leastConfidence): a confidence is 0.5 (every reading the rules allow) to 1")
        }
        guard !files.isEmpty else { throw ValidationError("no .png, .jpg or .jpeg image in \(images.joined(separator: ", "))") }
        if debugOverlay != nil, files.count != 1 { throw ValidationError("--debug-overlay draws one image: \(files.count) were given") }
        if let debugOverlay, let drawn = FileIdentity(path: debugOverlay), drawn == FileIdentity(path: files[0]) {
            throw ValidationError("--debug-overlay \(debugOverlay) is the image being scanned: the overlay would overwrite it")
        }
        var failures = 0, doubtful = 0
        for file in files {
            switch Self.scan(file, kind: kind, leastConfidence: leastConfidence) {
            case .success((let scanned, let image)):
                print(render(scanned, file: file))
                // Each board is out before the next file is read: a folder's answers so far
                // are not lost with a later file's trouble.
                fflush(nil)
                if case .sudoku(let sudoku) = scanned, !sudoku.uncertain.isEmpty {
                    doubtful += 1
                    if format != .json {
                        for digit in sudoku.uncertain { StandardError.write("scan: \(file): \(digit)".printable + "\n") }
                    }
                }
                if let debugOverlay { try writeOverlay(image, to: debugOverlay, kind: scanned.kind) }
            case .failure(let problem):
                failures += 1
                if format == .json {
                    print(JSONLine.encode(["file": file, "error": problem.message]))
                } else {
                    StandardError.write("scan: \(file): \(problem.message)".printable + "\n")
                }
                if let debugOverlay, let image = problem.image { try writeOverlay(image, to: debugOverlay, kind: problem.kind) }
            }
        }
        if failures > 0 { StandardError.write("scan: \(failures) of \(files.count) images could not be read\n") }
        if doubtful > 0 { StandardError.write("scan: \(doubtful) of \(files.count) images have digits read in doubt (flagged above); check them before solving\n") }
        if failures + doubtful > 0 { throw ExitCode(1) }
    }

    struct Problem: Error {
        var message: String
        var image: RGBAImage?
        /// Which scanner's finding the overlay draws.
        var kind: PuzzleKind = .rushhour
    }

    /// A picture read.
    enum Scanned {
        case rushHour(ScannedRushHour)
        case sudoku(ScannedSudoku)

        var kind: PuzzleKind {
            switch self {
            case .rushHour: .rushhour
            case .sudoku: .sudoku
            }
        }

        /// The puzzle as `solve` reads it.
        var text: String {
            switch self {
            case .rushHour(let scanned): (scanned.puzzle.databaseBoard ?? scanned.grid) + "\n"
            case .sudoku(let scanned): scanned.line + "\n"
            }
        }
    }

    /// One image file, read and scanned.
    static func scan(_ file: String, kind: ScanKind, leastConfidence: Double = ScanConfidence.defaultLeast) -> Result<(Scanned, RGBAImage), Problem> {
        let image: RGBAImage
        do {
            let bytes = try SmallFile.read(file, limit: maximumFileBytes)
            let decoded = try ImageFile.decode(bytes)
            image = RGBAImage(width: decoded.width, height: decoded.height, overWhite: decoded.rgba)
        } catch let problem as SmallFile.Problem {
            return .failure(Problem(message: problem.reason))
        } catch {
            return .failure(Problem(message: "\(error)"))
        }
        switch kind {
        case .rushhour:
            return RushHourScanner.scan(image, leastConfidence: leastConfidence).map { (.rushHour($0), image) }.mapError { Problem(message: $0.description, image: image) }
        case .sudoku:
            return SudokuScanner.scan(image).map { (.sudoku($0), image) }.mapError { Problem(message: $0.description, image: image, kind: .sudoku) }
        case .auto:
            // A Sudoku grid is looked for first: its lines are unmistakable, and a Rush Hour
            // board never has ten lines each way. A grid found but not read is that error.
            // Where both scanners shrink the picture by the same factor (a phone's screenshot is
            // halved for either), it is shrunk once; the overlay draws that picture.
            let working = image.reduced(toAtMost: RushHourScanner.workingPixels)
            let sameFactor = image.reductionFactor(toAtMost: SudokuScanner.workingPixels) == image.reductionFactor(toAtMost: RushHourScanner.workingPixels)
            switch SudokuScanner.scan(sameFactor ? working : image) {
            case .success(let scanned): return .success((.sudoku(scanned), working))
            case .failure(let error) where !error.noGrid:
                return .failure(Problem(message: error.description, image: working, kind: .sudoku))
            case .failure(let sudokuError):
                return RushHourScanner.scan(working, leastConfidence: leastConfidence).map { (.rushHour($0), working) }.mapError {
                    Problem(message: "neither a Rush Hour board (\($0.description)) nor a Sudoku grid (\(sudokuError.description))", image: working)
                }
            }
        }
    }

    /// The files named, a folder's images in name order.
    static func imageFiles(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.filter(ImageFile.hasImageExtension).sorted().map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    private func render(_ scanned: Scanned, file: String) -> String {
        switch (scanned, format) {
        case (.rushHour(let scanned), .line): scanned.puzzle.databaseBoard ?? scanned.grid + "\n"
        case (.rushHour(let scanned), .grid): scanned.grid + "\n"
        case (.rushHour(let scanned), .json):
            JSONLine.encode(ScannedBoard(
                file: file, kind: PuzzleKind.rushhour.rawValue, width: scanned.puzzle.width, height: scanned.puzzle.height,
                board: scanned.puzzle.databaseBoard, grid: scanned.grid, confidence: .init(scanned.confidence)))
        case (.sudoku(let scanned), .line): scanned.line
        case (.sudoku(let scanned), .grid): scanned.grid + "\n"
        case (.sudoku(let scanned), .json):
            JSONLine.encode(ScannedGrid(
                file: file, kind: PuzzleKind.sudoku.rawValue, board: scanned.line, grid: scanned.grid,
                uncertain: scanned.uncertain.map { .init(row: $0.row, column: $0.column, read: $0.read, reason: $0.reason) }))
        }
    }

    private struct ScannedBoard: Encodable {
        var file: String
        var kind: String
        var width: Int
        var height: Int
        var board: String?
        var grid: String
        var confidence: Sureness

        /// ScanConfidence to two places: per tile (rows from the top), the chute, the prisoner.
        struct Sureness: Encodable {
            var cells: [[Double]]
            var chute: Double
            var prisoner: Double

            init(_ confidence: ScanConfidence) {
                let rounded = { (value: Double) in (value * 100).rounded() / 100 }
                cells = confidence.cells.map { $0.map(rounded) }
                chute = rounded(confidence.chute)
                prisoner = rounded(confidence.prisoner)
            }
        }
    }

    private struct ScannedGrid: Encodable {
        struct Doubt: Encodable {
            var row: Int
            var column: Int
            var read: Int
            var reason: String
        }

        var file: String
        var kind: String
        var board: String
        var grid: String
        /// Digits read in doubt: empty when every digit was read surely.
        var uncertain: [Doubt]
    }

    private func writeOverlay(_ image: RGBAImage, to path: String, kind: PuzzleKind) throws {
        let drawn = kind == .sudoku ? SudokuOverlay.draw(image) : ScanOverlay.draw(image)
        do {
            let bytes = try PNGFile.encode(width: drawn.width, height: drawn.height, rgba: drawn.pixels)
            try OutputFile.write(Data(bytes), to: path, inputs: images)
        } catch {
            throw CommandFailure("cannot write the overlay \(path): \(error)")
        }
    }
}
