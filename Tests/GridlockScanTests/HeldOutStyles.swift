// The two held-out looks: the scanner is never tuned on them, so its accuracy here says how well
// it generalises to a clone nobody measured. Each is as unlike the eight tunable looks as an
// Unblock Me clone plausibly gets:
//   pastelRounded  blocks as nearly round pills in pastel colours with soft drop shadows, on a
//                  cream tray dotted at each cell's centre, inside a very rounded pastel frame;
//   neon           no solid frame or blocks: glowing outlines on a dark navy screen, the tray a
//                  faint grid, the frame a lit line with a gap at the chute and chevrons past it.

import Foundation
import GridlockCore
import GridlockScan

enum HeldOutStyles {
    // Pills in pastel colours with soft shadows on a dotted cream tray, a very rounded pastel frame, a coral-red prisoner.
    static func paintPastelRounded(_ geometry: BoardGeometry, on canvas: inout Canvas, random: inout SplitMix64) {
        let t = geometry.tile, tray = geometry.tray, outer = geometry.outer
        let frame = [RGB(hex: 0xF7B7C3), RGB(hex: 0xA8DCC8), RGB(hex: 0xB9C3EE), RGB(hex: 0xF5CFA0)][random.below(4)].jittered(8, &random)
        let cream = RGB(hex: 0xFFF9F0).jittered(4, &random)
        // A soft shadow under the whole board, then the frame and the tray.
        softShadow(outer, radius: t * 6 / 10, drop: t / 12, &canvas)
        canvas.fill(outer, frame, radius: t * (45 + random.below(20)) / 100)
        canvas.fill(tray, cream, radius: t / 4)
        let dot = frame.mixed(with: cream, 0.7)
        for row in 0..<geometry.puzzle.height {
            for column in 0..<geometry.puzzle.width {
                canvas.disc(centreX: tray.x0 + column * t + t / 2, centreY: tray.y0 + row * t + t / 2, radius: max(2, t / 18), dot)
            }
        }
        canvas.fill(geometry.chute(inset: t / 8), cream, radius: t / 6)
        let pastels = [0xA0C4FF, 0xBDB2FF, 0xB5EAA5, 0xF6F08A, 0xFFD6A5, 0x9BF6FF, 0xFFC6FF].map { RGB(hex: $0).jittered(8, &random) }
        let seam = t * (3 + random.below(4)) / 100
        var colours: [RGB] = []
        for (index, block) in geometry.puzzle.blocks.enumerated() {
            let rect = geometry.rect(of: block, seam: seam, random: &random)
            let short = min(rect.width, rect.height)
            if block.isFixed {
                softShadow(rect, radius: short / 4, drop: t / 20, &canvas)
                canvas.fill(rect, RGB(hex: 0xC9C9D2).jittered(6, &random), radius: short / 4)
                canvas.disc(centreX: (rect.x0 + rect.x1) / 2, centreY: (rect.y0 + rect.y1) / 2, radius: short / 6, RGB(hex: 0xA5A5B2))
                continue
            }
            let colour: RGB
            if index == geometry.puzzle.prisonerIndex {
                colour = RGB(hex: 0xFF6B6B).jittered(8, &random)
            } else {
                if colours.isEmpty { colours = pastels }
                colour = colours.remove(at: random.below(colours.count))
            }
            let radius = short * (38 + random.below(12)) / 100
            softShadow(rect, radius: radius, drop: t / 20, &canvas)
            canvas.gradient(rect.x0, rect.y0, rect.x1, rect.y1, top: colour.shaded(0.15), bottom: colour.shaded(-0.06), radius: radius)
            // A gloss highlight near the top-left end.
            canvas.disc(centreX: rect.x0 + short / 3, centreY: rect.y0 + short / 3, radius: max(2, short / 9), RGB(255, 255, 255), opacity: 0.55)
        }
    }

