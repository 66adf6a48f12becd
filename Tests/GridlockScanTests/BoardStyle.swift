// Rush Hour boards drawn in ten looks that Unblock Me clones really have, by code written for
// the tests alone (not GridlockDrawing's, not PaintedBoard's), so that `gridlock scan` is
// measured on pictures it was not built against (issue 45). Every look keeps what a player
// needs to read the board: a frame, a tray showing between the blocks (a seam of 4-12% of a
// tile), a red or otherwise most distinct prisoner and the chute beside the exit row; the rest
// varies: palette, outlines, wood grain, bevels, screws, glows, rounded pills, an arrow for the
// exit. Two looks (`pastelRounded`, `neon`, in HeldOutStyles.swift) are held out: the scanner is
// never tuned on them.
//
//   margin or phone screen
//   +-----------------------------+
//   |  frame                      |
//   |  +-----+-----+-----+        |     canvas pixels are twice the final ones: shapes are
//   |  | B B |     |  H  |        |     drawn with hard edges, then `halved()` smooths them
//   |  |  tray seam   H  |        |
//   |  | A A |     |     |  chute (a notch in the frame, or an arrow past an uncut frame)
//   |  +-----+-----+-----+        |
//   +-----------------------------+

import Foundation
import GridlockCore
import GridlockScan

enum BoardStyle: String, CaseIterable, Sendable {
    case woodLight, flat, darkMode, highContrast, bevel3D, screws, plainGrey, arrow, pastelRounded, neon

    /// The looks the scanner may be tuned on; the others measure how well it generalises.
    var isHeldOut: Bool { self == .pastelRounded || self == .neon }
}

/// A rectangle of canvas pixels, [x0, x1) x [y0, y1).
struct PixelRect {
    var x0: Int, y0: Int, x1: Int, y1: Int

    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }

    func inset(by d: Int) -> PixelRect { PixelRect(x0: x0 + d, y0: y0 + d, x1: x1 - d, y1: y1 - d) }
}

extension Canvas {
    mutating func fill(_ rect: PixelRect, _ colour: RGB, radius: Int = 0) {
        fillRows(rect.x0, rect.y0, rect.x1, rect.y1, radius: radius) { _ in colour }
    }
}

/// Where the board lies on the canvas, in canvas pixels.
struct BoardGeometry {
    let puzzle: RushHourPuzzle
    /// One cell's side.
    let tile: Int
    /// The frame's thickness around the tray.
    let frame: Int
    /// The tray's top-left corner.
    let left: Int, top: Int

    var tray: PixelRect { PixelRect(x0: left, y0: top, x1: left + puzzle.width * tile, y1: top + puzzle.height * tile) }
    var outer: PixelRect { tray.inset(by: -frame) }
    var exitCentreY: Int { top + puzzle.exit.row * tile + tile / 2 }

    /// The notch cut through the frame beside the exit row, `inset` short of the row at each end.
    func chute(inset: Int) -> PixelRect {
        let x0 = puzzle.exit.side == .left ? left - frame : tray.x1
        return PixelRect(x0: x0, y0: top + puzzle.exit.row * tile + inset, x1: x0 + frame, y1: top + (puzzle.exit.row + 1) * tile - inset)
    }

    /// The block's cells less the seam, moved by a pixel or two as a hand-made board's are
    /// (never so far that it touches its neighbour).
    func rect(of block: RushHourBlock, seam: Int, random: inout SplitMix64) -> PixelRect {
        let rows = block.orientation == .vertical ? block.length : 1, columns = block.orientation == .horizontal ? block.length : 1
        let reach = max(1, seam / 4)
        let dx = random.below(2 * reach + 1) - reach, dy = random.below(2 * reach + 1) - reach
        return PixelRect(
            x0: left + block.column * tile + seam + dx, y0: top + block.row * tile + seam + dy,
            x1: left + (block.column + columns) * tile - seam + dx, y1: top + (block.row + rows) * tile - seam + dy)
    }
}

