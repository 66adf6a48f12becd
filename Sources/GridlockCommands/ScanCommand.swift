// `gridlock scan`: from a picture to a puzzle. Reads PNG and JPEG files (ImageFile), finds a
// Rush Hour board in each (GridlockScan), and prints it as `solve` reads it. What could not be
// read is named, with the file, on standard error; nothing is guessed.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore
import GridlockScan
import ImageFile
import PNGFile

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read puzzles from pictures: screenshots of Unblock Me / Rush Hour boards.",
        usage: "gridlock scan <images> ... [<options>]",
        discussion: """
            Finds the board in each PNG or JPEG image (a folder: every .png, .jpg and .jpeg \
            in it, in name order) and prints it as solve reads it. The board is the inside of \
            a frame of contrasting colour, divided into square tiles; the chute is a gap in \
            the frame beside one row; blocks are runs of 2 or 3 tiles with a seam between \
            neighbours, a lone tile a fixed block; the prisoner is the reddest block in the \
            chute's row. The README lists every rule. An image in which some rule fails is \
            named on standard error with what could not be read (the exit status is then 1), \
            and the others are still printed.

            Examples:
              gridlock render '00 ooooooooooooooooAAoooooooooooooooooo' -o a.png
              gridlock scan a.png
              gridlock scan a.png --format grid --debug-overlay seen.png
            """)

    @Argument(help: "PNG or JPEG images, or folders of them.", completion: .file())
    var images: [String]

    @Option(help: "The kind of puzzle pictured: rushhour (Sudoku grids are not read yet).")
    var kind: ScanKind = .rushhour

    @Option(help: "line (the database's 36-character board where the board has one, else the grid), grid (one row a line, the chute marked, a blank line after each board), or json (one object a line, with the file and the board or the error).")
    var format: ScanFormat = .line

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

    func validate() throws {
        if kind == .sudoku { throw ValidationError("--kind sudoku: Sudoku grids are not read from pictures yet; only Rush Hour boards are") }
    }

    func run() throws {
        let files = try Self.imageFiles(images)
        guard !files.isEmpty else { throw ValidationError("no .png, .jpg or .jpeg image in \(images.joined(separator: ", "))") }
        if debugOverlay != nil, files.count != 1 { throw ValidationError("--debug-overlay draws one image: \(files.count) were given") }
        var failures = 0
        for file in files {
            switch Self.scan(file) {
            case .success((let scanned, let image)):
                print(render(scanned, file: file))
                if let debugOverlay { try writeOverlay(image, to: debugOverlay) }
            case .failure(let problem):
                failures += 1
                if format == .json {
                    print(JSONLine.encode(["file": file, "error": problem.message]))
                } else {
                    StandardError.write("scan: \(file): \(problem.message)".printable + "\n")
                }
                if let debugOverlay, let image = problem.image { try writeOverlay(image, to: debugOverlay) }
            }
        }
        if failures > 0 {
            StandardError.write("scan: \(failures) of \(files.count) images could not be read\n")
            throw ExitCode(1)
        }
    }

    struct Problem: Error {
        var message: String
        var image: RGBAImage?
    }

    /// One image file, read and scanned.
    static func scan(_ file: String) -> Result<(ScannedRushHour, RGBAImage), Problem> {
        let image: RGBAImage
        do {
            let bytes = try SmallFile.read(file, limit: maximumFileBytes)
            let decoded = try ImageFile.decode(bytes)
            image = RGBAImage(width: decoded.width, height: decoded.height, pixels: decoded.rgba)
        } catch let problem as SmallFile.Problem {
            return .failure(Problem(message: problem.reason))
        } catch {
            return .failure(Problem(message: "\(error)"))
        }
        switch RushHourScanner.scan(image) {
        case .success(let scanned): return .success((scanned, image))
        case .failure(let error): return .failure(Problem(message: error.description, image: image))
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

    private func render(_ scanned: ScannedRushHour, file: String) -> String {
        switch format {
        case .line: scanned.puzzle.databaseBoard ?? scanned.grid + "\n"
        case .grid: scanned.grid + "\n"
        case .json:
            JSONLine.encode(ScannedBoard(
                file: file, kind: PuzzleKind.rushhour.rawValue, width: scanned.puzzle.width, height: scanned.puzzle.height,
                board: scanned.puzzle.databaseBoard, grid: scanned.grid))
        }
    }

    private struct ScannedBoard: Encodable {
        var file: String
        var kind: String
        var width: Int
        var height: Int
        var board: String?
        var grid: String
    }

    private func writeOverlay(_ image: RGBAImage, to path: String) throws {
        let drawn = ScanOverlay.draw(image)
        do {
            let bytes = try PNGFile.encode(width: drawn.width, height: drawn.height, rgba: drawn.pixels)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("cannot write the overlay \(path): \((error as NSError).localizedDescription)")
        }
    }
}
