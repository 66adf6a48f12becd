// `gridlock scan` against what an attack review of it threw (each once crashed, hung, ate
// memory or lost something): a board cropped to its frame, a picture one pixel wide, a
// 182-byte progressive JPEG claiming 30,000 x 30,000 pixels, a highlighted Sudoku cell, ink in
// the alpha channel, the overlay written over its own input, a puzzle read from a pipe, a JPEG
// cut short, a JPEG in print colours, and a file whose name is not UTF-8.

import Foundation
import ImageFile
import PNGFile
import Testing

@Suite("scan: hostile and unlucky pictures")
struct ScanAttackTests {
    static func write(_ picture: (width: Int, height: Int, rgba: [UInt8]), to file: URL) throws {
        try Data(try PNGFile.encode(width: picture.width, height: picture.height, rgba: picture.rgba)).write(to: file)
    }

    static func cropped(_ picture: (width: Int, height: Int, rgba: [UInt8]), x0: Int, x1: Int) -> (width: Int, height: Int, rgba: [UInt8]) {
        var rgba: [UInt8] = []
        for y in 0..<picture.height { rgba += picture.rgba[(y * picture.width + x0) * 4..<(y * picture.width + x1) * 4] }
        return (x1 - x0, picture.height, rgba)
    }

    /// A bash script's exit status and its output and errors together: for what Swift's
    /// arguments cannot say (a process substitution, a name that is not UTF-8).
    static func bash(_ script: String, _ arguments: String...) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("a board cropped at its frame is refused with the side named, not crashed on; so is a picture one pixel wide")
    func croppedAndThin() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let board = try ScanCommandTests.rendered(ScanCommandTests.board, in: directory, name: "b.png")
        let picture = try PNGFile.decode(Array(try Data(contentsOf: board)))
        // render's board: 432 pixels wide, its frame's outer edge 24 pixels in from each side.
        for (name, x0, x1, side) in [("right.png", 0, 410, "right"), ("left.png", 22, picture.width, "left")] {
            let file = directory.appendingPathComponent(name)
            try Self.write(Self.cropped(picture, x0: x0, x1: x1), to: file)
            let result = try GridlockBinary.run(["scan", file.path, "--kind", "rushhour"])
            #expect(result.status == 1 && result.stderr.contains("the picture ends at the board's \(side) edge"), "\(name): \(result.status) \(result.stderr)")
        }
        let thin = directory.appendingPathComponent("thin.png")
        try Self.write((1, 900_000, [UInt8](repeating: 255, count: 900_000 * 4)), to: thin)
        let good = directory.appendingPathComponent("a.png")
        try FileManager.default.copyItem(at: board, to: good)
        let result = try GridlockBinary.run(["scan", good.path, thin.path])
        #expect(result.status == 1 && result.stdout == ScanCommandTests.board + "\n", "\(result.status) \(result.stdout)")
        #expect(result.stderr.contains("thin.png: neither a Rush Hour board") && result.stderr.contains("the picture is 1x900000 pixels"), "\(result.stderr)")
    }

    @Test("a progressive JPEG whose header claims 30,000 x 30,000 pixels is refused from its header, at once")
    func progressiveBomb() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        // SOI, a quantisation table, SOF2 (progressive) of 30,000 x 30,000 grey pixels, a
        // Huffman table, one scan of zeros, EOI: 182 bytes.
        let hex = "ffd8ffdb0043" + String(repeating: "01", count: 65) + "ffc2000b087530753001011100ffc40014000100000000000000000000000000000000ffda0008010100000000" + String(repeating: "00", count: 80) + "ffd9"
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        let bomb = directory.appendingPathComponent("bomb.jpg")
        try Data(bytes).write(to: bomb)
        let started = Date()
        let result = try GridlockBinary.run(["scan", bomb.path])
        // Before the header check, libjpeg took 1.8 GB and 1.5 s on it; now it is refused in
        // milliseconds (a generous bound: the test machine may be busy).
        #expect(result.status == 1 && result.stderr.contains("bomb.jpg: libjpeg could not read the image: the image is too large to read"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 1.0)
    }

    @Test("a highlighted cell (a light digit on a dark ground) is an error naming the cell, not a blank")
    func highlightedCell() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        var picture = try PNGFile.decode(Array(try Data(contentsOf: SudokuScanCommandTests.fixture)))
        // Row 1, column 1's inside (its 3) inverted.
        for y in 23..<64 {
            for x in 23..<64 {
                for channel in 0..<3 { picture.rgba[(y * picture.width + x) * 4 + channel] = 255 - picture.rgba[(y * picture.width + x) * 4 + channel] }
            }
        }
        let file = directory.appendingPathComponent("selected.png")
        try Self.write(picture, to: file)
        let result = try GridlockBinary.run(["scan", file.path])
        #expect(result.status == 1 && result.stderr.contains("selected.png: row 1, column 1: ink in the cell's middle that reads as no mark"), "\(result.stdout)\(result.stderr)")
    }

    @Test("black ink drawn in the alpha channel reads as on white paper")
    func inkInAlpha() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        var picture = try PNGFile.decode(Array(try Data(contentsOf: SudokuScanCommandTests.fixture)))
        for at in stride(from: 0, to: picture.rgba.count, by: 4) {
            let darkness = 255 - Int(picture.rgba[at + 1])
            (picture.rgba[at], picture.rgba[at + 1], picture.rgba[at + 2], picture.rgba[at + 3]) = (0, 0, 0, UInt8(darkness))
        }
        let file = directory.appendingPathComponent("alpha.png")
        try Self.write(picture, to: file)
        let result = try GridlockBinary.run(["scan", file.path])
        #expect(result.status == 0 && result.stdout == SudokuScanCommandTests.printed + "\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("the overlay is never written over the image being scanned")
    func overlayOverItself() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let board = try ScanCommandTests.rendered(ScanCommandTests.board, in: directory, name: "b.png")
        let before = try Data(contentsOf: board)
        let result = try GridlockBinary.run(["scan", board.path, "--debug-overlay", board.path])
        #expect(result.status == 64 && result.stderr.contains("is the image being scanned: the overlay would overwrite it"), "\(result.stderr)")
        #expect(try Data(contentsOf: board) == before)
    }

    @Test("a puzzle read from a pipe keeps its first bytes (only regular files are looked into for a picture)")
    func pipe() throws {
        let (status, text) = try Self.bash(#""$0" solve <(printf '%s\n' ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo)"#, GridlockBinary.url.path)
        #expect(status == 0 && text.contains("solved in 23 moves"), "\(text)")
    }

    @Test("a JPEG cut short is refused, not read with the rest of its picture grey; one missing only its end marker is read")
    func truncatedJPEG() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let board = try ScanCommandTests.rendered(ScanCommandTests.board, in: directory, name: "b.png")
        let picture = try PNGFile.decode(Array(try Data(contentsOf: board)))
        let jpeg = try ImageFile.encodeJPEG(width: picture.width, height: picture.height, rgba: picture.rgba, quality: 90)
        let whole = directory.appendingPathComponent("whole.jpg"), cut = directory.appendingPathComponent("cut.jpg")
        // Some cameras leave out the end marker (FF D9) though every pixel is there: read.
        let unended = directory.appendingPathComponent("unended.jpg")
        try Data(jpeg).write(to: whole)
        try Data(jpeg.prefix(jpeg.count * 3 / 5)).write(to: cut)
        #expect(jpeg.suffix(2) == [0xFF, 0xD9])
        try Data(jpeg.dropLast(2)).write(to: unended)
        let result = try GridlockBinary.run(["scan", whole.path, cut.path, unended.path, "--kind", "rushhour"])
        #expect(result.status == 1 && result.stdout == ScanCommandTests.board + "\n" + ScanCommandTests.board + "\n", "\(result.status) \(result.stdout)")
        #expect(result.stderr.contains("cut.jpg: libjpeg could not read the image: the file ends before the picture does"), "\(result.stderr)")
    }

    @Test("a JPEG in print colours (CMYK) is refused in words, not in libjpeg's")
    func cmykJPEG() throws {
        let result = try GridlockBinary.run(["scan", "Tests/Fixtures/pictures/cmyk.jpg"])
        #expect(result.status == 1 && result.stderr.contains("cmyk.jpg: libjpeg could not read the image: the JPEG holds print colours (CMYK)"), "\(result.stderr)")
    }

    @Test("a file whose name is not UTF-8 is named as such, in a folder and as an argument, not as missing")
    func nameNotUTF8() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let board = try ScanCommandTests.rendered(ScanCommandTests.board, in: directory, name: "b.png")
        // Swift's strings cannot hold the name: the shell makes it, from a Latin-1 "é".
        let (status, text) = try Self.bash(
            #"cp "$1" "$2/caf$(printf '\351').png" && "$0" scan "$2" && exit 9; "$0" solve "$2/caf$(printf '\351').png""#,
            GridlockBinary.url.path, board.path, directory.path)
        #expect(status == 64, "\(text)")
        // Both the folder's scan and solve's argument say why the file cannot be opened.
        let why = "it does not exist under that name: bytes of the name that are not UTF-8"
        #expect(text.components(separatedBy: why).count == 3, "\(text)")
    }
}
