// A phone's screenshot around the board, as players send them: a status bar (clock, signal,
// battery), a title and a move counter drawn as text-like marks, the board anywhere on a dark
// textured background (noise or diagonal stripes), and rounded Menu / Hint / Reset buttons under
// it. The marks are what a scanner must not take for blocks.
//
//   +----------------------+
//   | 9:41        ▮▮▮ ▭    |  status bar
//   |   LEVEL 123  moves 0 |  title
//   |  +----------------+  |
//   |  |     board      |  |  anywhere between title and buttons
//   |  +----------------+  |
//   |  (Menu) (Hint) (Reset)|
//   +----------------------+

import Foundation
import GridlockCore
import GridlockScan

extension StyledBoard {
    /// The screen (in canvas pixels, twice the final ones) and where the board's outer
    /// top-left corner goes on it.
    static func phoneScreen(boardWidth: Int, boardHeight: Int, tile: Int, random: inout SplitMix64) -> (Canvas, Int, Int) {
        // The screen is never over about 0.9 megapixels in the end, so one picture stays fast.
        let width = boardWidth + max(tile / 4, boardWidth * random.below(70) / 100)
        let unit = max(12, width / 18)
        let furniture = unit * 6
        let height = max(boardHeight + furniture, min(width * (17 + random.below(5)) / 10, 3_600_000 / width))
        let background = [RGB(hex: 0x1B1B2F), RGB(hex: 0x263238), RGB(hex: 0x2D1B2E), RGB(hex: 0x14261C), RGB(hex: 0x202020)][random.below(5)].jittered(6, &random)
        var canvas = Canvas(width: width, height: height, background: background)
        texture(&canvas, background, &random)
        // The status bar: a clock at the left, signal bars and a battery at the right.
        let bar = unit
        if random.coinFlip() { canvas.box(0, 0, width, bar, RGB(0, 0, 0)) }
        let ink = RGB(hex: 0xF2F2F2)
        _ = textMarks(&canvas, x: unit / 2, y: bar / 4, height: bar / 2, words: [4], ink, &random)
        for step in 0..<4 {
            let x = width - unit * 3 + step * unit / 4
            canvas.box(x, bar * 3 / 4 - (step + 1) * bar / 10, x + unit / 6, bar * 3 / 4, ink)
        }
        canvas.box(width - unit * 3 / 2, bar / 4, width - unit / 2, bar * 3 / 4, ink, radius: bar / 10)
        canvas.box(width - unit * 3 / 2 + 2, bar / 4 + 2, width - unit * 3 / 2 + unit * (3 + random.below(6)) / 10, bar * 3 / 4 - 2, RGB(hex: 0x4CAF50))
        // The title and a move counter.
        let titleY = bar + unit / 2
        let accent = [RGB(hex: 0xFFC107), RGB(hex: 0xFFFFFF), RGB(hex: 0x80DEEA), RGB(hex: 0xFF8A65)][random.below(4)]
        _ = textMarks(&canvas, x: width / 2 - unit * 3, y: titleY, height: unit * 3 / 4, words: [5, 3], accent, &random)
        _ = textMarks(&canvas, x: width - unit * 4, y: titleY + unit / 8, height: unit / 2, words: [5, 1 + random.below(2)], ink.shaded(-0.2), &random)
        // The board between the title and the buttons, anywhere in that room.
        let top = titleY + unit * 3 / 2, bottom = height - unit * 5 / 2
        let x = random.below(max(1, width - boardWidth + 1)), y = top + random.below(max(1, bottom - top - boardHeight + 1))
        let below = y + boardHeight + unit / 2
        let buttonsY = min(height - unit * 3 / 2, below + random.below(max(1, height - unit * 2 - below)))
        let button = [RGB(hex: 0x3D5AFE), RGB(hex: 0xFF9100), RGB(hex: 0x00BFA5), RGB(hex: 0x546E7A)][random.below(4)].jittered(10, &random)
        let gap = width / 24, buttonWidth = (width - 4 * gap) / 3
        for (slot, letters) in [4, 4, 5].enumerated() {
            let x0 = gap + slot * (buttonWidth + gap)
            canvas.box(x0, buttonsY, x0 + buttonWidth, buttonsY + unit, button, radius: unit / 2)
            let markWidth = letters * unit * 6 / 20
            _ = textMarks(&canvas, x: x0 + (buttonWidth - markWidth) / 2, y: buttonsY + unit / 3, height: unit / 3, words: [letters], ink, &random)
        }
        return (canvas, x, y)
    }

    /// Dark noise or faint diagonal stripes over the whole screen, each row a copy of one
    /// pattern row shifted (a pixel loop over the screen was slow in this unoptimised target).
    static func texture(_ canvas: inout Canvas, _ base: RGB, _ random: inout SplitMix64) {
        let width = canvas.width, period = 12 + random.below(30), stripes = random.coinFlip()
        let spread = 6 + random.below(8), stripe = base.shaded(0.06)
        var pattern = [UInt8](repeating: 255, count: (width + period) * 4)
        for x in 0..<width + period {
            let colour: RGB
            if stripes {
                colour = x % period < period / 2 ? stripe : base
            } else {
                let draw = random.below(2 * spread + 1) - spread
                colour = RGB(base.red + draw, base.green + draw, base.blue + draw)
            }
            (pattern[4 * x], pattern[4 * x + 1], pattern[4 * x + 2]) = (UInt8(max(0, min(255, colour.red))), UInt8(max(0, min(255, colour.green))), UInt8(max(0, min(255, colour.blue))))
        }
        canvas.copyRows(from: pattern) { y in stripes ? y % period : random.below(period) }
    }

    /// Words of blocky letters, as text looks from afar; returns where the marks end.
    static func textMarks(_ canvas: inout Canvas, x: Int, y: Int, height: Int, words: [Int], _ colour: RGB, _ random: inout SplitMix64) -> Int {
        var at = x
        for letters in words {
            for _ in 0..<letters {
                let letterWidth = max(1, height * (45 + random.below(25)) / 100)
                let rise = random.below(4) == 0 ? height / 4 : 0
                canvas.box(at, y + rise, at + letterWidth, y + height, colour, radius: height / 8)
                at += letterWidth + max(1, height / 6)
            }
            at += height / 2
        }
        return at
    }
}
