// The shapes the styled boards need beyond PaintedBoard's rectangles: rounded rectangles filled
// row by row (one colour a row, so a vertical gradient costs no more than a flat fill), see-
// through layers (shadows, glows, tray shading), discs, thick lines and triangles. All are drawn
// with hard edges at twice the final size, as `Canvas.fill` is, and `halved()` smooths every
// edge alike. Rows are written through one unsafe buffer per shape: a per-pixel closure or a
// bounds-checked write per channel made a 1,000-pixel-wide picture several times slower.

import Foundation
import GridlockCore
import GridlockScan

extension Canvas {
    /// A canvas of one colour, made as `init(width:height:colour:)` makes it but a row at a
    /// time (that one's pixel loop took a tenth of a phone screenshot here, unoptimised).
    init(width: Int, height: Int, background: RGB) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 255, count: width * height * 4)
        var row = [UInt8](repeating: 255, count: width * 4)
        for x in 0..<width { (row[4 * x], row[4 * x + 1], row[4 * x + 2]) = (UInt8(background.red), UInt8(background.green), UInt8(background.blue)) }
        copyRows(from: row) { _ in 0 }
    }

    /// Every row replaced by `pattern`'s pixels from pixel `shift(y)` on (the pattern holds
    /// at least the canvas's width plus the largest shift): a texture at a copy a row.
    mutating func copyRows(from pattern: [UInt8], shift: (Int) -> Int) {
        let rowBytes = width * 4
        pattern.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { target in
                for y in 0..<height {
                    let from = shift(y) * 4
                    precondition(from >= 0 && from + rowBytes <= source.count, "the pattern is too short for a shift of \(from / 4)")
                    (target.baseAddress! + y * rowBytes).copyMemory(from: source.baseAddress! + from, byteCount: rowBytes)
                }
            }
        }
    }

    /// The columns of row `y` inside [x0, x1) x [y0, y1) with its corners rounded by `radius`,
    /// clipped to the canvas; empty when the row misses the shape.
    func span(row y: Int, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, radius: Int) -> Range<Int> {
        guard y >= max(0, y0), y < min(height, y1), x1 > x0 else { return 0..<0 }
        let r = Double(max(0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2)))
        let centre = Double(y) + 0.5
        let depth = centre < Double(y0) + r ? Double(y0) + r - centre : centre > Double(y1) - r ? centre - (Double(y1) - r) : 0
        let inset = depth > 0 ? Int((r - (max(0, r * r - depth * depth)).squareRoot()).rounded()) : 0
        let from = max(0, x0 + inset), to = min(width, x1 - inset)
        return from..<max(from, to)
    }

    /// A rounded rectangle, each row in the colour `colour(y)` gives it, laid over what is there
    /// with `opacity` (0-1).
    mutating func fillRows(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, radius: Int = 0, opacity: Double = 1, colour: (Int) -> RGB) {
        let alpha = Int((max(0, min(1, opacity)) * 256).rounded())
        guard alpha > 0 else { return }
        let width = width
        for y in max(0, y0)..<max(max(0, y0), min(height, y1)) {
            let columns = span(row: y, x0, y0, x1, y1, radius: radius)
            guard !columns.isEmpty else { continue }
            let c = colour(y)
            let red = max(0, min(255, c.red)), green = max(0, min(255, c.green)), blue = max(0, min(255, c.blue))
            pixels.withUnsafeMutableBufferPointer { buffer in
                let buffer = buffer.baseAddress!
                var at = (y * width + columns.lowerBound) * 4
                let end = (y * width + columns.upperBound) * 4
                let (r, g, b) = (UInt8(red), UInt8(green), UInt8(blue))
                if alpha >= 256 {
                    while at < end { buffer[at] = r; buffer[at + 1] = g; buffer[at + 2] = b; at &+= 4 }
                } else {
                    let keep = 256 - alpha, (addRed, addGreen, addBlue) = (red * alpha, green * alpha, blue * alpha)
                    while at < end {
                        buffer[at] = UInt8((Int(buffer[at]) * keep + addRed) >> 8)
                        buffer[at + 1] = UInt8((Int(buffer[at + 1]) * keep + addGreen) >> 8)
                        buffer[at + 2] = UInt8((Int(buffer[at + 2]) * keep + addBlue) >> 8)
                        at &+= 4
                    }
                }
            }
        }
    }

    /// [x0, x1) x [y0, y1) in one colour, its corners rounded by `radius`: `fill` clipped to
    /// the canvas (`fill` traps on a rectangle starting past the canvas's edge).
    mutating func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ colour: RGB, radius: Int = 0) {
        fillRows(x0, y0, x1, y1, radius: radius) { _ in colour }
    }

    /// A rounded rectangle in one colour, see-through by `opacity`.
    mutating func blend(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ colour: RGB, opacity: Double, radius: Int = 0) {
        fillRows(x0, y0, x1, y1, radius: radius, opacity: opacity) { _ in colour }
    }

    /// A rounded rectangle shading from `top` to `bottom`.
    mutating func gradient(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, top: RGB, bottom: RGB, radius: Int = 0) {
        let rows = Double(max(1, y1 - y0 - 1))
        fillRows(x0, y0, x1, y1, radius: radius) { y in top.mixed(with: bottom, Double(y - y0) / rows) }
    }

    /// A disc: the rounded rectangle whose radius is half its side.
    mutating func disc(centreX: Int, centreY: Int, radius: Int, _ colour: RGB, opacity: Double = 1) {
        fillRows(centreX - radius, centreY - radius, centreX + radius, centreY + radius, radius: radius, opacity: opacity) { _ in colour }
    }

    /// A straight stroke `thickness` wide with round ends.
    mutating func line(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, thickness: Double, _ colour: RGB) {
        let half = thickness / 2, dx = bx - ax, dy = by - ay, length2 = max(1e-9, dx * dx + dy * dy)
        let xs = clip(min(ax, bx) - half, max(ax, bx) + half, width), ys = clip(min(ay, by) - half, max(ay, by) + half, height)
        for y in ys {
            for x in xs {
                let px = Double(x) + 0.5 - ax, py = Double(y) + 0.5 - ay
                let t = max(0, min(1, (px * dx + py * dy) / length2))
                let ex = px - t * dx, ey = py - t * dy
                if ex * ex + ey * ey <= half * half { set(x, y, colour) }
            }
        }
    }

    /// A filled triangle (either winding), for arrows.
    mutating func triangle(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double), _ colour: RGB) {
        func edge(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), _ x: Double, _ y: Double) -> Double {
            (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x)
        }
        let xs = clip(min(a.x, b.x, c.x), max(a.x, b.x, c.x), width), ys = clip(min(a.y, b.y, c.y), max(a.y, b.y, c.y), height)
        for y in ys {
            for x in xs {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let e0 = edge(a, b, px, py), e1 = edge(b, c, px, py), e2 = edge(c, a, px, py)
                if (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0) { set(x, y, colour) }
            }
        }
    }

    /// The pixels from `low` to `high` (inclusive) within 0..<limit; empty when off the canvas.
    private func clip(_ low: Double, _ high: Double, _ limit: Int) -> Range<Int> {
        let from = max(0, min(limit, Int(low.rounded(.down)))), to = min(limit, max(0, Int(high.rounded(.down)) + 1))
        return from..<max(from, to)
    }

    /// One pixel, if it is on the canvas.
    @inline(__always)
    mutating func set(_ x: Int, _ y: Int, _ colour: RGB) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let at = (y * width + x) * 4
        pixels[at] = UInt8(max(0, min(255, colour.red)))
        pixels[at + 1] = UInt8(max(0, min(255, colour.green)))
        pixels[at + 2] = UInt8(max(0, min(255, colour.blue)))
    }
}

extension RGB {
    /// This colour moved a fraction `t` (0-1) of the way to `other`.
    func mixed(with other: RGB, _ t: Double) -> RGB {
        func mix(_ a: Int, _ b: Int) -> Int { Int((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        return RGB(mix(red, other.red), mix(green, other.green), mix(blue, other.blue))
    }

    /// Lighter towards white (positive) or darker towards black (negative), by a fraction.
    func shaded(_ amount: Double) -> RGB {
        amount >= 0 ? mixed(with: RGB(255, 255, 255), amount) : mixed(with: RGB(0, 0, 0), -amount)
    }

    /// Each channel moved by up to `spread` either way, clamped, so no two boards of a style
    /// share exactly one palette.
    func jittered(_ spread: Int, _ random: inout SplitMix64) -> RGB {
        func move(_ value: Int) -> Int { max(0, min(255, value + random.below(2 * spread + 1) - spread)) }
        return RGB(move(red), move(green), move(blue))
    }

    init(hex: Int) {
        self.init((hex >> 16) & 0xFF, (hex >> 8) & 0xFF, hex & 0xFF)
    }
}
