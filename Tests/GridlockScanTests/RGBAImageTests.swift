// Shrinking a picture before it is read: each square of pixels averaged, as a plain loop over
// `mean` would average it.

import GridlockCore
import GridlockScan
import Testing

@Suite struct RGBAImageTests {
    @Test("reduced averages each factor x factor square, drops the ragged edge, and leaves a small picture as it is", arguments: [2, 3])
    func reduced(factor: Int) {
        var random = SplitMix64(seed: UInt64(factor))
        let width = 7 * factor + 1, height = 5 * factor + 2
        let image = RGBAImage(width: width, height: height, pixels: (0..<(width * height * 4)).map { _ in UInt8(random.below(256)) })
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
}
