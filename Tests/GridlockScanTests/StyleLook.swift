// What each of the eight tunable looks chooses (colours, outlines, finish, the fixed block's
// marks, how the exit is shown); StyledBoard+Classic.swift draws any of them the same way.
// Every colour moves a little from board to board (`jittered`), so a style is a family of
// pictures, not one palette the scanner could learn by heart.

import Foundation
import GridlockCore
import GridlockScan

struct StyleLook {
    enum Finish { case flat, woodGrain, bevel }

    var frame: RGB
    /// Percent of a tile.
    var frameRadius = 0
    var tray: RGB
    /// The notch's colour; nil when the frame stays whole and an arrow shows the exit.
    var chute: RGB?
    var arrow: RGB?
    var cars: [RGB]
    var prisoner: RGB
    var fixed: RGB
    var fixedScrews: Bool
    var outline: RGB?
    /// Percent of a tile.
    var outlineWidth = 0
    /// Percent of a tile.
    var carRadius = 0
    var finish = Finish.flat
    var gridLines: RGB?
    var trayShadow = false
    /// Percent of a tile each block is inset by: the tray between neighbours shows twice that.
    var seam: Int

    static func look(_ style: BoardStyle, _ random: inout SplitMix64) -> StyleLook {
        func palette(_ hexes: [Int], _ spread: Int = 10) -> [RGB] { hexes.map { RGB(hex: $0).jittered(spread, &random) } }
        let seam = 2 + random.below(5)
        switch style {
        // Light wooden blocks with a faint grain and a dark brown outline on a light wooden tray, a brown wooden frame.
        case .woodLight:
            return StyleLook(
                frame: RGB(hex: 0x7A4B2A).jittered(12, &random), frameRadius: random.below(12), tray: RGB(hex: 0xF0DDB8).jittered(8, &random),
                chute: RGB(hex: 0xF6E8CC).jittered(6, &random), cars: palette([0xD9B07A, 0xE3C391, 0xCFA068, 0xDDB984, 0xC99A60], 8),
                prisoner: RGB(hex: 0xC8322A).jittered(12, &random), fixed: RGB(hex: 0x8C8C88).jittered(8, &random), fixedScrews: true,
                outline: RGB(hex: 0x5E3A1E).jittered(10, &random), outlineWidth: 2 + random.below(2), carRadius: random.below(6),
                finish: .woodGrain, seam: seam)
        // Flat saturated colours, no outlines, a white tray with 1-pixel grid lines, a dark slate frame.
        case .flat:
            return StyleLook(
                frame: RGB(hex: 0x2F3E4E).jittered(10, &random), tray: RGB(hex: 0xFAFAFA).jittered(4, &random),
                chute: RGB(hex: 0xFAFAFA), cars: palette([0x1E88E5, 0x43A047, 0xFDD835, 0x8E24AA, 0xFB8C00, 0x00ACC1, 0x6D4C41, 0x3949AB]),
                prisoner: RGB(hex: 0xE53935).jittered(8, &random), fixed: RGB(hex: 0x78909C).jittered(8, &random), fixedScrews: false,
                carRadius: random.below(5), gridLines: RGB(hex: 0xD6D6D6).jittered(8, &random), seam: seam)
        // Night mode: a near-black tray, a frame only a little lighter, muted pastel blocks, a soft red prisoner.
        case .darkMode:
            return StyleLook(
                frame: RGB(hex: 0x2C2C2C).jittered(5, &random), frameRadius: random.below(15), tray: RGB(hex: 0x1E1E1E).jittered(3, &random),
                chute: RGB(hex: 0x555555).jittered(8, &random), cars: palette([0x7FA7C9, 0x8FBF9F, 0xD8C690, 0xB49CC8, 0xD9A27E, 0x86C4C4, 0xA0A0B8]),
                prisoner: RGB(hex: 0xE57373).jittered(8, &random), fixed: RGB(hex: 0x5A5A5A).jittered(6, &random), fixedScrews: random.coinFlip(),
                carRadius: 6 + random.below(10), seam: seam)
        // Print-like: white tray, black frame, every block black-outlined with one white or yellow fill, only the prisoner red.
        case .highContrast:
            let fill = random.coinFlip() ? RGB(255, 255, 255) : RGB(hex: 0xFFE600)
            return StyleLook(
                frame: RGB(0, 0, 0), tray: RGB(255, 255, 255), chute: RGB(255, 255, 255), cars: [fill],
                prisoner: RGB(hex: 0xE00000), fixed: RGB(hex: 0x404040), fixedScrews: false,
                outline: RGB(0, 0, 0), outlineWidth: 4 + random.below(4), carRadius: random.below(8), seam: seam + 1)
        // Glossy 3D: bevels lighter at the top left and darker at the bottom right, gradient faces, a shaded tray.
        case .bevel3D:
            return StyleLook(
                frame: RGB(hex: 0x4E342E).jittered(12, &random), frameRadius: 4 + random.below(10), tray: RGB(hex: 0xCDBB99).jittered(10, &random),
                chute: RGB(hex: 0xE6D8BC).jittered(6, &random), cars: palette([0x2979FF, 0x00C853, 0xFFD600, 0xAA00FF, 0xFF6D00, 0x00B8D4, 0x795548]),
                prisoner: RGB(hex: 0xD50000).jittered(10, &random), fixed: RGB(hex: 0x8A8A8A).jittered(8, &random), fixedScrews: false,
                carRadius: random.below(6), finish: .bevel, trayShadow: true, seam: seam)
        // Workshop: fixed blocks as grey plates with four screw heads, mid-tone cars with rounded corners on a blue-grey tray.
        case .screws:
            return StyleLook(
                frame: RGB(hex: 0x37474F).jittered(8, &random), frameRadius: 6 + random.below(10), tray: RGB(hex: 0xB0BEC5).jittered(8, &random),
                chute: RGB(hex: 0xCFD8DC).jittered(6, &random), cars: palette([0x4F7FB0, 0x5FA35F, 0xC9A227, 0x8E6CB8, 0xC97A3A, 0x3E9C9C]),
                prisoner: RGB(hex: 0xD32F2F).jittered(8, &random), fixed: RGB(hex: 0x8A8A8A).jittered(10, &random), fixedScrews: true,
                carRadius: 14 + random.below(12), seam: seam)
        // Plain: fixed blocks as unmarked grey squares, small rounded corners, a green or blue tray.
        case .plainGrey:
            let green = random.coinFlip()
            return StyleLook(
                frame: RGB(hex: green ? 0x2E5E3A : 0x23395B).jittered(10, &random), tray: RGB(hex: green ? 0x9CCC9C : 0x9EC3E0).jittered(10, &random),
                chute: RGB(hex: green ? 0xC5E6C5 : 0xC9DEF0).jittered(6, &random), cars: palette([0xF5F5F5, 0xFFB74D, 0xBA68C8, 0x26A69A, 0x5C6BC0, 0xF06292, 0xFFF176]),
                prisoner: RGB(hex: 0xE53935).jittered(8, &random), fixed: RGB(hex: 0x808080).jittered(20, &random), fixedScrews: false,
                carRadius: 4 + random.below(6), seam: seam)
        // The frame left whole, the exit shown by an arrow or chevron outside it in a bright contrasting colour.
        case .arrow:
            return StyleLook(
                frame: RGB(hex: 0x1565C0).jittered(12, &random), frameRadius: random.below(20), tray: RGB(hex: 0xE3F2FD).jittered(6, &random),
                chute: nil, arrow: RGB(hex: random.coinFlip() ? 0x2E7D32 : 0xFF8F00).jittered(10, &random),
                cars: palette([0xFFA000, 0x7CB342, 0x5E35B1, 0x00897B, 0x6D4C41, 0xFDD835, 0x039BE5]),
                prisoner: RGB(hex: 0xE53935).jittered(8, &random), fixed: RGB(hex: 0x757575).jittered(10, &random), fixedScrews: random.coinFlip(),
                carRadius: random.below(12), seam: seam)
        case .pastelRounded, .neon:
            preconditionFailure("\(style) is drawn by HeldOutStyles")
        }
    }
}
