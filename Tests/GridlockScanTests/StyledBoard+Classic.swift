// The eight tunable looks drawn from their StyleLook: frame, tray, chute (or arrow), then the
// blocks in the puzzle's order. Wood grain is drawn as thin wavy streaks a few percent darker
// along the grain, so it is texture a scanner must see past, not edges it could take for seams.

import Foundation
import GridlockCore
import GridlockScan

extension StyledBoard {
    static func paintClassic(_ geometry: BoardGeometry, look: StyleLook, on canvas: inout Canvas, random: inout SplitMix64) {
        let t = geometry.tile, tray = geometry.tray, outer = geometry.outer
        let frameRadius = t * look.frameRadius / 100
        // The frame, then the tray over its middle.
        switch look.finish {
        case .bevel:
            canvas.fill(outer, look.frame.shaded(-0.35), radius: frameRadius)
            canvas.fill(PixelRect(x0: outer.x0, y0: outer.y0, x1: outer.x1 - t / 16, y1: outer.y1 - t / 16), look.frame.shaded(0.25), radius: frameRadius)
            canvas.gradient(outer.x0 + t / 16, outer.y0 + t / 16, outer.x1 - t / 16, outer.y1 - t / 16, top: look.frame.shaded(0.08), bottom: look.frame.shaded(-0.1), radius: frameRadius)
        default:
            canvas.fill(outer, look.frame, radius: frameRadius)
        }
        if look.finish == .woodGrain { grain(outer, along: true, colour: look.frame, depth: 0.12, &canvas, &random) }
        canvas.fill(tray, look.tray)
        if look.finish == .woodGrain { grain(tray, along: true, colour: look.tray, depth: 0.05, &canvas, &random) }
        if let lines = look.gridLines {
            for column in 1..<geometry.puzzle.width { canvas.box(tray.x0 + column * t - 1, tray.y0, tray.x0 + column * t + 1, tray.y1, lines) }
            for row in 1..<geometry.puzzle.height { canvas.box(tray.x0, tray.y0 + row * t - 1, tray.x1, tray.y0 + row * t + 1, lines) }
        }
        if look.trayShadow {
            // An inner shadow falling from the frame's top and left edges onto the tray.
            for step in 0..<4 {
                let depth = t * (step + 1) / 24
                canvas.blend(tray.x0, tray.y0, tray.x1, tray.y0 + depth, RGB(0, 0, 0), opacity: 0.07)
                canvas.blend(tray.x0, tray.y0 + depth, tray.x0 + depth, tray.y1, RGB(0, 0, 0), opacity: 0.07)
            }
        }
        if let chute = look.chute {
            canvas.fill(geometry.chute(inset: t * (6 + random.below(8)) / 100), chute)
        } else if let arrow = look.arrow {
            exitArrow(geometry, arrow, &canvas, &random)
        }
        // The blocks.
        let seam = max(2, t * look.seam / 100)
        var colours: [RGB] = []
        for (index, block) in geometry.puzzle.blocks.enumerated() {
            let rect = geometry.rect(of: block, seam: seam, random: &random)
            if block.isFixed, look.finish == .bevel {
                bevelled(rect, look.fixed, radius: t * look.carRadius / 100, &canvas)
                continue
            }
            if block.isFixed {
                fixedBlock(rect, look.fixed, screws: look.fixedScrews, outline: look.outline.map { ($0, max(2, t * look.outlineWidth / 100)) }, &canvas, &random)
                continue
            }
            let colour: RGB
            if index == geometry.puzzle.prisonerIndex {
                colour = look.prisoner
            } else {
                if colours.isEmpty { colours = look.cars }
                colour = colours.remove(at: random.below(colours.count))
            }
            var radius = t * look.carRadius / 100
            var face = rect
            if let outline = look.outline {
                let width = max(2, t * look.outlineWidth / 100)
                canvas.fill(rect, outline, radius: radius)
                face = rect.inset(by: width)
                radius = max(0, radius - width)
            }
            switch look.finish {
            case .flat:
                canvas.fill(face, colour, radius: radius)
            case .woodGrain:
                canvas.fill(face, colour, radius: radius)
                grain(face, along: block.orientation == .horizontal, colour: colour, depth: 0.08, &canvas, &random)
            case .bevel:
                bevelled(face, colour, radius: radius, &canvas)
            }
        }
    }