    // Glowing neon outlines on a dark navy screen: a faint grid tray, a lit frame line with a gap at the chute.
    static func paintNeon(_ geometry: BoardGeometry, on canvas: inout Canvas, random: inout SplitMix64) {
        let t = geometry.tile, tray = geometry.tray, outer = geometry.outer
        let navy = RGB(hex: 0x0A0F2E).jittered(4, &random)
        let line = max(3, t * (3 + random.below(3)) / 100)
        let rim = [RGB(hex: 0x00E5FF), RGB(hex: 0xFF2BD6), RGB(hex: 0x8C7BFF)][random.below(3)]
        // The frame: a glowing line round the outside, dark inside it.
        glow(outer, rim, radius: t / 5, reach: t / 8, &canvas)
        canvas.fill(outer, rim, radius: t / 5)
        canvas.fill(outer.inset(by: line), RGB(hex: 0x05081A), radius: max(0, t / 5 - line))
        canvas.fill(tray, navy)
        let grid = navy.shaded(0.12)
        for column in 0...geometry.puzzle.width { canvas.box(tray.x0 + column * t - 1, tray.y0, tray.x0 + column * t + 1, tray.y1, grid) }
        for row in 0...geometry.puzzle.height { canvas.box(tray.x0, tray.y0 + row * t - 1, tray.x1, tray.y0 + row * t + 1, grid) }
        // The chute: the frame cut open, the lit line broken.
        let chute = geometry.chute(inset: t / 10)
        canvas.fill(PixelRect(x0: chute.x0 - 1, y0: chute.y0, x1: chute.x1 + 1, y1: chute.y1), navy)
        // Two dim chevrons past the gap, pointing out.
        let outwards = geometry.puzzle.exit.side == .right ? 1.0 : -1.0, half = Double(t) * 0.15
        let edge = geometry.puzzle.exit.side == .right ? Double(outer.x1) : Double(outer.x0), y = Double(geometry.exitCentreY)
        for step in 0..<2 {
            let x = edge + outwards * (Double(t) * 0.12 + Double(step) * half * 1.2)
            canvas.line(x, y - half, x + outwards * half, y, thickness: Double(line), rim.shaded(-0.3))
            canvas.line(x, y + half, x + outwards * half, y, thickness: Double(line), rim.shaded(-0.3))
        }
        let neon = [0x00F0FF, 0xFF00D4, 0xA6FF00, 0xFFE600, 0xFF8A00, 0x7A5CFF, 0x00FF9C].map { RGB(hex: $0).jittered(10, &random) }
        let seam = t * (4 + random.below(3)) / 100
        var colours: [RGB] = []
        for (index, block) in geometry.puzzle.blocks.enumerated() {
            let rect = geometry.rect(of: block, seam: seam, random: &random)
            let radius = t * (8 + random.below(8)) / 100
            if block.isFixed {
                let grey = RGB(hex: 0x8890A8)
                canvas.fill(rect, grey, radius: radius)
                canvas.fill(rect.inset(by: line), navy.shaded(0.05), radius: max(0, radius - line))
                let inner = rect.inset(by: rect.width / 4)
                canvas.line(Double(inner.x0), Double(inner.y0), Double(inner.x1), Double(inner.y1), thickness: Double(line), grey)
                canvas.line(Double(inner.x1), Double(inner.y0), Double(inner.x0), Double(inner.y1), thickness: Double(line), grey)
                continue
            }
            let prisoner = index == geometry.puzzle.prisonerIndex
            let colour: RGB
            if prisoner {
                colour = RGB(hex: 0xFF2A4D)
            } else {
                if colours.isEmpty { colours = neon }
                colour = colours.remove(at: random.below(colours.count))
            }
            glow(rect, colour, radius: radius, reach: seam, &canvas)
            canvas.fill(rect, colour, radius: radius)
            // Dark glass inside the lit outline; the prisoner's is lit too, so it stands out most.
            canvas.fill(rect.inset(by: line), navy.mixed(with: colour, prisoner ? 0.45 : 0.12), radius: max(0, radius - line))
        }
    }

    /// A halo of `colour` fading out over `reach` pixels round a rounded rectangle.
    static func glow(_ rect: PixelRect, _ colour: RGB, radius: Int, reach: Int, _ canvas: inout Canvas) {
        let layers = 4
        for layer in stride(from: layers, to: 0, by: -1) {
            let spread = reach * layer / layers
            canvas.blend(rect.x0 - spread, rect.y0 - spread, rect.x1 + spread, rect.y1 + spread, colour, opacity: 0.12, radius: radius + spread)
        }
    }

    /// A blurred shadow below and a little to the right of a rounded rectangle.
    static func softShadow(_ rect: PixelRect, radius: Int, drop: Int, _ canvas: inout Canvas) {
        for layer in 0..<3 {
            let spread = drop * (3 - layer) / 3
            canvas.blend(rect.x0 - spread + drop / 3, rect.y0 - spread + drop, rect.x1 + spread + drop / 3, rect.y1 + spread + drop, RGB(40, 30, 60), opacity: 0.09, radius: radius + spread)
        }
    }
}