enum StyledBoard {
    /// The board in `style`, with a margin or a phone's screen around it; `tile` is a cell's
    /// side in the final picture (20-90 pixels).
    static func paint(_ puzzle: RushHourPuzzle, style: BoardStyle, tile: Int, random: inout SplitMix64) -> RGBAImage {
        precondition(tile >= 8, "a tile of \(tile) pixels is too small to draw")
        let t = tile * 2
        let frame = t * (style == .neon ? 18 + random.below(12) : 24 + random.below(22)) / 100
        let boardWidth = puzzle.width * t + 2 * frame, boardHeight = puzzle.height * t + 2 * frame
        let background = backgroundColours(style, &random)
        var canvas: Canvas
        let boardX: Int, boardY: Int
        if random.below(3) == 0 {
            (canvas, boardX, boardY) = phoneScreen(boardWidth: boardWidth, boardHeight: boardHeight, tile: t, random: &random)
        } else {
            // The arrow and neon styles need room outside the frame for their arrows.
            let least = style == .arrow || style == .neon ? t * 8 / 10 : t / 5
            let margins = (0..<4).map { _ in least + t * random.below(60) / 100 }
            canvas = Canvas(width: boardWidth + margins[0] + margins[1], height: boardHeight + margins[2] + margins[3], background: background.top)
            canvas.gradient(0, 0, canvas.width, canvas.height, top: background.top, bottom: background.bottom)
            (boardX, boardY) = (margins[0], margins[2])
        }
        let geometry = BoardGeometry(puzzle: puzzle, tile: t, frame: frame, left: boardX + frame, top: boardY + frame)
        switch style {
        case .pastelRounded: HeldOutStyles.paintPastelRounded(geometry, on: &canvas, random: &random)
        case .neon: HeldOutStyles.paintNeon(geometry, on: &canvas, random: &random)
        default: paintClassic(geometry, look: StyleLook.look(style, &random), on: &canvas, random: &random)
        }
        // `Canvas.halved()` as GridlockScan's optimised whole-factor shrink does it: this target
        // compiles unoptimised even in a release build, where halving took a fifth of a picture.
        return RGBAImage(width: canvas.width, height: canvas.height, pixels: canvas.pixels).reduced(toAtMost: (canvas.width / 2) * (canvas.height / 2))
    }

    /// The colours behind the board (top and bottom of a gradient) when it is not on a phone.
    static func backgroundColours(_ style: BoardStyle, _ random: inout SplitMix64) -> (top: RGB, bottom: RGB) {
        switch style {
        case .pastelRounded: (RGB(hex: 0xFDE2E4).jittered(6, &random), RGB(hex: 0xDDE5F6).jittered(6, &random))
        case .neon: (RGB(hex: 0x070B24), RGB(hex: 0x151A4A).jittered(6, &random))
        case .darkMode: (RGB(hex: 0x121212), RGB(hex: 0x181818))
        case .woodLight: (RGB(hex: 0xEFE9DF).jittered(6, &random), RGB(hex: 0xD8CFC0).jittered(6, &random))
        case .bevel3D: (RGB(hex: 0x3A6EA5).jittered(10, &random), RGB(hex: 0x1C3557).jittered(10, &random))
        case .highContrast: (RGB(255, 255, 255), RGB(hex: 0xE8E8E8))
        case .screws: (RGB(hex: 0x5F6B73).jittered(8, &random), RGB(hex: 0x3E474D).jittered(8, &random))
        case .plainGrey: (RGB(hex: 0xF0F0E8).jittered(6, &random), RGB(hex: 0xF0F0E8).jittered(6, &random))
        case .flat: (RGB(hex: 0xF7F7F7), RGB(hex: 0xF7F7F7))
        case .arrow: (RGB(hex: 0xFAF3E0).jittered(5, &random), RGB(hex: 0xF3E7C9).jittered(5, &random))
        }
    }
}
