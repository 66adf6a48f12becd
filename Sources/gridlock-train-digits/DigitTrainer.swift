// The examples of the digit reader: each digit of each font, drawn at several sizes (a small
// size's pixels round strokes otherwise than a large one's), with near-duplicates dropped.

import FontRaster
import GridlockDigits

enum DigitTrainer {
    /// Ems in pixels: from a small phone photo's cells to a large print's.
    static let sizes = [13, 17, 23, 31, 44, 64]
    /// Two examples of one digit nearer than this (mean squared difference per feature) are
    /// one: the smaller model reads as well, faster.
    static let duplicateDistance = 60

    static func train(fonts: [String], warn: (String) -> Void) -> DigitModel {
        var examples: [DigitModel.Example] = []
        for path in fonts {
            do {
                let face = try FontFace(path: path)
                for digit in 1...9 {
                    for size in sizes {
                        guard let glyph = try face.glyph(Character(String(digit)), pixels: size) else {
                            warn("\(path) has no glyph for \(digit)")
                            continue
                        }
                        let patch = InkPatch(width: glyph.width, height: glyph.height, ink: glyph.coverage)
                        guard let features = DigitFeatures.of(patch) else { continue }
                        let example = DigitModel.Example(digit: UInt8(digit), features: features)
                        if !examples.contains(where: { $0.digit == example.digit && meanSquaredDifference($0.features, features) < duplicateDistance }) {
                            examples.append(example)
                        }
                    }
                }
            } catch {
                warn("\(error)")
            }
        }
        return DigitModel(examples: examples)
    }

    static func meanSquaredDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { sum, pair in let d = Int(pair.0) - Int(pair.1); return sum + d * d } / a.count
    }
}
