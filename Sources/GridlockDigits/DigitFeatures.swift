// What the digit reader compares: a mark's ink, cut to its bounds and scaled, keeping its
// shape's proportions, into a fixed square, then softened. Cutting to the bounds makes the
// reading independent of where the digit sits in its cell and of its size; keeping the
// proportions keeps a 1 narrow; the softening lets a stroke one pixel off still overlap.
//
// Tried and dropped: histograms of edge directions (4 x 4 regions, 8 directions) beside a
// coarse 10 x 10 ink map. They should not care how heavy a stroke is, but on fonts the reader
// never saw they misread 16 digits in 2,832 where plain ink misread 4.

public enum DigitFeatures {
    /// The square's side: large enough to tell 3 from 8 and 6 from 5 in bold fonts, small
    /// enough that a cell of 14 pixels still fills it.
    public static let side = 16
    public static let count = side * side

    /// Pixels count as ink from here (of 255) when the mark's bounds are taken.
    static let boundsThreshold: UInt8 = 80

    /// The features of a mark; nil when the patch holds no ink.
    public static func of(_ patch: InkPatch) -> [UInt8]? {
        guard let bounds = patch.inkBounds(threshold: boundsThreshold) else { return nil }
        let markWidth = bounds.x1 - bounds.x0, markHeight = bounds.y1 - bounds.y0
        // The longer side fills side - 2 pixels (one each side for the softening to spread into).
        let scale = Double(side - 2) / Double(max(markWidth, markHeight))
        let offsetX = (Double(side) - Double(markWidth) * scale) / 2, offsetY = (Double(side) - Double(markHeight) * scale) / 2
        // Each square pixel averages 4 x 4 samples of the mark, read bilinearly: a box filter,
        // so a large mark shrinks without losing thin strokes.
        var sharp = [Int](repeating: 0, count: count)
        let samples = 4
        for y in 0..<side {
            for x in 0..<side {
                var sum = 0
                for sy in 0..<samples {
                    let fy = (Double(y) + (Double(sy) + 0.5) / Double(samples) - offsetY) / scale + Double(bounds.y0) - 0.5
                    for sx in 0..<samples {
                        let fx = (Double(x) + (Double(sx) + 0.5) / Double(samples) - offsetX) / scale + Double(bounds.x0) - 0.5
                        sum += bilinear(patch, fx, fy, within: bounds)
                    }
                }
                sharp[y * side + x] = sum / (samples * samples)
            }
        }
        // Softened by a 3 x 3 tent (1 2 1), and stretched so the darkest reads 255: a faint
        // print and a black one compare alike.
        var soft = [Int](repeating: 0, count: count)
        var darkest = 1
        for y in 0..<side {
            for x in 0..<side {
                var sum = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let sx = x + dx, sy = y + dy
                        guard sx >= 0, sx < side, sy >= 0, sy < side else { continue }
                        sum += sharp[sy * side + sx] * (2 - abs(dx)) * (2 - abs(dy))
                    }
                }
                soft[y * side + x] = sum / 16
                darkest = max(darkest, sum / 16)
            }
        }
        return soft.map { UInt8(min(255, $0 * 255 / darkest)) }
    }

    /// The patch's ink at a point between pixels; none outside the mark's bounds, so that a
    /// neighbour's stray ink is not read with it.
    @inline(__always)
    private static func bilinear(_ patch: InkPatch, _ x: Double, _ y: Double, within bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Int {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Double(x0), fy = y - Double(y0)
        func at(_ px: Int, _ py: Int) -> Double {
            guard px >= bounds.x0, px < bounds.x1, py >= bounds.y0, py < bounds.y1 else { return 0 }
            return Double(patch[px, py])
        }
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
        let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        return Int((top * (1 - fy) + bottom * fy).rounded())
    }
}
