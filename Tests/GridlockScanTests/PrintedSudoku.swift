// The tests' Sudoku printer: a grid drawn with FreeType's glyphs of a chosen font, in one of
// several styles (thin and thick lines or all alike, white, cream or grey paper, black or blue
// ink, digits of 55-85% of a cell, each moved by up to a pixel), so the scanner is measured on
// prints it was not written against, in fonts its reader was and was not trained on.

import FontRaster
import GridlockCore
import GridlockScan

struct PrintedSudoku {
    var cell: Int
    var thinLine: Int
    var thickLine: Int
    var paper: RGB
    var ink: RGB
    var digitScale: Double
    var margin: Int

    /// A style drawn at random.
    init(random: inout SplitMix64) {
        // Cells of 28-64 pixels: at half size, the smallest digit is still 8 pixels tall.
        cell = 28 + random.below(37)
        thinLine = 1 + random.below(2)
        // One grid in four draws every line alike, as some newspapers do.
        thickLine = random.below(4) == 0 ? thinLine : thinLine + 1 + random.below(3)
        paper = [RGB(255, 255, 255), RGB(246, 241, 226), RGB(228, 228, 228)][random.below(3)]
        ink = [RGB(0, 0, 0), RGB(30, 30, 30), RGB(20, 30, 110)][random.below(3)]
        digitScale = 0.55 + Double(random.below(31)) / 100
        margin = 8 + random.below(50)
    }

    /// `line`: 81 characters, `.` or `0` for a blank.
    func print(_ line: String, in face: FontFace, random: inout SplitMix64) throws -> RGBAImage {
        let digits = Array(line)
        let lineWidth = (0...9).map { $0 % 3 == 0 ? thickLine : thinLine }
        let gridSide = 9 * cell + lineWidth.reduce(0, +)
        let side = gridSide + 2 * margin
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        func blend(_ x: Int, _ y: Int, _ coverage: Int) {
            guard x >= 0, y >= 0, x < side, y < side, coverage > 0 else { return }
            let at = (y * side + x) * 4
            for (channel, value) in [(0, ink.red), (1, ink.green), (2, ink.blue)] {
                let old = Int(pixels[at + channel])
                pixels[at + channel] = UInt8((old * (255 - coverage) + value * coverage) / 255)
            }
        }
        for y in 0..<side {
            for x in 0..<side {
                let at = (y * side + x) * 4
                (pixels[at], pixels[at + 1], pixels[at + 2]) = (UInt8(paper.red), UInt8(paper.green), UInt8(paper.blue))
            }
        }
        // Where each line starts, and each cell.
        var lineStart: [Int] = []
        var position = margin
        for index in 0...9 {
            lineStart.append(position)
            position += lineWidth[index] + (index < 9 ? cell : 0)
        }
        for index in 0...9 {
            for offset in 0..<lineWidth[index] {
                for along in margin..<(margin + gridSide) {
                    blend(lineStart[index] + offset, along, 255)
                    blend(along, lineStart[index] + offset, 255)
                }
            }
        }
        let pixelsPerEm = max(8, Int(Double(cell) * digitScale))
        for row in 0..<9 {
            for column in 0..<9 {
                guard let digit = digits[row * 9 + column].wholeNumberValue, digit > 0 else { continue }
                guard let glyph = try face.glyph(Character(String(digit)), pixels: pixelsPerEm) else { continue }
                let cellX = lineStart[column] + lineWidth[column], cellY = lineStart[row] + lineWidth[row]
                let left = cellX + (cell - glyph.width) / 2 + random.below(3) - 1
                let top = cellY + (cell - glyph.height) / 2 + random.below(3) - 1
                for y in 0..<glyph.height {
                    for x in 0..<glyph.width { blend(left + x, top + y, Int(glyph.coverage[y * glyph.width + x])) }
                }
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels)
    }
}
