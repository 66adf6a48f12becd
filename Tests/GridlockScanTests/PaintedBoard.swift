// A second Rush Hour renderer, written apart from GridlockDrawing's and unlike it on purpose,
// so that the scanner is not tuned to one look: a phone's screen with a status bar and the
// board off-centre, a flat navy frame, a grey tray without lines, cars in many colours with
// square or rounded corners and optional stripes, fixed blocks with rivets, and each block
// jittered by up to a pixel. Drawn at twice the size with hard edges, then halved, which
// smooths the edges as a screen's renderer does.

import Foundation
import GridlockCore
import GridlockScan

struct PaintedBoard {
    var tile: Int
    var random: SplitMix64
    var roundedCorners: Bool
    var stripes: Bool
    var phone: Bool

    static let frame = RGB(0x22, 0x2A, 0x44)
    static let tray = RGB(0xDD, 0xDF, 0xE4)
    static let prisoner = RGB(0xE5, 0x20, 0x20)
    static let wall = RGB(0x4C, 0x4C, 0x50)
    static let cars = [
        RGB(0x1E, 0x63, 0xD6), RGB(0x2E, 0x9E, 0x44), RGB(0xF2, 0xC1, 0x1D), RGB(0x7B, 0x3F, 0xB5), RGB(0xF5, 0x8A, 0x1F),
        RGB(0x13, 0x9C, 0xA3), RGB(0x8D, 0x6E, 0x63), RGB(0x45, 0x5A, 0x64),
    ]

    func paint(_ puzzle: RushHourPuzzle) -> RGBAImage {
        var random = random
        let t = tile * 2
        let frame = t * (30 + random.below(20)) / 100
        let seam = max(3, t * (6 + random.below(5)) / 100)
        let boardWidth = puzzle.width * t + 2 * frame, boardHeight = puzzle.height * t + 2 * frame
        let (canvasWidth, canvasHeight) = phone ? (boardWidth * 13 / 10 + random.below(t), boardHeight * 2) : (boardWidth + 2 * t, boardHeight + 2 * t)
        var canvas = Canvas(width: canvasWidth, height: canvasHeight, colour: phone ? RGB(0xF3, 0xF6, 0xFA) : RGB(0xFF, 0xFF, 0xFF))
        var originX = (canvasWidth - boardWidth) / 2, originY = (canvasHeight - boardHeight) / 2
        if phone {
            // A status bar with its clock and icons, a title above the board, buttons below.
            canvas.fill(0, 0, canvasWidth, t / 2, RGB(0x10, 0x10, 0x14))
            for icon in 0..<4 { canvas.fill(canvasWidth - (icon + 1) * t / 3, t / 8, canvasWidth - (icon + 1) * t / 3 + t / 5, t * 3 / 8, RGB(0xEE, 0xEE, 0xEE)) }
            canvas.fill(t / 4, t / 8, t, t * 3 / 8, RGB(0xEE, 0xEE, 0xEE))
            originX = random.below(max(1, canvasWidth - boardWidth))
            originY = t + random.below(max(1, canvasHeight - boardHeight - 3 * t))
            canvas.fill(originX, originY - t * 3 / 4, originX + boardWidth / 2, originY - t / 4, RGB(0x33, 0x33, 0x33))
            let buttons = originY + boardHeight + t / 2
            canvas.fill(originX, buttons, originX + boardWidth / 3, buttons + t / 2, RGB(0x6C, 0x63, 0xFF))
            canvas.fill(originX + boardWidth * 2 / 3, buttons, originX + boardWidth, buttons + t / 2, RGB(0x6C, 0x63, 0xFF))
        }
        canvas.fill(originX, originY, originX + boardWidth, originY + boardHeight, Self.frame, radius: roundedCorners ? t / 3 : 0)
        let left = originX + frame, top = originY + frame
        canvas.fill(left, top, left + puzzle.width * t, top + puzzle.height * t, Self.tray)
        // The chute: the frame cut open beside the exit row.
        let chuteTop = top + puzzle.exit.row * t + t / 10, chuteBottom = top + (puzzle.exit.row + 1) * t - t / 10
        let chuteLeft = puzzle.exit.side == .left ? originX : left + puzzle.width * t
        canvas.fill(chuteLeft, chuteTop, chuteLeft + frame, chuteBottom, Self.tray)
        var colours = Self.cars
        for (index, block) in puzzle.blocks.enumerated() {
            let rows = block.orientation == .vertical ? block.length : 1, columns = block.orientation == .horizontal ? block.length : 1
            let jitter = { random.below(5) - 2 }
            let x0 = left + block.column * t + seam + jitter(), y0 = top + block.row * t + seam + jitter()
            let x1 = left + (block.column + columns) * t - seam + jitter(), y1 = top + (block.row + rows) * t - seam + jitter()
            if block.isFixed {
                canvas.fill(x0, y0, x1, y1, Self.wall, radius: roundedCorners ? t / 10 : 0)
                for (dx, dy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                    let cx = x0 + Int(Double(x1 - x0) * dx), cy = y0 + Int(Double(y1 - y0) * dy)
                    canvas.fill(cx - t / 20, cy - t / 20, cx + t / 20, cy + t / 20, RGB(0xB0, 0xB0, 0xB4), radius: t / 20)
                }
                continue
            }
            let colour: RGB
            if index == puzzle.prisonerIndex {
                colour = Self.prisoner
            } else {
                if colours.isEmpty { colours = Self.cars }
                colour = colours.remove(at: random.below(colours.count))
            }
            canvas.fill(x0, y0, x1, y1, colour, radius: roundedCorners ? t / 6 : 0)
            if stripes {
                // Windows or stripes across the car, darker.
                let dark = RGB(colour.red * 3 / 4, colour.green * 3 / 4, colour.blue * 3 / 4)
                if block.orientation == .horizontal {
                    canvas.fill(x0 + (x1 - x0) / 4, y0 + t / 6, x0 + (x1 - x0) / 4 + t / 8, y1 - t / 6, dark)
                } else {
                    canvas.fill(x0 + t / 6, y0 + (y1 - y0) / 4, x1 - t / 6, y0 + (y1 - y0) / 4 + t / 8, dark)
                }
            }
        }
        return canvas.halved()
    }
}

