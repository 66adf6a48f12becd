// The examples of the digit reader: each digit of each font, drawn at several sizes (a small
// size's pixels round strokes otherwise than a large one's), with near-duplicates dropped; and
// gridlock's own pixel font, so that a picture `gridlock render` drew reads back.

import FontRaster
import GridlockDigits
import GridlockDrawing

enum DigitTrainer {
    /// Ems in pixels: from a small phone photo's cells to a large print's.
    static let sizes = [13, 17, 23, 31, 44, 64]
    /// Two examples of one digit nearer than this (mean squared difference per feature) are
    /// one: the smaller model reads as well, faster.
    static let duplicateDistance = 60

    static func train(fonts: [String], warn: (String) -> Void) -> DigitModel {
        var examples: [DigitModel.Example] = []
        func add(_ digit: Int, _ patch: InkPatch) {
            guard let features = DigitFeatures.of(patch) else { return }
            let example = DigitModel.Example(digit: UInt8(digit), features: features)
            if !examples.contains(where: { $0.digit == example.digit && meanSquaredDifference($0.features, features) < duplicateDistance }) {
                examples.append(example)
            }
        }
        for path in fonts {
            do {
                let face = try FontFace(path: path)
                for digit in 1...9 {
                    for size in sizes {
                        guard let glyph = try face.glyph(Character(String(digit)), pixels: size) else {
                            warn("\(path) has no glyph for \(digit)")
                            continue
                        }
                        add(digit, InkPatch(width: glyph.width, height: glyph.height, ink: glyph.coverage))
                    }
                }
            } catch {
                warn("\(error)")
            }
        }
        // Only beside fonts: a model of the pixel font alone would read printed grids badly,
        // where an empty one says which fonts to install.
        if !examples.isEmpty {
            for (digit, patch) in pixelFontDigits() { add(digit, patch) }
        }
        return DigitModel(examples: examples)
    }

    /// The digits as `render` draws a Sudoku's (GridlockDrawing's pixel font, plain and bold),
    /// drawn by the same Raster: its 3 has a flat top, nearer a 5 of the outline fonts than
    /// their own 3s (every 3 of a rendered grid was read in doubt without these).
    static func pixelFontDigits() -> [(digit: Int, patch: InkPatch)] {
        var digits: [(Int, InkPatch)] = []
        for digit in 1...9 {
            for size in [14.0, 21, 28, 42] {
                for bold in [false, true] {
                    let side = Int(size) * 2
                    let label = Shape.label(String(digit), centreX: Double(side) / 2, centreY: Double(side) / 2, size: size, colour: Colour(0, 0, 0), bold: bold)
                    let raster = Raster(Scene(width: Double(side), height: Double(side), background: Colour(255, 255, 255), shapes: [label], title: ""))
                    let ink = (0..<(side * side)).map { 255 - raster.colour(x: $0 % side, y: $0 / side).red }
                    digits.append((digit, InkPatch(width: side, height: side, ink: ink)))
                }
            }
        }
        return digits
    }

    static func meanSquaredDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { sum, pair in let d = Int(pair.0) - Int(pair.1); return sum + d * d } / a.count
    }
}