    /// A dark bottom-right edge under a light top-left one, both under a gradient face: about
    /// 10% of a tile of each shows.
    static func bevelled(_ rect: PixelRect, _ colour: RGB, radius: Int, _ canvas: inout Canvas) {
        let bevel = max(2, min(rect.width, rect.height) / 10)
        canvas.fill(rect, colour.shaded(-0.4), radius: radius)
        canvas.fill(PixelRect(x0: rect.x0, y0: rect.y0, x1: rect.x1 - bevel, y1: rect.y1 - bevel), colour.shaded(0.45), radius: radius)
        canvas.gradient(rect.x0 + bevel, rect.y0 + bevel, rect.x1 - bevel, rect.y1 - bevel, top: colour.shaded(0.12), bottom: colour.shaded(-0.12), radius: max(0, radius - bevel))
    }

    /// A fixed block: a grey plate, plain or with four screw heads (a slot across each).
    static func fixedBlock(_ rect: PixelRect, _ colour: RGB, screws: Bool, outline: (RGB, Int)?, _ canvas: inout Canvas, _ random: inout SplitMix64) {
        var face = rect
        if let (ink, width) = outline {
            canvas.fill(rect, ink, radius: rect.width / 16)
            face = rect.inset(by: width)
        }
        canvas.fill(face, colour, radius: face.width / 16)
        guard screws else { return }
        let radius = max(2, face.width / 11)
        for (fx, fy) in [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)] {
            let cx = face.x0 + Int(Double(face.width) * fx), cy = face.y0 + Int(Double(face.height) * fy)
            canvas.disc(centreX: cx, centreY: cy, radius: radius, colour.shaded(-0.45))
            canvas.disc(centreX: cx, centreY: cy, radius: radius * 4 / 5, colour.shaded(0.35))
            let angle = Double(random.below(180)) * .pi / 180, reach = Double(radius) * 0.75
            canvas.line(
                Double(cx) - reach * cos(angle), Double(cy) - reach * sin(angle), Double(cx) + reach * cos(angle), Double(cy) + reach * sin(angle),
                thickness: max(1.5, Double(radius) / 3), colour.shaded(-0.5))
        }
    }

    /// Thin wavy streaks a fraction `depth` darker than `colour`, along the rectangle's long
    /// side (`along`: horizontal).
    static func grain(_ rect: PixelRect, along horizontal: Bool, colour: RGB, depth: Double, _ canvas: inout Canvas, _ random: inout SplitMix64) {
        let across = horizontal ? rect.height : rect.width, length = horizontal ? rect.width : rect.height
        guard across > 4, length > 4 else { return }
        let streaks = max(2, across / 9)
        for _ in 0..<streaks {
            let base = Double(random.below(across)), amplitude = Double(random.below(30)) / 10
            let wavelength = Double(length) / (0.5 + Double(random.below(20)) / 10), phase = Double(random.below(628)) / 100
            let thickness = 1 + random.below(2)
            let streak = colour.shaded(-depth * Double(50 + random.below(50)) / 100)
            for along in 0..<length {
                let offset = Int((base + amplitude * sin(Double(along) / wavelength * 2 * .pi + phase)).rounded())
                guard offset >= 0, offset + thickness <= across else { continue }
                for d in 0..<thickness {
                    if horizontal { canvas.set(rect.x0 + along, rect.y0 + offset + d, streak) } else { canvas.set(rect.x0 + offset + d, rect.y0 + along, streak) }
                }
            }
        }
    }

    /// A triangle or a chevron just outside the whole frame beside the exit row, pointing out.
    static func exitArrow(_ geometry: BoardGeometry, _ colour: RGB, _ canvas: inout Canvas, _ random: inout SplitMix64) {
        let t = Double(geometry.tile), outer = geometry.outer, y = Double(geometry.exitCentreY)
        let outwards: Double = geometry.puzzle.exit.side == .right ? 1 : -1
        let base = (geometry.puzzle.exit.side == .right ? Double(outer.x1) : Double(outer.x0)) + outwards * t * 0.1
        let size = t * (0.35 + Double(random.below(20)) / 100), half = t * (0.22 + Double(random.below(12)) / 100)
        if random.coinFlip() {
            canvas.triangle((base, y - half), (base, y + half), (base + outwards * size, y), colour)
        } else {
            let thickness = t * 0.09
            canvas.line(base, y - half, base + outwards * size, y, thickness: thickness, colour)
            canvas.line(base, y + half, base + outwards * size, y, thickness: thickness, colour)
        }
    }
}
