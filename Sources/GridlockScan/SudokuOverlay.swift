// `gridlock scan --debug-overlay` on a Sudoku grid: the picture at the size the scanner reads
// it, the grid's lines as found in magenta, a green mark in each cell read surely and a red
// frame round each flagged one.

public enum SudokuOverlay {
    public static func draw(_ image: RGBAImage) -> RGBAImage {
        var canvas = image.reduced(toAtMost: SudokuScanner.workingPixels)
        guard case .success(let scanned) = SudokuScanner.scan(image) else { return canvas }
        let lines = scanned.lines
        let top = lines.horizontal[0].lowerBound, bottom = lines.horizontal[9].upperBound
        let left = lines.vertical[0].lowerBound, right = lines.vertical[9].upperBound
        let magenta = RGB(255, 0, 255)
        for line in lines.vertical { canvas.fill(x0: line.lowerBound, y0: top, x1: line.upperBound + 1, y1: bottom + 1, colour: magenta) }
        for line in lines.horizontal { canvas.fill(x0: left, y0: line.lowerBound, x1: right + 1, y1: line.upperBound + 1, colour: magenta) }
        let flagged = Set(scanned.uncertain.map { ($0.row - 1) * 9 + $0.column - 1 })
        for cell in 0..<81 where scanned.readings[cell] != nil {
            let box = lines.cell(row: cell / 9, column: cell % 9)
            if flagged.contains(cell) {
                let red = RGB(230, 0, 0), width = max(2, (box.x1 - box.x0) / 12)
                canvas.fill(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y0 + width, colour: red)
                canvas.fill(x0: box.x0, y0: box.y1 - width, x1: box.x1, y1: box.y1, colour: red)
                canvas.fill(x0: box.x0, y0: box.y0, x1: box.x0 + width, y1: box.y1, colour: red)
                canvas.fill(x0: box.x1 - width, y0: box.y0, x1: box.x1, y1: box.y1, colour: red)
            } else {
                let mark = max(2, (box.x1 - box.x0) / 8)
                canvas.fill(x0: box.x0 + 1, y0: box.y0 + 1, x1: box.x0 + 1 + mark, y1: box.y0 + 1 + mark, colour: RGB(0, 200, 0))
            }
        }
        return canvas
    }
}
