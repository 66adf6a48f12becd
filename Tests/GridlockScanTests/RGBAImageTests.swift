// Shrinking a picture before it is read: each square of pixels averaged, as a plain loop over
// `mean` would average it.

import GridlockCore
@testable import GridlockScan
import Testing

@Suite struct RGBAImageTests {
    @Test("reduced averages each factor x factor square, drops the ragged edge, and leaves a small picture as it is", arguments: [2, 3, 127])
    func reduced(factor: Int) {
        var random = SplitMix64(seed: UInt64(factor))
        // Ragged edges of factor - 1 columns and 2 rows; one factor less would leave 8 columns.
        let width = 8 * factor - 1, height = 5 * factor + 2
        let image = RGBAImage(width: width, height: height, pixels: (0..<(width * height * 4)).map { _ in UInt8(random.below(256)) })
        #expect(image.reductionFactor(toAtMost: (width / factor) * (height / factor)) == factor)
        let small = image.reduced(toAtMost: (width / factor) * (height / factor))
        #expect(small.width == width / factor && small.height == height / factor)
        for y in 0..<small.height {
            for x in 0..<small.width {
                let expected = image.mean(x0: x * factor, y0: y * factor, x1: (x + 1) * factor, y1: (y + 1) * factor)
                #expect(small.colour(x, y) == expected, "(\(x), \(y))")
            }
        }
        #expect(image.reduced(toAtMost: width * height).pixels == image.pixels)
    }

    @Test("the multiply-and-shift division equals the integer division for every channel sum, up to the largest factor it serves and past it")
    func exactDivision() {
        // Every sum for the factors a picture is shrunk by in practice (areas up to 40,000),
        // and the ends and a spread for the largest areas, both sides of the multiply's limit.
        for divisor in Array(1...400) + (1...200).map({ $0 * $0 }) {
            let divide = ExactDivision(by: divisor)
            for n in 0...(255 * divisor) where divide(n) != n / divisor {
                Issue.record("\(n) / \(divisor): \(divide(n)), not \(n / divisor)")
                return
            }
        }
        for divisor in [16_384, 65_536, 65_664, 65_665, 66_049, 1_000_000] {
            let divide = ExactDivision(by: divisor)
            for n in stride(from: 0, through: 255 * divisor, by: 997) + [255 * divisor, 255 * divisor - 1, divisor - 1, divisor] {
                #expect(divide(n) == n / divisor, "\(n) / \(divisor)")
            }
        }
    }
}

@Suite("straightening a turned picture")
struct DeskewTests {
    /// A frame of level lines on white, with a few blocks.
    static func framed() -> RGBAImage {
        var canvas = Canvas(width: 400, height: 400, colour: RGB(255, 255, 255))
        canvas.fill(60, 60, 340, 340, RGB(40, 40, 60))
        canvas.fill(80, 80, 320, 320, RGB(220, 220, 220))
        canvas.fill(90, 90, 200, 140, RGB(200, 30, 30))
        return canvas.halved()
    }

    @Test("the turn measured is the turn given, either way, and a level picture is left")
    func measuredTurn() {
        let level = Self.framed()
        #expect(Deskew.angle(of: level) == 0)
        for degrees in [-3.0, -1.5, 1.0, 2.5] {
            let turned = Deskew.rotated(level, by: degrees * .pi / 180)
            let measured = Deskew.angle(of: turned) * 180 / .pi
            #expect(abs(measured - degrees) <= 0.3, "turned \(degrees) degrees, measured \(measured)")
        }
    }
}
