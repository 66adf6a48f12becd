// Where the board's frame is found, to a fraction of a pixel, and how faint a frame may be:
// blocks' ends can be gaps of two pixels, so a grid a pixel off reads them on one side of its
// tiles only; and a dark theme's frame can be a shade off its tray.

import Foundation
import GridlockCore
import Testing
@testable import GridlockScan

@Suite struct BoardEdgeTests {
    /// A light rectangle on a dark ground, its sides at fractional positions, blurred as a
    /// scaled screenshot is.
    static func rectangle(left: Double, top: Double, right: Double, bottom: Double, ground: RGB, inside: RGB, sigma: Double) -> RGBAImage {
        let size = 240, scale = 8
        // Painted 8 times finer, then averaged down: a side between two pixels is a pixel of
        // mixed colour, as in a picture scaled down.
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        for y in 0..<size {
            for x in 0..<size {
                var covered = 0
                for sy in 0..<scale {
                    for sx in 0..<scale {
                        let px = Double(x) + (Double(sx) + 0.5) / Double(scale), py = Double(y) + (Double(sy) + 0.5) / Double(scale)
                        if px >= left, px < right, py >= top, py < bottom { covered += 1 }
                    }
                }
                let share = Double(covered) / Double(scale * scale)
                let at = (y * size + x) * 4
                pixels[at] = UInt8((Double(ground.red) * (1 - share) + Double(inside.red) * share).rounded())
                pixels[at + 1] = UInt8((Double(ground.green) * (1 - share) + Double(inside.green) * share).rounded())
                pixels[at + 2] = UInt8((Double(ground.blue) * (1 - share) + Double(inside.blue) * share).rounded())
                pixels[at + 3] = 255
            }
        }
        return Capture.gaussianBlurred(RGBAImage(width: size, height: size, pixels: pixels), sigma: sigma)
    }

    @Test("each side of the frame is placed within a quarter pixel of where it lies, blurred or not", arguments: [0.0, 0.8, 1.5])
    func sidesToAFractionOfAPixel(sigma: Double) {
        let (left, top, right, bottom) = (40.3, 51.7, 200.5, 211.2)
        let image = Self.rectangle(left: left, top: top, right: right, bottom: bottom, ground: RGB(30, 60, 40), inside: RGB(150, 210, 150), sigma: sigma)
        // Where BoardFinder's lines put it: each side's band of edge pixels, its middle rounded down.
        let rough = BoardGrid(left: 39, top: 50, right: 199, bottom: 210, columns: 6, rows: 6, score: 1)
        let refined = rough.refined(EdgeMap(image))
        for (found, truth, side) in [(refined.left, left, "left"), (refined.top, top, "top"), (refined.right, right, "right"), (refined.bottom, bottom, "bottom")] {
            #expect(abs(found - truth) <= 0.25, "\(side): \(found), where it lies at \(truth)")
        }
    }

    @Test("a faint frame's side stays on the frame, not on a car's strong edge a few pixels inside it")
    func faintSideBesideACar() {
        let (left, top, right, bottom) = (40.0, 50.0, 200.0, 210.0)
        // Dark mode: the frame 44 off the tray; a light car 4 pixels inside the top side,
        // along most of it.
        var image = Self.rectangle(left: left, top: top, right: right, bottom: bottom, ground: RGB(47, 49, 41), inside: RGB(30, 32, 31), sigma: 0)
        image.fill(x0: 45, y0: 54, x1: 190, y1: 80, colour: RGB(143, 189, 197))
        image = Capture.gaussianBlurred(image, sigma: 0.8)
        let rough = BoardGrid(left: 39, top: 49, right: 199, bottom: 209, columns: 6, rows: 6, score: 1)
        let refined = rough.refined(EdgeMap(image, threshold: EdgeMap.faintThreshold))
        #expect(abs(refined.top - top) <= 0.5, "top: \(refined.top), where the frame's side lies at \(top) and the car's at 54")
    }

    @Test("no change near a side leaves it where it was found")
    func noEdgeNoMove() {
        let flat = RGBAImage(width: 100, height: 100, pixels: [UInt8](repeating: 128, count: 100 * 100 * 4))
        let grid = BoardGrid(left: 20, top: 20, right: 80, bottom: 80, columns: 3, rows: 3, score: 1)
        #expect(grid.refined(EdgeMap(flat)) == grid)
    }

    @Test("a frame a shade off its tray, as a dark theme draws it, is found at the fainter bar")
    func faintFrame() throws {
        let puzzle = try RushHourPuzzle.parseDatabaseLine(RushHourScanRuleTests.board)
        var random = SplitMix64(seed: 22)
        let image = StyledBoard.paint(puzzle, style: .darkMode, tile: 40, random: &random)
        let edges = EdgeMap(image)
        // At the usual bar the frame's inside is no edge: no board.
        #expect(try BoardFinder.find(in: edges) == nil)
        let attempt = RushHourScanner.attempt(in: image, edges: edges)
        let board = try #require(attempt.board, "no board found at the fainter bar: \(attempt.reading)")
        #expect(board.columns == 6 && board.rows == 6, "\(board)")
    }
}
