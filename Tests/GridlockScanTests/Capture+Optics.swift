// The optical effects of a capture: a camera's tilt (a homography through the board's plane
// turned about an axis in it), a glare spot, uneven light and a Gaussian blur. Loops run over
// unsafe buffers with fixed-point weights: through `RGBAImage.colour` and Doubles per channel a
// 600 x 900 picture's blur alone took longer than drawing it.
//
// The tilt: the picture lies on the plane z = 0 centred on the camera's axis, at the focal
// distance f (so untilted it maps 1:1). Turned by theta about the unit axis k = (kx, ky, 0),
// a point p = (px, py, 0) goes to
//   p' = cos(theta) p + (1 - cos(theta)) (k . p) k + sin(theta) (kx py - ky px) z^
// and is seen at f (p'x, p'y) / (f + p'z): the near side grows, the far side shrinks.

import Foundation
import GridlockCore
import GridlockScan

extension Capture {
    /// The picture as a camera tilted by `tilt` radians (about a random axis) sees it, turned
    /// a few degrees and placed on a dark surround; the map takes the picture's points to the
    /// photo's.
    static func tilted(_ image: RGBAImage, by tilt: Double, random: inout SplitMix64) -> (RGBAImage, Homography) {
        let w = Double(image.width), h = Double(image.height)
        let f = max(w, h) * (1 + Double(random.below(101)) / 100)
        let axis = Double(random.below(360)) * .pi / 180, kx = cos(axis), ky = sin(axis)
        let turn = (Double(random.below(81)) / 10 - 4) * .pi / 180
        let scale = 0.75 + Double(random.below(26)) / 100
        let corners = [(0.0, 0.0), (w, 0), (w, h), (0, h)]
        var seen = corners.map { corner -> (x: Double, y: Double) in
            let px = corner.0 - w / 2, py = corner.1 - h / 2
            let along = (1 - cos(tilt)) * (kx * px + ky * py)
            let x = cos(tilt) * px + along * kx, y = cos(tilt) * py + along * ky, z = sin(tilt) * (kx * py - ky * px)
            let u = f * x / (f + z) * scale, v = f * y / (f + z) * scale
            return (u * cos(turn) - v * sin(turn), u * sin(turn) + v * cos(turn))
        }
        // Room round the screen for the surround, and no more than about 1.2 megapixels.
        let margin = max(w, h) * Double(3 + random.below(10)) / 100
        let minX = seen.map(\.x).min()!, minY = seen.map(\.y).min()!
        var width = seen.map(\.x).max()! - minX + 2 * margin, height = seen.map(\.y).max()! - minY + 2 * margin
        let shrink = min(1, (1_200_000 / (width * height)).squareRoot())
        seen = seen.map { ((($0.x - minX + margin) * shrink), ($0.y - minY + margin) * shrink) }
        width *= shrink
        height *= shrink
        let source = corners.map { (x: $0.0, y: $0.1) }
        let forward = Homography(from: source, to: seen), backward = Homography(from: seen, to: source)
        let surround = RGB(12 + random.below(40), 12 + random.below(40), 12 + random.below(40))
        return (backward.resample(image, width: max(1, Int(width)), height: max(1, Int(height)), background: surround), forward)
    }

