// Each rule of the Sudoku scanner on a picture made to break it: no grid, a square with no
// lines inside, ink away from a cell's middle, digits too small to be sure of, a digit twice in
// a unit; the reader itself, trained when the package was built; and grids gridlock's own
// `render` drew.

import FontRaster
import GridlockCore
import GridlockDigitModel
import GridlockDrawing
import ImageFile
@testable import GridlockDigits
@testable import GridlockScan
import Testing

@Suite("Sudoku scanning rules")
struct SudokuScanRuleTests {
    static let line = "3..41....516.3...........7..5...23.1.........6.17...4..8...........9.465....73..8"

    static func printed(_ line: String = line, cell: Int = 40, digitScale: Double = 0.7) throws -> RGBAImage {
        var random = SplitMix64(seed: 3)
        var style = PrintedSudoku(random: &random)
        style.cell = cell
        style.digitScale = digitScale
        style.paper = RGB(255, 255, 255)
        style.ink = RGB(0, 0, 0)
        return try style.print(line, in: try SudokuScanAccuracyTests.face("truetype/dejavu/DejaVuSans.ttf"), random: &random)
    }

    static func error(_ result: Result<ScannedSudoku, ScanError>) -> ScanError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test("the reader was trained when the package was built, and reads its fonts' digits surely")
    func trainedReader() throws {
        #expect(TrainedDigitModel.fontFiles.count >= 20 && TrainedDigitModel.model.examples.count > 500)
        for font in ["truetype/dejavu/DejaVuSerif.ttf", "truetype/liberation/LiberationSans-Bold.ttf"] {
            let face = try SudokuScanAccuracyTests.face(font)
            for digit in 1...9 {
                let glyph = try #require(try face.glyph(Character(String(digit)), pixels: 40))
                let features = try #require(DigitFeatures.of(InkPatch(width: glyph.width, height: glyph.height, ink: glyph.coverage)))
                let reading = try #require(TrainedDigitModel.model.read(features))
                #expect(reading.digit == digit && reading.confident, "\(font) \(digit): \(reading)")
            }
        }
        // An empty model reads nothing, and the scanner says what to install; but only once a
        // grid is found: a picture with none is still "no grid", so auto scanning goes on to
        // look for a Rush Hour board.
        let empty = Self.error(SudokuScanner.scan(try Self.printed(), model: DigitModel(examples: [])))
        #expect(empty?.description.contains("fonts-dejavu-core") == true && empty?.noGrid == false)
        let blank = RGBAImage(width: 300, height: 300, pixels: [UInt8](repeating: 255, count: 300 * 300 * 4))
        #expect(Self.error(SudokuScanner.scan(blank, model: DigitModel(examples: [])))?.noGrid == true)
    }

    @Test("a picture with no grid, and a square with no lines inside, are no grid; auto scanning then looks for a board")
    func noGrid() throws {
        let blank = RGBAImage(width: 300, height: 300, pixels: [UInt8](repeating: 255, count: 300 * 300 * 4))
        let none = try #require(Self.error(SudokuScanner.scan(blank)))
        #expect(none.noGrid && none.description.contains("no Sudoku grid found"))
        var square = blank
        square.fill(x0: 20, y0: 20, x1: 280, y1: 24, colour: RGB(0, 0, 0))
        square.fill(x0: 20, y0: 276, x1: 280, y1: 280, colour: RGB(0, 0, 0))
        square.fill(x0: 20, y0: 20, x1: 24, y1: 280, colour: RGB(0, 0, 0))
        square.fill(x0: 276, y0: 20, x1: 280, y1: 280, colour: RGB(0, 0, 0))
        let empty = try #require(Self.error(SudokuScanner.scan(square)))
        #expect(empty.noGrid && empty.description.contains("has no lines where nine equal cells put them"), "\(empty)")
    }

