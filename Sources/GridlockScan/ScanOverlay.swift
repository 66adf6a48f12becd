// `gridlock scan --debug-overlay`: the picture with what the scanner saw drawn on it: the
// board's edge and its grid in magenta, and for a board read, a mark in each tile (green
// empty, blue a block, red the prisoner, grey a fixed block) and the chute in yellow.

import GridlockCore

public enum ScanOverlay {
    /// The picture with the scan drawn on it, as the scanner read it: at its size, straightened,
    /// and for a board photographed at a slant, its frame's inside rectified. Nothing drawn
    /// when no board was found.
    public static func draw(_ image: RGBAImage) -> RGBAImage {
        let attempt = RushHourScanner.attempt(image)
        var canvas = attempt.picture
        guard let board = attempt.board else { return canvas }
        let magenta = RGB(255, 0, 255)
        for column in 0...board.columns {
            let x = Int((board.left + Double(column) * board.tileWidth).rounded())
            canvas.line(x0: x, y0: Int(board.top), x1: x, y1: Int(board.bottom), colour: magenta, thickness: column == 0 || column == board.columns ? 3 : 1)
        }
        for row in 0...board.rows {
            let y = Int((board.top + Double(row) * board.tileHeight).rounded())
            canvas.line(x0: Int(board.left), y0: y, x1: Int(board.right), y1: y, colour: magenta, thickness: row == 0 || row == board.rows ? 3 : 1)
        }
        guard case .success(let scanned) = attempt.reading else { return canvas }
        let puzzle = scanned.puzzle
        let marks = max(2, Int(board.tile * 0.12))
        for row in 0..<board.rows {
            for column in 0..<board.columns {
                let (x, y) = board.centre(row: row, column: column)
                let block = puzzle.blocks.firstIndex { $0.cells.contains(BoardCell(row: row, column: column)) }
                let colour = block.map { index in
                    index == puzzle.prisonerIndex ? RGB(230, 0, 0) : puzzle.blocks[index].isFixed ? RGB(128, 128, 128) : RGB(0, 90, 255)
                } ?? RGB(0, 200, 0)
                canvas.fill(x0: Int(x) - marks, y0: Int(y) - marks, x1: Int(x) + marks, y1: Int(y) + marks, colour: colour)
            }
        }
        let (chuteX, chuteY) = board.centre(row: puzzle.exit.row, column: puzzle.exit.side == .left ? 0 : board.columns - 1)
        let outside = puzzle.exit.side == .left ? chuteX - board.tile * 0.7 : chuteX + board.tile * 0.7
        canvas.fill(x0: Int(outside) - marks, y0: Int(chuteY) - marks, x1: Int(outside) + marks, y1: Int(chuteY) + marks, colour: RGB(255, 220, 0))
        return canvas
    }
}

extension RGBAImage {
    mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, colour: RGB) {
        for y in Self.clamped(y0, y1, to: height) {
            for x in Self.clamped(x0, x1, to: width) {
                let at = (y * width + x) * 4
                pixels[at] = UInt8(colour.red)
                pixels[at + 1] = UInt8(colour.green)
                pixels[at + 2] = UInt8(colour.blue)
                pixels[at + 3] = 255
            }
        }
    }

    /// A horizontal or vertical line.
    mutating func line(x0: Int, y0: Int, x1: Int, y1: Int, colour: RGB, thickness: Int) {
        let half = thickness / 2
        if x0 == x1 {
            fill(x0: x0 - half, y0: min(y0, y1), x1: x0 - half + thickness, y1: max(y0, y1) + 1, colour: colour)
        } else {
            fill(x0: min(x0, x1), y0: y0 - half, x1: max(x0, x1) + 1, y1: y0 - half + thickness, colour: colour)
        }
    }
}
