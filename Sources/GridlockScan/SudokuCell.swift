// One cell of a Sudoku grid: the ink inside its lines, split into pieces, and the mark those
// near the middle make. Specks of noise are too small to count; a line's edge left inside the
// cell hugs the border, away from the middle.

import GridlockDigits

enum SudokuCell {
    /// The mark in a cell as ink (0 paper, 255 the darkest), cut to the mark; nil for a blank.
    static func mark(in cell: (x0: Int, y0: Int, x1: Int, y1: Int), grey: GreyImage, ink: [Bool], row: Int, column: Int) throws -> InkPatch? {
        // A line's blurred edge is left out.
        let inset = max(1, (cell.x1 - cell.x0) / 16)
        let x0 = cell.x0 + inset, y0 = cell.y0 + inset, x1 = cell.x1 - inset, y1 = cell.y1 - inset
        let width = x1 - x0, height = y1 - y0
        guard width >= 6, height >= 6 else { throw ScanError("row \(row + 1), column \(column + 1): the cell is \(width)x\(height) pixels inside its lines, too small to read") }
        var local = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width { local[y * width + x] = ink[(y0 + y) * grey.width + x0 + x] }
        }
        let pieces = InkPieces(ink: local, width: width, height: height)
        let area = width * height
        let smallest = max(4, area / 300)
        var bounds: (x0: Int, y0: Int, x1: Int, y1: Int)?
        var strayInk = 0
        for piece in pieces.pieces where piece.pixels >= smallest {
            let middleX = Double(piece.x0 + piece.x1) / 2 / Double(width), middleY = Double(piece.y0 + piece.y1) / 2 / Double(height)
            guard abs(middleX - 0.5) < 0.3, abs(middleY - 0.5) < 0.3 else { strayInk += piece.pixels; continue }
            bounds = bounds.map { (min($0.x0, piece.x0), min($0.y0, piece.y0), max($0.x1, piece.x1), max($0.y1, piece.y1)) }
                ?? (piece.x0, piece.y0, piece.x1, piece.y1)
        }
        guard let bounds else {
            if strayInk * 40 >= area {
                throw ScanError("row \(row + 1), column \(column + 1): ink away from the cell's middle, neither a digit nor blank")
            }
            return nil
        }
        // Ink measured against the cell's paper: the mean of what is not ink.
        var paperSum = 0, paperCount = 0
        for y in 0..<height {
            for x in 0..<width where !local[y * width + x] {
                paperSum += Int(grey[x0 + x, y0 + y]); paperCount += 1
            }
        }
        let paper = paperCount > 0 ? paperSum / paperCount : 255
        let markWidth = bounds.x1 - bounds.x0 + 2, markHeight = bounds.y1 - bounds.y0 + 2
        var darkest = 255
        for y in 0..<markHeight {
            for x in 0..<markWidth { darkest = min(darkest, Int(grey[x0 + bounds.x0 - 1 + x, y0 + bounds.y0 - 1 + y])) }
        }
        let contrast = max(paper - darkest, 40)
        var patch = [UInt8](repeating: 0, count: markWidth * markHeight)
        for y in 0..<markHeight {
            for x in 0..<markWidth {
                let level = Int(grey[x0 + bounds.x0 - 1 + x, y0 + bounds.y0 - 1 + y])
                patch[y * markWidth + x] = UInt8(max(0, min(255, (paper - level) * 255 / contrast)))
            }
        }
        return InkPatch(width: markWidth, height: markHeight, ink: patch)
    }
}
