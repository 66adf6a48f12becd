// A plane-to-plane projective map (a 3x3 matrix, the last entry 1), solved from four point
// pairs, and a picture resampled through one. Points are in continuous picture coordinates:
// pixel (i, j) covers [i, i+1) x [j, j+1), its centre at (i + 0.5, j + 0.5).
//
//   u = (a x + b y + c) / (g x + h y + 1)       each pair gives two linear equations in the
//   v = (d x + e y + f) / (g x + h y + 1)       eight unknowns a...h; four pairs fix them.

import Foundation
import GridlockCore

/// Used both ways: the scanner rectifies a photographed board with one (FrameQuad), and the
/// tests' photos are drawn through one.
public struct Homography: Sendable {
    /// a, b, c, d, e, f, g, h, 1, row by row.
    public var m: [Double]

    public static let identity = Homography(m: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    public init(m: [Double]) {
        precondition(m.count == 9, "a homography has nine entries")
        self.m = m
    }

    /// The map taking each of `from` to the matching point of `to` (four pairs, no three of
    /// them on a line).
    public init(from: [(x: Double, y: Double)], to: [(x: Double, y: Double)]) {
        guard let map = Self.mapping(from, to) else { preconditionFailure("three of the four points lie on a line") }
        self = map
    }

    /// The map taking each of `from` to the matching point of `to`, by Gaussian elimination
    /// with partial pivoting; nil when three of the points lie on a line (or near enough).
    public static func mapping(_ from: [(x: Double, y: Double)], _ to: [(x: Double, y: Double)]) -> Homography? {
        guard from.count == 4 && to.count == 4 else { return nil }
        var rows: [[Double]] = []
        for (p, q) in zip(from, to) {
            rows.append([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x])
            rows.append([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y])
        }
        for column in 0..<8 {
            let pivot = (column..<8).max { abs(rows[$0][column]) < abs(rows[$1][column]) }!
            rows.swapAt(column, pivot)
            guard abs(rows[column][column]) > 1e-12 else { return nil }
            for row in 0..<8 where row != column {
                let factor = rows[row][column] / rows[column][column]
                if factor != 0 { for k in column..<9 { rows[row][k] -= factor * rows[column][k] } }
            }
        }
        return Homography(m: (0..<8).map { rows[$0][8] / rows[$0][$0] } + [1])
    }

    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let w = m[6] * x + m[7] * y + m[8]
        return ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
    }

    /// The point, where it lies in front of the projection's horizon: nil where the map's
    /// weight there is not above 0 (past the horizon a point comes back mirrored, from behind
    /// the camera) or the result is not finite.
    public func applyInFront(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let w = m[6] * x + m[7] * y + m[8]
        guard w > 1e-9 else { return nil }
        let point = ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
        return point.0.isFinite && point.1.isFinite ? point : nil
    }

    /// The inverse of an affine map (bottom row 0, 0, 1): a turn, a scale, a shift.
    public var inverseOfAffine: Homography {
        precondition(m[6] == 0 && m[7] == 0, "not an affine map")
        let det = m[0] * m[4] - m[1] * m[3]
        let a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det
        return Homography(m: [a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5]), 0, 0, 1])
    }

    /// This map after `first`: a point goes through `first`, then through this.
    public func after(_ first: Homography) -> Homography {
        var product = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                for k in 0..<3 { product[row * 3 + column] += m[row * 3 + k] * first.m[k * 3 + column] }
            }
        }
        return Homography(m: product.map { $0 / product[8] })
    }

    /// The picture of `width` x `height` whose each pixel shows the point `self` takes its
    /// centre to in `source` (so `self` maps the output back to the source), bilinearly with
    /// weights in 256ths; what falls outside the source is `background`, blended at the edge.
    public func resample(_ source: RGBAImage, width: Int, height: Int, background: RGB) -> RGBAImage {
        var out = [UInt8](repeating: 255, count: width * height * 4)
        let sw = source.width, sh = source.height
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let back = (UInt8(background.red), UInt8(background.green), UInt8(background.blue))
        source.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let src = src.baseAddress!, dst = dst.baseAddress!
                /// A source channel, or the background's past the edge.
                func tap(_ x: Int, _ y: Int, _ channel: Int) -> Int {
                    guard x >= 0, y >= 0, x < sw, y < sh else { return Int(channel == 0 ? back.0 : channel == 1 ? back.1 : back.2) }
                    return Int(src[(y * sw + x) * 4 + channel])
                }
                var y = 0
                while y < height {
                    let cy = Double(y) + 0.5
                    var x = 0, at = y * width * 4
                    while x < width {
                        let cx = Double(x) + 0.5
                        let q = g * cx + h * cy + i
                        // Shifted by 2^20 before truncating, so it rounds down for negatives too.
                        let sx = (a * cx + b * cy + c) / q - 0.5 + 1_048_576, sy = (d * cx + e * cy + f) / q - 0.5 + 1_048_576
                        // Past the horizon (q not above 0) the source comes back mirrored, and
                        // near it the point is huge or not finite, which Int() traps on.
                        guard q > 1e-9, abs(sx) < 1e9, abs(sy) < 1e9 else {
                            (dst[at], dst[at + 1], dst[at + 2]) = back
                            x &+= 1
                            at &+= 4
                            continue
                        }
                        let ix = Int(sx), iy = Int(sy)
                        let fx = Int((sx - Double(ix)) * 256), fy = Int((sy - Double(iy)) * 256)
                        let x0 = ix - 1_048_576, y0 = iy - 1_048_576
                        if x0 >= 0, y0 >= 0, x0 + 1 < sw, y0 + 1 < sh {
                            let p = src + (y0 * sw + x0) * 4, below = p + sw * 4
                            var channel = 0
                            while channel < 3 {
                                let top = Int(p[channel]) * (256 - fx) + Int(p[channel + 4]) * fx
                                let bottom = Int(below[channel]) * (256 - fx) + Int(below[channel + 4]) * fx
                                dst[at + channel] = UInt8((top * (256 - fy) + bottom * fy + 32768) >> 16)
                                channel &+= 1
                            }
                        } else if x0 < -1 || y0 < -1 || x0 >= sw || y0 >= sh {
                            (dst[at], dst[at + 1], dst[at + 2]) = back
                        } else {
                            for channel in 0..<3 {
                                let top = tap(x0, y0, channel) * (256 - fx) + tap(x0 + 1, y0, channel) * fx
                                let bottom = tap(x0, y0 + 1, channel) * (256 - fx) + tap(x0 + 1, y0 + 1, channel) * fx
                                dst[at + channel] = UInt8((top * (256 - fy) + bottom * fy + 32768) >> 16)
                            }
                        }
                        x &+= 1
                        at &+= 4
                    }
                    y &+= 1
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }
}