    /// A soft elliptical highlight somewhere on the picture, up to `strength` of the way to white.
    static func glared(_ image: RGBAImage, strength: Double, random: inout SplitMix64) -> RGBAImage {
        var out = image
        let w = image.width, h = image.height
        let cx = Double(random.below(w)), cy = Double(random.below(h))
        let rx = Double(w) * Double(10 + random.below(26)) / 100, ry = Double(h) * Double(8 + random.below(23)) / 100
        let angle = Double(random.below(180)) * .pi / 180, c = cos(angle), s = sin(angle)
        let reach = max(rx, ry)
        let xs = max(0, Int(cx - reach))..<min(w, Int(cx + reach) + 1), ys = max(0, Int(cy - reach))..<min(h, Int(cy + reach) + 1)
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in ys {
                for x in xs {
                    let dx = Double(x) - cx, dy = Double(y) - cy
                    let along = (dx * c + dy * s) / rx, across = (-dx * s + dy * c) / ry
                    let d2 = along * along + across * across
                    guard d2 < 1 else { continue }
                    let k = Int(strength * (1 - d2) * (1 - d2) * 256)
                    let at = (y * w + x) * 4
                    for channel in 0..<3 { pixels[at + channel] = UInt8(Int(pixels[at + channel]) + (255 - Int(pixels[at + channel])) * k / 256) }
                }
            }
        }
        return out
    }

    /// Brightness rising linearly across the picture in a random direction, `amount` (0-0.15)
    /// up at one edge and down at the other.
    static func unevenlyLit(_ image: RGBAImage, by amount: Double, random: inout SplitMix64) -> RGBAImage {
        guard amount > 0 else { return image }
        var out = image
        let w = image.width, h = image.height
        let angle = Double(random.below(360)) * .pi / 180
        let reach = 0.5 * (Double(w * w + h * h)).squareRoot()
        // 1.0 is 4096; the factor changes by `step` a pixel along a row.
        let step = Int(amount * cos(angle) / reach * 4096 * 65536)
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            let pixels = pixels.baseAddress!
            for y in 0..<h {
                let start = 1 + amount * ((0.5 - Double(w) / 2) * cos(angle) + (Double(y) + 0.5 - Double(h) / 2) * sin(angle)) / reach
                var factor = Int(start * 4096 * 65536)
                var at = y * w * 4
                let end = at + w * 4
                while at < end {
                    let k = max(0, factor >> 16)
                    pixels[at] = UInt8(min(255, (Int(pixels[at]) * k) >> 12))
                    pixels[at + 1] = UInt8(min(255, (Int(pixels[at + 1]) * k) >> 12))
                    pixels[at + 2] = UInt8(min(255, (Int(pixels[at + 2]) * k) >> 12))
                    factor &+= step
                    at &+= 4
                }
            }
        }
        return out
    }

    /// A separable Gaussian blur, edges clamped. A pixel's channels ride in one UInt64, 16 bits
    /// apiece, and the integer weights sum to 256, so one multiply-add moves all three (a lane
    /// never passes 255 x 256): a tap per channel made the blur most of a capture's time here.
    static func gaussianBlurred(_ image: RGBAImage, sigma: Double) -> RGBAImage {
        guard sigma > 0.05 else { return image }
        let radius = max(1, Int((2.5 * sigma).rounded(.up))), taps = 2 * radius + 1
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        var weights = raw.map { Int(($0 / raw.reduce(0, +) * 256).rounded()) }
        weights[radius] += 256 - weights.reduce(0, +)
        let w = image.width, h = image.height
        var lanes = SpreadPixels(image), across = lanes
        let wide = weights.map { UInt64($0) }
        wide.withUnsafeBufferPointer { weight in
            let weight = weight.baseAddress!
            lanes.values.withUnsafeBufferPointer { source in
                across.values.withUnsafeMutableBufferPointer { target in
                    let source = source.baseAddress!, target = target.baseAddress!
                    // Along each row, through a copy padded with its end pixels.
                    var padded = [UInt64](repeating: 0, count: w + 2 * radius)
                    padded.withUnsafeMutableBufferPointer { padded in
                        let padded = padded.baseAddress!
                        var y = 0
                        while y < h {
                            let row = source + y * w
                            var x = 0
                            while x < w + 2 * radius { padded[x] = row[min(w - 1, max(0, x - radius))]; x &+= 1 }
                            x = 0
                            while x < w {
                                var sum: UInt64 = 0x0080_0080_0080
                                var k = 0
                                while k < taps { sum &+= weight[k] &* padded[x &+ k]; k &+= 1 }
                                target[y * w + x] = (sum >> 8) & 0x00FF_00FF_00FF
                                x &+= 1
                            }
                            y &+= 1
                        }
                    }
                }
            }
            // Down each column, a whole row of taps at a time.
            across.values.withUnsafeBufferPointer { source in
                lanes.values.withUnsafeMutableBufferPointer { target in
                    let source = source.baseAddress!, target = target.baseAddress!
                    var y = 0
                    while y < h {
                        let out = target + y * w
                        var x = 0
                        while x < w { out[x] = 0x0080_0080_0080; x &+= 1 }
                        var k = 0
                        while k < taps {
                            let row = source + min(h - 1, max(0, y + k - radius)) * w, wk = weight[k]
                            x = 0
                            while x < w { out[x] &+= wk &* row[x]; x &+= 1 }
                            k &+= 1
                        }
                        x = 0
                        while x < w { out[x] = (out[x] >> 8) & 0x00FF_00FF_00FF; x &+= 1 }
                        y &+= 1
                    }
                }
            }
        }
        return lanes.image(width: w, height: h)
    }

    /// Gaussian-like noise of deviation `sigma` on every channel: each deviate the sum of two
    /// random bytes (a triangle, deviation 104.5) scaled, eight bytes a draw, so a picture
    /// costs one draw a pixel rather than three logarithms and cosines (`Perturbation.noisy`).
    static func noisy(_ image: RGBAImage, sigma: Double, random: inout SplitMix64) -> RGBAImage {
        guard sigma > 0 else { return image }
        var out = image
        let scale = Int(sigma / 104.5 * 4096)
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            let pixels = pixels.baseAddress!
            var at = 0
            let end = image.width * image.height * 4
            while at < end {
                let draw = random.next()
                let red = Int(draw & 0xFF) + Int((draw >> 8) & 0xFF) - 255
                let green = Int((draw >> 16) & 0xFF) + Int((draw >> 24) & 0xFF) - 255
                let blue = Int((draw >> 32) & 0xFF) + Int((draw >> 40) & 0xFF) - 255
                pixels[at] = UInt8(min(255, max(0, Int(pixels[at]) + (red * scale) >> 12)))
                pixels[at + 1] = UInt8(min(255, max(0, Int(pixels[at + 1]) + (green * scale) >> 12)))
                pixels[at + 2] = UInt8(min(255, max(0, Int(pixels[at + 2]) + (blue * scale) >> 12)))
                at &+= 4
            }
        }
        return out
    }
}

/// A picture with each pixel's red, green and blue in the low 16 bits, the next 16 and the
/// next 16 of one UInt64, for arithmetic on all three at once.
struct SpreadPixels {
    var values: [UInt64]

    init(_ image: RGBAImage) {
        let count = image.width * image.height
        values = [UInt64](repeating: 0, count: count)
        image.pixels.withUnsafeBufferPointer { source in
            values.withUnsafeMutableBufferPointer { target in
                let source = source.baseAddress!, target = target.baseAddress!
                var index = 0
                while index < count {
                    let at = index &* 4
                    target[index] = UInt64(source[at]) | UInt64(source[at + 1]) << 16 | UInt64(source[at + 2]) << 32
                    index &+= 1
                }
            }
        }
    }

    func image(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        values.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                let source = source.baseAddress!, target = target.baseAddress!
                var index = 0
                while index < width * height {
                    let value = source[index], at = index &* 4
                    target[at] = UInt8(truncatingIfNeeded: value)
                    target[at + 1] = UInt8(truncatingIfNeeded: value >> 16)
                    target[at + 2] = UInt8(truncatingIfNeeded: value >> 32)
                    index &+= 1
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
