// `gridlock scan` for real: pictures `render` drew, as PNG and as JPEG, alone and in a folder,
// and pictures that are no board or no image, each refused with the file named and a reason.

import Foundation
import ImageFile
import PNGFile
import Testing

@Suite("scan: pictures to puzzles")
struct ScanCommandTests {
    static let board = "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo"
    static let walled = "xoBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLx"

    /// `render`'s PNG of `board`, in `directory`.
    static func rendered(_ board: String, in directory: URL, name: String, scale: String = "1") throws -> URL {
        let file = directory.appendingPathComponent(name)
        let result = try GridlockBinary.run(["render", board, "-o", file.path, "--scale", scale])
        #expect(result.status == 0, "\(result.stderr)")
        return file
    }

    @Test("a rendered board, PNG or JPEG, scans back to the same board, fixed blocks included; a folder is read in name order")
    func roundTrip() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let png = try Self.rendered(Self.board, in: directory, name: "b.png")
        let walled = try Self.rendered(Self.walled, in: directory, name: "a.png", scale: "0.7")
        let decoded = try PNGFile.decode(Array(try Data(contentsOf: walled)))
        try Data(try ImageFile.encodeJPEG(width: decoded.width, height: decoded.height, rgba: decoded.rgba, quality: 60))
            .write(to: directory.appendingPathComponent("c.jpg"))
        // A board of the prisoner alone shows its grid only by the tray's faint lines.
        let elsewhere = try BatchCommandTests.temporaryDirectory()
        let alone = try GridlockBinary.run(["scan", try Self.rendered("ooooooooooooooooAAoooooooooooooooooo", in: elsewhere, name: "alone.png").path])
        #expect(alone.status == 0 && alone.stdout == "ooooooooooooooooAAoooooooooooooooooo\n", "\(alone.stdout)\(alone.stderr)")
        let one = try GridlockBinary.run(["scan", png.path])
        #expect(one.status == 0 && one.stdout == Self.board + "\n", "\(one.stdout)\(one.stderr)")
        let folder = try GridlockBinary.run(["scan", directory.path])
        #expect(folder.status == 0 && folder.stdout == "\(Self.walled)\n\(Self.board)\n\(Self.walled)\n", "\(folder.stdout)\(folder.stderr)")
        // What scan prints, solve reads.
        let solved = try GridlockBinary.run(["solve", "-"], stdin: one.stdout)
        #expect(solved.status == 0 && solved.stdout.contains("solved in 23 moves"), "\(solved.stdout)\(solved.stderr)")
    }

    @Test("json and grid formats, and the overlay of what was seen")
    func formatsAndOverlay() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let png = try Self.rendered(Self.board, in: directory, name: "b.png")
        let overlay = directory.appendingPathComponent("seen.png")
        let json = try GridlockBinary.run(["scan", png.path, "--format", "json", "--debug-overlay", overlay.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["board"] as? String == Self.board && object["width"] as? Int == 6 && object["file"] as? String == png.path, "\(json.stdout)")
        let drawn = try PNGFile.decode(Array(try Data(contentsOf: overlay)))
        let original = try PNGFile.decode(Array(try Data(contentsOf: png)))
        #expect(drawn.width == original.width && drawn.rgba != original.rgba)
        let grid = try GridlockBinary.run(["scan", png.path, "--format", "grid"])
        #expect(grid.stdout == "..BCCC\nD.BEFF\nDAAEG.>\n.H..GI\n.HJJGI\n.KKLL.\n\n", "\(grid.stdout)")
    }

    @Test("json gives each tile's confidence, the chute's and the prisoner's; --least-confidence refuses under it, naming the weakest part")
    func confidences() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let png = try Self.rendered(Self.board, in: directory, name: "b.png")
        let json = try GridlockBinary.run(["scan", png.path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let confidence = try #require(object["confidence"] as? [String: Any], "\(json.stdout)")
        let cells = try #require(confidence["cells"] as? [[Double]])
        let chute = try #require(confidence["chute"] as? Double), prisoner = try #require(confidence["prisoner"] as? Double)
        #expect(cells.count == 6 && cells.allSatisfy { $0.count == 6 }, "\(cells)")
        let all = cells.joined() + [chute, prisoner]
        #expect(all.allSatisfy { $0 >= 0.5 && $0 <= 1 }, "\(all)")
        // Just under the weakest part's confidence the board is read; a hundredth over, refused.
        let weakest = try #require(all.min())
        // (The JSON's values are rounded to two places: half a hundredth under is under the value.)
        let taken = try GridlockBinary.run(["scan", png.path, "--least-confidence", String(max(0.5, weakest - 0.005))])
        #expect(taken.status == 0 && taken.stdout == Self.board + "\n", "\(taken.stdout)\(taken.stderr)")
        if weakest < 0.99 {
            let refused = try GridlockBinary.run(["scan", png.path, "--least-confidence", String(weakest + 0.01)])
            #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused.stdout)")
            #expect(refused.stderr.contains("read with confidence ") && refused.stderr.contains(", under the least taken, \(weakest + 0.01)"), "\(refused.stderr)")
        }
        let wrong = try GridlockBinary.run(["scan", png.path, "--least-confidence", "0.3"])
        #expect(wrong.status != 0 && wrong.stderr.contains("a confidence is 0.5 (every reading the rules allow) to 1"), "\(wrong.stderr)")
    }

    @Test("no image, no board, a missing file: each named with its reason, exit 1, the good ones still printed")
    func refusals() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let png = try Self.rendered(Self.board, in: directory, name: "b.png")
        let text = directory.appendingPathComponent("notes.png")
        try "not a picture".write(to: text, atomically: true, encoding: .utf8)
        let blank = directory.appendingPathComponent("blank.png")
        try Data(try PNGFile.encode(width: 64, height: 64, rgba: [UInt8](repeating: 200, count: 64 * 64 * 4))).write(to: blank)
        let truncated = directory.appendingPathComponent("cut.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]).write(to: truncated)
        let result = try GridlockBinary.run(["scan", png.path, text.path, blank.path, truncated.path, directory.appendingPathComponent("gone.png").path])
        #expect(result.status == 1 && result.stdout == Self.board + "\n", "\(result.stdout)")
        #expect(result.stderr.contains("notes.png: not a PNG or JPEG image"), "\(result.stderr)")
        #expect(result.stderr.contains("blank.png: neither a Rush Hour board (no board found"), "\(result.stderr)")
        #expect(result.stderr.contains("cut.jpg: libjpeg could not read the image"), "\(result.stderr)")
        #expect(result.stderr.contains("gone.png: it does not exist"), "\(result.stderr)")
        #expect(result.stderr.contains("4 of 5 images could not be read"), "\(result.stderr)")
        // A 74-byte PNG that claims 5,000 x 5,000 pixels (25 million, over the 16 million read):
        // refused from its header, before 100 MB are allocated for it.
        let bomb = directory.appendingPathComponent("bomb.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x13, 0x88, 0x00, 0x00, 0x13, 0x88, 0x08, 0x06, 0x00, 0x00, 0x00, 0x5D, 0x98, 0x87, 0xCB, 0x00, 0x00, 0x00, 0x11, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x18, 0x05, 0xA3, 0x60, 0x14, 0x0C, 0x77, 0x00, 0x00, 0x03, 0xE8, 0x00, 0x01, 0xB3, 0xA6, 0xD3, 0x46, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]).write(to: bomb)
        let claimed = try GridlockBinary.run(["scan", bomb.path])
        #expect(claimed.status == 1 && claimed.stderr.contains("a PNG of 5000x5000 pixels is too large to read"), "\(claimed.stderr)")
        let sudoku = try GridlockBinary.run(["scan", png.path, "--kind", "sudoku"])
        #expect(sudoku.status == 1 && sudoku.stderr.contains("b.png: no Sudoku grid found"), "\(sudoku.stderr)")
    }

    @Test("solve, batch and bench take pictures where they take puzzle files; a picture that is no board stops them, named")
    func picturesAsPuzzleFiles() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let png = try Self.rendered(Self.board, in: directory, name: "shot.png")
        let solved = try GridlockBinary.run(["solve", png.path, "--show"])
        #expect(solved.status == 0 && solved.stdout.contains("shot.png:1 · bfs: solved in 23 moves"), "\(solved.stdout)\(solved.stderr)")
        let batch = try GridlockBinary.run(["batch", png.path, "--workers", "1", "--db", directory.appendingPathComponent("r.sqlite").path])
        #expect(batch.status == 0 && batch.stderr.contains("1 solved"), "\(batch.stderr)")
        let bench = try GridlockBinary.run(["bench", png.path, "--warmup", "0", "--solver", "bfs"])
        #expect(bench.status == 0 && bench.stdout.contains("bfs"), "\(bench.stdout)\(bench.stderr)")
        let blank = directory.appendingPathComponent("blank.png")
        try Data(try PNGFile.encode(width: 64, height: 64, rgba: [UInt8](repeating: 200, count: 64 * 64 * 4))).write(to: blank)
        let refused = try GridlockBinary.run(["solve", blank.path])
        #expect(refused.status == 1 && refused.stderr.contains("blank.png: the picture could not be read as a puzzle: neither a Rush Hour board (no board found"), "\(refused.stderr)")
    }
}
