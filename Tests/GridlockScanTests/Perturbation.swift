// What happens to a screenshot on its way to the scanner: scaled (with smoothing), saved as a
// JPEG, noisy, or pasted off-centre into a phone's screen with other things around it.

import Foundation
import GridlockCore
import GridlockScan
import ImageFile

enum Perturbation: CustomStringConvertible, CaseIterable {
    case none, half, threeQuarters, oneAndHalf, double, jpeg50, jpeg75, jpeg95, noise, phone, everything

    var description: String {
        switch self {
        case .none: "as drawn"
        case .half: "scaled 0.5x"
        case .threeQuarters: "scaled 0.75x"
        case .oneAndHalf: "scaled 1.5x"
        case .double: "scaled 2x"
        case .jpeg50: "JPEG quality 50"
        case .jpeg75: "JPEG quality 75"
        case .jpeg95: "JPEG quality 95"
        case .noise: "Gaussian noise, sigma 6"
        case .phone: "off-centre on a phone's screen"
        case .everything: "phone, 0.8x, noise 4, JPEG 70"
        }
    }

    func apply(_ image: RGBAImage, random: inout SplitMix64) throws -> RGBAImage {
        switch self {
        case .none: image
        case .half: Self.scaled(image, by: 0.5)
        case .threeQuarters: Self.scaled(image, by: 0.75)
        case .oneAndHalf: Self.scaled(image, by: 1.5)
        case .double: Self.scaled(image, by: 2)
        case .jpeg50: try Self.jpeg(image, quality: 50)
        case .jpeg75: try Self.jpeg(image, quality: 75)
        case .jpeg95: try Self.jpeg(image, quality: 95)
        case .noise: Self.noisy(image, sigma: 6, random: &random)
        case .phone: Self.onPhone(image, random: &random)
        case .everything: try Self.jpeg(Self.noisy(Self.scaled(Self.onPhone(image, random: &random), by: 0.8), sigma: 4, random: &random), quality: 70)
        }
    }

    /// Bilinear resampling; shrinking first averages blocks of pixels, as a phone's scaler does.
    static func scaled(_ image: RGBAImage, by factor: Double) -> RGBAImage {
        let width = max(1, Int(Double(image.width) * factor)), height = max(1, Int(Double(image.height) * factor))
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let source = factor < 1 ? boxBlurred(image, radius: Int(1 / factor) / 2) : image
        for y in 0..<height {
            let sy = (Double(y) + 0.5) / factor - 0.5
            let y0 = Int(sy.rounded(.down)), fy = sy - Double(y0)
            for x in 0..<width {
                let sx = (Double(x) + 0.5) / factor - 0.5
                let x0 = Int(sx.rounded(.down)), fx = sx - Double(x0)
                let a = source.colour(x0, y0), b = source.colour(x0 + 1, y0), c = source.colour(x0, y0 + 1), d = source.colour(x0 + 1, y0 + 1)
                func mix(_ p: Int, _ q: Int, _ r: Int, _ s: Int) -> UInt8 {
                    let top = Double(p) * (1 - fx) + Double(q) * fx, bottom = Double(r) * (1 - fx) + Double(s) * fx
                    return UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
                }
                let at = (y * width + x) * 4
                pixels[at] = mix(a.red, b.red, c.red, d.red)
                pixels[at + 1] = mix(a.green, b.green, c.green, d.green)
                pixels[at + 2] = mix(a.blue, b.blue, c.blue, d.blue)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func boxBlurred(_ image: RGBAImage, radius: Int) -> RGBAImage {
        guard radius > 0 else { return image }
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                let mean = image.mean(x0: x - radius, y0: y - radius, x1: x + radius + 1, y1: y + radius + 1)
                let at = (y * image.width + x) * 4
                out.pixels[at] = UInt8(mean.red)
                out.pixels[at + 1] = UInt8(mean.green)
                out.pixels[at + 2] = UInt8(mean.blue)
            }
        }
        return out
    }

    static func jpeg(_ image: RGBAImage, quality: Int) throws -> RGBAImage {
        let bytes = try ImageFile.encodeJPEG(width: image.width, height: image.height, rgba: image.pixels, quality: quality)
        let decoded = try ImageFile.decode(bytes)
        return RGBAImage(width: decoded.width, height: decoded.height, pixels: decoded.rgba)
    }

    static func noisy(_ image: RGBAImage, sigma: Double, random: inout SplitMix64) -> RGBAImage {
        var out = image
        for index in stride(from: 0, to: out.pixels.count, by: 4) {
            for channel in 0..<3 {
                let value = Double(out.pixels[index + channel]) + sigma * random.gaussian()
                out.pixels[index + channel] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        return out
    }

    /// The picture pasted somewhere on a tall screen, a status bar above it and buttons below.
    static func onPhone(_ image: RGBAImage, random: inout SplitMix64) -> RGBAImage {
        let width = image.width * 5 / 4 + random.below(image.width / 4 + 1), height = image.height * 2
        var canvas = [UInt8](repeating: 255, count: width * height * 4)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ colour: RGB) {
            for y in max(0, y0)..<min(height, y1) {
                for x in max(0, x0)..<min(width, x1) {
                    let at = (y * width + x) * 4
                    (canvas[at], canvas[at + 1], canvas[at + 2]) = (UInt8(colour.red), UInt8(colour.green), UInt8(colour.blue))
                }
            }
        }
        fill(0, 0, width, height, RGB(0x2B, 0x2D, 0x42))
        fill(0, 0, width, height / 24, RGB(0, 0, 0))
        fill(width / 20, height / 96, width / 5, height / 32, RGB(0xFF, 0xFF, 0xFF))
        let left = random.below(width - image.width + 1), top = height / 10 + random.below(height - image.height - height / 5)
        fill(width / 10, top - height / 20, width * 9 / 10, top - height / 40, RGB(0xFF, 0xC1, 0x07))
        fill(width / 8, top + image.height + height / 30, width * 3 / 8, top + image.height + height / 15, RGB(0x4C, 0xAF, 0x50))
        for y in 0..<image.height {
            for x in 0..<image.width {
                let from = (y * image.width + x) * 4, to = ((top + y) * width + left + x) * 4
                canvas[to] = image.pixels[from]
                canvas[to + 1] = image.pixels[from + 1]
                canvas[to + 2] = image.pixels[from + 2]
            }
        }
        return RGBAImage(width: width, height: height, pixels: canvas)
    }
}