    @Test("ink in a cell's corner is an error naming the cell, not a blank")
    func strayInk() throws {
        var image = try Self.printed()
        let found = try #require(try? SudokuScanner.scan(image).get())
        let cell = found.lines.cell(row: 4, column: 4)
        image.fill(x0: cell.x0 + 3, y0: cell.y0 + 3, x1: cell.x0 + 12, y1: cell.y0 + 12, colour: RGB(0, 0, 0))
        let error = try #require(Self.error(SudokuScanner.scan(image)))
        #expect(error.description == "row 5, column 5: ink away from the cell's middle, neither a digit nor blank", "\(error)")
    }

    @Test("a digit under 8 pixels tall is flagged, one under 10 needs a clearer reading; a grid of digits under 8 is refused, since a blank could hide one")
    func tinyDigits() throws {
        let sure = DigitModel.Reading(digit: 7, distance: 100, alternative: 1, alternativeDistance: 150, confident: true)
        #expect(SudokuScanner.doubt(sure, height: 10) == nil)
        #expect(SudokuScanner.doubt(sure, height: 9) == "but it could be 1 (at 9 pixels tall, a digit must be read more clearly)")
        var clear = sure
        clear.alternativeDistance = 170
        #expect(SudokuScanner.doubt(clear, height: 8) == nil)
        #expect(SudokuScanner.doubt(clear, height: 7) == "but it is only 7 pixels tall (8 are needed to be sure)")
        var unsure = sure
        unsure.confident = false
        #expect(SudokuScanner.doubt(unsure, height: 20) == "but it could be 1")
        let error = try #require(Self.error(SudokuScanner.scan(try Self.printed(cell: 14, digitScale: 0.55))))
        #expect(error.description.hasPrefix("the digits are about ") && error.description.hasSuffix("pixels tall, too small to read surely (8 are needed): use a larger picture"), "\(error)")
        let large = try SudokuScanner.scan(try Self.printed(cell: 40)).get()
        #expect(large.line == Self.line && large.uncertain.isEmpty)
    }

    @Test("a digit twice in a row, a column or a box flags both cells; cells apart share nothing")
    func repeatedDigits() {
        var digits = [Int](repeating: 0, count: 81)
        digits[0] = 5; digits[8] = 5   // row 1
        digits[10] = 7; digits[73] = 7 // column 2
        digits[30] = 2; digits[50] = 2 // box 5
        digits[40] = 9; digits[80] = 9 // nothing shared
        let pairs = SudokuScanner.repeatedDigits(digits)
        #expect(Set(pairs.map(\.0)) == [0, 8, 10, 73, 30, 50])
        #expect(SudokuScanner.unitName(0, 8) == "row" && SudokuScanner.unitName(10, 73) == "column" && SudokuScanner.unitName(30, 50) == "box")
        #expect(SudokuScanner.unitName(40, 80).isEmpty)
    }

    @Test("a grid drawn by gridlock's own render (light 1-pixel lines, a pixel font) reads back exactly, nothing flagged, at scales 1 to 3 and as a JPEG")
    func renderedGrids() throws {
        for (index, line) in try SudokuScanAccuracyTests.grids(6).enumerated() {
            let givens = line.map { UInt8($0.wholeNumberValue ?? 0) }
            let scene = BoardScene.scene(.sudoku(givens: givens, cells: givens, boxSide: 3), title: "")
            let scale = [1.0, 1.5, 2, 3, 1.25, 2.5][index]
            let raster = Raster(scene, scale: scale)
            var pictures = [("PNG", RGBAImage(width: raster.width, height: raster.height, overWhite: raster.pixels))]
            if index % 2 == 0 {
                let jpeg = try ImageFile.encodeJPEG(width: raster.width, height: raster.height, rgba: raster.pixels, quality: 75)
                let decoded = try ImageFile.decode(jpeg)
                pictures.append(("JPEG 75", RGBAImage(width: decoded.width, height: decoded.height, overWhite: decoded.rgba)))
            }
            for (format, picture) in pictures {
                switch SudokuScanner.scan(picture) {
                case .success(let scanned):
                    #expect(scanned.line == line && scanned.uncertain.isEmpty, "scale \(scale), \(format): \(scanned.line), flagged \(scanned.uncertain)")
                case .failure(let error):
                    Issue.record("scale \(scale), \(format): \(error)")
                }
            }
        }
    }
}