/// Pixels to draw rectangles in, at twice the final size.
struct Canvas {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, colour: RGB) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 255, count: width * height * 4)
        fill(0, 0, width, height, colour)
    }

    /// [x0, x1) x [y0, y1), its corners cut round by `radius`.
    mutating func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ colour: RGB, radius: Int = 0) {
        for y in max(0, y0)..<min(height, max(y1, max(0, y0))) {
            for x in max(0, x0)..<min(width, max(x1, max(0, x0))) {
                if radius > 0 {
                    let dx = x < x0 + radius ? x0 + radius - x : x >= x1 - radius ? x - (x1 - radius - 1) : 0
                    let dy = y < y0 + radius ? y0 + radius - y : y >= y1 - radius ? y - (y1 - radius - 1) : 0
                    if dx * dx + dy * dy > radius * radius { continue }
                }
                let at = (y * width + x) * 4
                pixels[at] = UInt8(colour.red)
                pixels[at + 1] = UInt8(colour.green)
                pixels[at + 2] = UInt8(colour.blue)
            }
        }
    }

    /// Each 2x2 square averaged into one pixel.
    func halved() -> RGBAImage {
        let w = width / 2, h = height / 2
        var out = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for channel in 0..<3 {
                    var sum = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { sum += Int(pixels[((2 * y + dy) * width + 2 * x + dx) * 4 + channel]) }
                    out[(y * w + x) * 4 + channel] = UInt8(sum / 4)
                }
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }
}

extension SplitMix64 {
    /// A normal deviate (Box-Muller), for the noise the pictures are given.
    mutating func gaussian() -> Double {
        let u = max(1e-12, Double(next() >> 11) / Double(1 << 53)), v = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
