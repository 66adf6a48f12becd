// A picture turned a little (a screenshot rotated, a phone held askew) straightened before the
// board is looked for: BoardFinder finds a frame of level lines only. The turn is the one that
// most of the picture's strong edges share, within a few degrees of level: a board's frame and
// its blocks' sides are long straight edges, all at one angle; text, icons and noise spread
// over every angle and raise no peak.

import Foundation

enum Deskew {
    /// The largest turn looked for, in degrees: more is a picture taken sideways, not askew.
    static let widest = 6.0
    /// Turns smaller than this, in degrees, are left: BoardFinder takes a line that drifts a
    /// pixel or two over its length.
    static let least = 0.25

    /// The picture's turn in radians (positive: its level lines go down to the right), or 0
    /// when no angle stands out.
    static func angle(of image: RGBAImage) -> Double {
        let bins = Int(widest * 2 / 0.1) + 1
        var histogram = [Double](repeating: 0, count: bins)
        let width = image.width, height = image.height
        guard width >= 8, height >= 8 else { return 0 }
        image.pixels.withUnsafeBufferPointer { pixels in
            @inline(__always) func grey(_ x: Int, _ y: Int) -> Int {
                let at = (y &* width &+ x) &* 4
                return Int(pixels[at]) &+ Int(pixels[at &+ 1]) &+ Int(pixels[at &+ 2])
            }
            let step = max(1, Int((Double(width * height) / 400_000).squareRoot()))
            for y in stride(from: 1, to: height - 1, by: step) {
                for x in stride(from: 1, to: width - 1, by: step) {
                    // Sobel, on the channels' sum.
                    let gx = (grey(x + 1, y - 1) + 2 * grey(x + 1, y) + grey(x + 1, y + 1)) - (grey(x - 1, y - 1) + 2 * grey(x - 1, y) + grey(x - 1, y + 1))
                    let gy = (grey(x - 1, y + 1) + 2 * grey(x, y + 1) + grey(x + 1, y + 1)) - (grey(x - 1, y - 1) + 2 * grey(x, y - 1) + grey(x + 1, y - 1))
                    let magnitude = abs(gx) + abs(gy)
                    guard magnitude >= 240 else { continue }
                    // The edge's normal, folded onto the nearest axis: a level edge and an
                    // upright one turned alike give the same angle.
                    var degrees = atan2(Double(gy), Double(gx)) * 180 / .pi
                    degrees = degrees - 90 * (degrees / 90).rounded()
                    guard abs(degrees) <= widest else { continue }
                    histogram[Int(((degrees + widest) / 0.1).rounded())] += Double(magnitude)
                }
            }
        }
        // Smoothed over half a degree: Sobel's angle of one edge spreads that much.
        let smoothed = histogram.indices.map { index in
            (max(0, index - 2)...min(bins - 1, index + 2)).map { histogram[$0] }.reduce(0, +)
        }
        guard let peak = smoothed.indices.max(by: { smoothed[$0] < smoothed[$1] }), smoothed[peak] > 0 else { return 0 }
        // The peak must stand out of the spread: a picture of no straight edges has none.
        let mean = smoothed.reduce(0, +) / Double(bins)
        guard smoothed[peak] >= 3 * mean else { return 0 }
        let degrees = Double(peak) * 0.1 - widest
        return abs(degrees) < least ? 0 : degrees * .pi / 180
    }

    /// The picture turned by `angle` radians about its middle (bilinear), the same size: what
    /// turns in from past the edge is the nearest edge pixel's colour.
    static func rotated(_ image: RGBAImage, by angle: Double) -> RGBAImage {
        let width = image.width, height = image.height
        var out = [UInt8](repeating: 255, count: width * height * 4)
        let cosine = cos(angle), sine = sin(angle)
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    // The source of (x, y): turned back by the angle.
                    let dx = Double(x) - cx, dy = Double(y) - cy
                    let sx = min(max(cx + cosine * dx + sine * dy, 0), Double(width - 1))
                    let sy = min(max(cy - sine * dx + cosine * dy, 0), Double(height - 1))
                    let x0 = min(Int(sx), width - 2 < 0 ? 0 : width - 2), y0 = min(Int(sy), height - 2 < 0 ? 0 : height - 2)
                    let fx = sx - Double(x0), fy = sy - Double(y0)
                    let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                    let to = (y * width + x) * 4
                    for channel in 0..<3 {
                        let a = Double(pixels[(y0 * width + x0) * 4 + channel]), b = Double(pixels[(y0 * width + x1) * 4 + channel])
                        let c = Double(pixels[(y1 * width + x0) * 4 + channel]), d = Double(pixels[(y1 * width + x1) * 4 + channel])
                        let value = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
                        out[to + channel] = UInt8(max(0, min(255, value.rounded())))
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }

    /// The picture straightened, if it is turned.
    static func straightened(_ image: RGBAImage) -> RGBAImage {
        let angle = angle(of: image)
        return angle == 0 ? image : rotated(image, by: -angle)
    }
}
