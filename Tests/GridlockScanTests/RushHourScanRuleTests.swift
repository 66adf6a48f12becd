// The Rush Hour reader's rules one at a time, on a board painted by the tests' painter and then
// changed where the rule looks: each change must turn a right reading into the refusal that
// rule gives, naming the tile from 0 as every message does, or into the reading it implies.

import GridlockCore
@testable import GridlockScan
import Testing

@Suite("Rush Hour scanning rules")
struct RushHourScanRuleTests {
    /// A full board (a board's grid is found from its blocks' edges): empty at (0, 0), (0, 1),
    /// (1, 1), (2, 5), (3, 0), (3, 2), (3, 3), (4, 0), (5, 0), (5, 5).
    static let board = "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo"

    static func painted() throws -> (RGBAImage, BoardGrid) {
        let painter = PaintedBoard(tile: 48, random: SplitMix64(seed: 3), roundedCorners: false, stripes: false, phone: false)
        let image = painter.paint(try RushHourPuzzle.parseDatabaseLine(board))
        let board = try #require(try BoardFinder.find(in: EdgeMap(image)))
        return (image, board)
    }

    /// The board with `character` at `index`, as the scan must give it back.
    static func board(with character: Character, at index: Int) -> String {
        var characters = Array(board)
        characters[index] = character
        return String(characters)
    }

    /// Why the scan refused the picture; nil where it read a board.
    static func refusal(_ image: RGBAImage) -> String? {
        guard case .failure(let error) = RushHourScanner.scan(image) else { return nil }
        return error.description
    }

    /// A square block's face painted into tile (row, column), inset as the painter insets.
    static func paintBlock(_ image: inout RGBAImage, _ board: BoardGrid, row: Int, column: Int, colour: RGB) {
        let inset = board.tile * 0.1
        let x0 = board.left + Double(column) * board.tileWidth + inset, y0 = board.top + Double(row) * board.tileHeight + inset
        image.fill(x0: Int(x0), y0: Int(y0), x1: Int(x0 + board.tileWidth - 2 * inset), y1: Int(y0 + board.tileHeight - 2 * inset), colour: colour)
    }

    @Test("the painted board reads back, every tile sure")
    func paintedBoardReads() throws {
        let (image, _) = try Self.painted()
        let scanned = try RushHourScanner.scan(image).get()
        #expect(scanned.puzzle.databaseBoard == Self.board)
        // Every sign agrees on a clean painting: no tile is read on one weak sign alone.
        #expect(scanned.confidence.cells.joined().min() ?? 0 >= 0.9, "\(scanned.confidence)")
        #expect(scanned.confidence.chute > 0.5 && scanned.confidence.prisoner > 0.5, "\(scanned.confidence)")
    }

    @Test("a lone coloured tile is no fixed block: refused, naming row 1, column 1 (from 0)")
    func colouredLoneTile() throws {
        var (image, board) = try Self.painted()
        Self.paintBlock(&image, board, row: 1, column: 1, colour: RGB(0x1E, 0x63, 0xD6))
        let error = try #require(Self.refusal(image), "a coloured lone tile read as a board")
        #expect(error.hasPrefix("row 1, column 1: a lone tile of colour"), "\(error)")
    }

    @Test("a lone grey tile with its ends seen is a fixed block; a tile of a block's colour with no end is refused")
    func greyLoneTile() throws {
        var (image, board) = try Self.painted()
        Self.paintBlock(&image, board, row: 3, column: 2, colour: RGB(0x4C, 0x4C, 0x50))
        let scanned = try RushHourScanner.scan(image).get()
        #expect(scanned.puzzle.databaseBoard == Self.board(with: "x", at: 3 * 6 + 2), "\(scanned.grid)")
        // Grey filling three empty tiles edge to edge (column 0, rows 3-5): a block's colour
        // with no end of a block on any side, where the board's other blocks all show theirs.
        let x0 = board.left, y0 = board.top + 3 * board.tileHeight
        image.fill(x0: Int(x0), y0: Int(y0), x1: Int(x0 + board.tileWidth), y1: Int(y0 + 3 * board.tileHeight), colour: RGB(0x4C, 0x4C, 0x50))
        let error = try #require(Self.refusal(image), "tiles of a block's colour with no ends read as a board")
        #expect(error.contains("but with no end of a block seen on any side"), "\(error)")
    }

    @Test("grey filling one empty tile edge to edge, no end seen, is refused, not taken for a fixed block")
    func greyFillWithoutEnds() throws {
        var (image, board) = try Self.painted()
        // Tile (0, 0) is empty: a grey marker, a notification dot or a sticker there.
        image.fill(
            x0: Int(board.left.rounded()), y0: Int(board.top.rounded()),
            x1: Int((board.left + board.tileWidth).rounded()), y1: Int((board.top + board.tileHeight).rounded()), colour: RGB(0x4C, 0x4C, 0x50))
        let error = try #require(Self.refusal(image), "a grey fill with no block's end read as a fixed block")
        #expect(error.hasPrefix("row 0, column 0:"), "\(error)")
    }

    @Test("a white block outlined in black on a white tray is a block, not the tray")
    func outlinedOnItsOwnColour() throws {
        var (image, board) = try Self.painted()
        let tray = RushHourScanner.trayColours(board, image)[0]
        // A horizontal car of the tray's own colour at row 3, columns 2-3, outlined 2 pixels
        // thick.
        let inset = board.tile * 0.1
        let x0 = Int(board.left + 2 * board.tileWidth + inset), x1 = Int(board.left + 4 * board.tileWidth - inset)
        let y0 = Int(board.top + 3 * board.tileHeight + inset), y1 = Int(board.top + 4 * board.tileHeight - inset)
        image.fill(x0: x0, y0: y0, x1: x1, y1: y1, colour: RGB(20, 20, 20))
        image.fill(x0: x0 + 2, y0: y0 + 2, x1: x1 - 2, y1: y1 - 2, colour: tray)
        // Read as the painted board with that car added, and nothing else changed: a refusal
        // would pass a test that only forbade reading the car as the tray.
        let reading = try RushHourScanner.scan(image).get()
        var characters = Array(Self.board)
        (characters[3 * 6 + 2], characters[3 * 6 + 3]) = ("N", "N")
        let expected = try RushHourPuzzle.parseDatabaseLine(String(characters))
        #expect(ScanAccuracyTests.shape(reading.puzzle) == ScanAccuracyTests.shape(expected), "\(reading.grid)")
    }

    @Test("blocks drawn flush with their tiles, no end showing, are refused, never read by colour alone")
    func flushBlocksRefused() throws {
        var (image, board) = try Self.painted()
        // Each tile of a block filled edge to edge with its face's colour: no block shows an
        // end, and neighbouring tiles of one car are one patch of colour.
        let sides = (0..<board.rows).map { row in (0..<board.columns).map { TileSides(board, row: row, column: $0, image: image) } }
        let tray = sides[0][0].face
        for row in 0..<board.rows {
            for column in 0..<board.columns where sides[row][column].face.distance(to: tray) > 60 {
                let x0 = board.left + Double(column) * board.tileWidth, y0 = board.top + Double(row) * board.tileHeight
                image.fill(x0: Int(x0.rounded()), y0: Int(y0.rounded()), x1: Int((x0 + board.tileWidth).rounded()), y1: Int((y0 + board.tileHeight).rounded()), colour: sides[row][column].face)
            }
        }
        let error = try #require(Self.refusal(image), "a board of flush blocks read by colour")
        #expect(error.contains("drawn flush with their tiles"), "\(error)")
    }
}
