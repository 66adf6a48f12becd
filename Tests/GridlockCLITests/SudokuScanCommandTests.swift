// `gridlock scan` and `solve` on a printed Sudoku grid (data/samples/sudoku-printed.png: a grid
// the scan tests' printer drew in FreeSerif, a font the digit reader was not trained on), and on the
// same grid with one digit copied beside itself, so that its row holds it twice: both cells are
// flagged, the exit status says so, and `solve` refuses to solve a grid it is unsure of.

import Foundation
import ImageFile
import PNGFile
import Testing

@Suite("scan: printed Sudoku grids")
struct SudokuScanCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = repository.appendingPathComponent("data/samples/sudoku-printed.png")
    /// What the fixture shows (read off the picture by eye).
    static let printed = "3..41....516.3...........7..5...23.1.........6.17...4..8...........9.465....73..8"

    @Test("a printed grid scans back to its digits, as a line, a grid or JSON; solve takes the picture and solves it")
    func printedGrid() throws {
        let line = try GridlockBinary.run(["scan", Self.fixture.path])
        #expect(line.status == 0 && line.stdout == Self.printed + "\n", "\(line.stdout)\(line.stderr)")
        let sudoku = try GridlockBinary.run(["scan", Self.fixture.path, "--kind", "sudoku", "--format", "grid"])
        #expect(sudoku.status == 0 && sudoku.stdout.hasPrefix("3 . . | 4 1 . | . . .\n5 1 6 | . 3 . | . . .\n"), "\(sudoku.stdout)")
        let json = try GridlockBinary.run(["scan", Self.fixture.path, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["board"] as? String == Self.printed && object?["kind"] as? String == "sudoku" && (object?["uncertain"] as? [Any])?.isEmpty == true, "\(json.stdout)")
        let solved = try GridlockBinary.run(["solve", Self.fixture.path, "--show"])
        #expect(solved.status == 0 && solved.stdout.contains("sudoku-printed.png:1 · bands: solved"), "\(solved.stdout)\(solved.stderr)")
        #expect(solved.stdout.contains("3 7 8 | 4 1 9 | 5 2 6"), "\(solved.stdout)")
        // A Rush Hour scan of the grid finds no board of blocks in it.
        let asBoard = try GridlockBinary.run(["scan", Self.fixture.path, "--kind", "rushhour"])
        #expect(asBoard.status == 1, "\(asBoard.stdout)")
    }

    @Test("a digit repeated in its row is flagged in both cells; scan exits 1 and solve refuses, naming them")
    func repeatedDigit() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        var picture = try PNGFile.decode(Array(try Data(contentsOf: Self.fixture)))
        // The 3 of row 1, column 1 copied into the blank column 2 (cells are 44 pixels apart).
        for y in 26..<62 {
            for x in 26..<62 {
                for channel in 0..<4 { picture.rgba[(y * picture.width + x + 44) * 4 + channel] = picture.rgba[(y * picture.width + x) * 4 + channel] }
            }
        }
        let copied = directory.appendingPathComponent("twice.png")
        try Data(try PNGFile.encode(width: picture.width, height: picture.height, rgba: picture.rgba)).write(to: copied)
        let scanned = try GridlockBinary.run(["scan", copied.path])
        #expect(scanned.status == 1 && scanned.stdout.hasPrefix("33.41...."), "\(scanned.stdout)")
        #expect(scanned.stderr.contains("twice.png: row 1, column 1: read as 3, and so is row 1, column 2 in the same row"), "\(scanned.stderr)")
        #expect(scanned.stderr.contains("twice.png: row 1, column 2: read as 3, and so is row 1, column 1"), "\(scanned.stderr)")
        #expect(scanned.stderr.contains("1 of 1 images have digits read in doubt"), "\(scanned.stderr)")
        let json = try GridlockBinary.run(["scan", copied.path, "--format", "json"])
        #expect(json.status == 1 && json.stdout.contains(#""uncertain":[{"column":1"#), "\(json.stdout)")
        let solve = try GridlockBinary.run(["solve", copied.path])
        #expect(solve.status == 1 && solve.stderr.contains("some digits of the Sudoku grid were read in doubt") && solve.stderr.contains("row 1, column 2: read as 3"), "\(solve.stderr)")
        let overlay = directory.appendingPathComponent("seen.png")
        _ = try GridlockBinary.run(["scan", copied.path, "--debug-overlay", overlay.path])
        let drawn = try PNGFile.decode(Array(try Data(contentsOf: overlay)))
        // A red frame round the flagged cell (row 1, column 2), a green mark in a sure one.
        let redAt = (30 * drawn.width + 67) * 4
        #expect(drawn.rgba[redAt] == 230 && drawn.rgba[redAt + 1] == 0, "\(drawn.rgba[redAt..<redAt + 3])")
    }
}
