// A scene drawn to pixels (RGBA, 8 bits a channel, rows top first), for PNG files. Edges are
// smoothed by coverage: each pixel takes the share of it a shape covers, worked out from the
// distance between the pixel's centre and the shape's edge.

import Foundation

public struct Raster: Sendable {
    public let width: Int
    public let height: Int
    /// width * height * 4 bytes: red, green, blue, alpha.
    public private(set) var pixels: [UInt8]

    /// The scene drawn at `scale` pixels per unit.
    public init(_ scene: Scene, scale: Double = 1) {
        width = max(1, Int((scene.width * scale).rounded(.up)))
        height = max(1, Int((scene.height * scale).rounded(.up)))
        pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in 0..<(width * height) { set(index, scene.background, 1) }
        for shape in scene.shapes { draw(shape, scale: scale) }
    }

    /// The colour of the pixel at (x, y).
    public func colour(x: Int, y: Int) -> Colour {
        let at = (y * width + x) * 4
        return Colour(pixels[at], pixels[at + 1], pixels[at + 2])
    }

    private mutating func set(_ index: Int, _ colour: Colour, _ coverage: Double) {
        guard coverage > 0 else { return }
        let at = index * 4
        let keep = 1 - min(1, coverage)
        func blend(_ old: UInt8, _ new: UInt8) -> UInt8 { UInt8((Double(old) * keep + Double(new) * (1 - keep)).rounded()) }
        pixels[at] = blend(pixels[at], colour.red)
        pixels[at + 1] = blend(pixels[at + 1], colour.green)
        pixels[at + 2] = blend(pixels[at + 2], colour.blue)
        pixels[at + 3] = 255
    }

    private mutating func draw(_ shape: Shape, scale: Double) {
        switch shape {
        case .box(let area, let radius, let fill, let outline, _):
            box(Rectangle(x: area.x * scale, y: area.y * scale, width: area.width * scale, height: area.height * scale),
                radius: radius * scale, fill: fill, outline: outline, lineWidth: 1.5 * scale)
        case .line(let x1, let y1, let x2, let y2, let colour, let lineWidth):
            line(x1 * scale, y1 * scale, x2 * scale, y2 * scale, colour: colour, width: lineWidth * scale)
        case .label(let text, let centreX, let centreY, let size, let colour, let bold):
            label(text, centreX: centreX * scale, centreY: centreY * scale, size: size * scale, colour: colour, bold: bold)
        }
    }

    /// The pixel rows and columns a rectangle touches, clipped to the picture.
    private func span(_ low: Double, _ high: Double, limit: Int) -> Range<Int> {
        let first = max(0, Int(low.rounded(.down)) - 1), last = min(limit, Int(high.rounded(.up)) + 1)
        return first < last ? first..<last : 0..<0
    }

    private mutating func box(_ area: Rectangle, radius: Double, fill: Fill, outline: Colour?, lineWidth: Double) {
        let radius = min(radius, area.width / 2, area.height / 2)
        for y in span(area.y, area.y + area.height, limit: height) {
            for x in span(area.x, area.x + area.width, limit: width) {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let distance = Self.roundedBoxDistance(px, py, area, radius: radius)
                let coverage = min(1, max(0, 0.5 - distance))
                guard coverage > 0 else { continue }
                set(y * width + x, Self.paint(fill, area, px, py), coverage)
                if let outline {
                    set(y * width + x, outline, min(coverage, max(0, lineWidth / 2 + 0.5 - abs(distance + lineWidth / 2))))
                }
            }
        }
    }

    /// Signed distance from a point to a rounded rectangle's edge: negative inside.
    static func roundedBoxDistance(_ px: Double, _ py: Double, _ area: Rectangle, radius: Double) -> Double {
        let qx = abs(px - area.centreX) - (area.width / 2 - radius)
        let qy = abs(py - area.centreY) - (area.height / 2 - radius)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - radius
    }

    /// A fill's colour at a point: wood is banded across its grain (as the SVG's gradient)
    /// with fine wavy grain along it.
    static func paint(_ fill: Fill, _ area: Rectangle, _ px: Double, _ py: Double) -> Colour {
        guard case .wood(let colour, let horizontal, let seed) = fill else { return fill.baseColour }
        let across = horizontal ? (py - area.y) / max(1, area.height) : (px - area.x) / max(1, area.width)
        let along = horizontal ? px - area.x : py - area.y
        let stops = [(0.0, 1.12), (0.3, 1.0), (0.55, 0.9), (0.8, 1.04), (1.0, 0.82)]
        let t = min(1, max(0, across))
        var band = stops.last!.1
        for (low, high) in zip(stops, stops.dropFirst()) where t <= high.0 {
            band = low.1 + (high.1 - low.1) * (t - low.0) / (high.0 - low.0)
            break
        }
        let phase = Double(seed % 97)
        let wave = across * 38 + 1.6 * sin(along / 23 + phase)
        let grain = 1 - 0.07 * pow(max(0, sin(wave)), 6)
        return colour.shaded(band * grain)
    }

    private mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: Colour, width lineWidth: Double) {
        let half = lineWidth / 2
        let dx = x2 - x1, dy = y2 - y1
        let length2 = max(1e-9, dx * dx + dy * dy)
        for y in span(min(y1, y2) - half, max(y1, y2) + half, limit: height) {
            for x in span(min(x1, x2) - half, max(x1, x2) + half, limit: width) {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let t = min(1, max(0, ((px - x1) * dx + (py - y1) * dy) / length2))
                let ex = px - (x1 + t * dx), ey = py - (y1 + t * dy)
                let distance = (ex * ex + ey * ey).squareRoot()
                set(y * width + x, colour, min(1, max(0, half + 0.5 - distance)))
            }
        }
    }

    private mutating func label(_ text: String, centreX: Double, centreY: Double, size: Double, colour: Colour, bold: Bool) {
        let dot = size / Double(PixelFont.height)
        let glyphs = text.compactMap(PixelFont.rows(of:))
        guard !glyphs.isEmpty else { return }
        let textWidth = Double(glyphs.count * PixelFont.advance - 1) * dot
        var left = centreX - textWidth / 2
        let top = centreY - size / 2
        let widen = bold ? dot * 0.35 : 0
        for rows in glyphs {
            for (row, bits) in rows.enumerated() {
                for (column, bit) in bits.enumerated() where bit == "#" {
                    let cell = Rectangle(x: left + Double(column) * dot - widen / 2, y: top + Double(row) * dot, width: dot + widen, height: dot)
                    box(cell, radius: 0, fill: .solid(colour), outline: nil, lineWidth: 0)
                }
            }
            left += Double(PixelFont.advance) * dot
        }
    }
}
