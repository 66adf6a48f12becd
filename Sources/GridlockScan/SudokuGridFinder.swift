// Where a Sudoku grid is in a picture: its lines are one piece of ink (every inner line meets
// the outer square), about square, with a line all along each side. Inside it, the ten lines
// each way are found near where an even division puts them: the heaviest column (row) of the
// grid's ink there, and its width, so thick box lines and a slightly uneven print both fit.

public struct SudokuLines: Sendable, Hashable {
    /// Each line's first and last pixel column (for `vertical`) or row (`horizontal`), ten each,
    /// outer lines included.
    public var vertical: [ClosedRange<Int>]
    public var horizontal: [ClosedRange<Int>]

    /// The inside of cell (row, column), between its four lines, as (x0, y0, x1, y1), ends past.
    public func cell(row: Int, column: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        (vertical[column].upperBound + 1, horizontal[row].upperBound + 1, vertical[column + 1].lowerBound, horizontal[row + 1].lowerBound)
    }
}

enum SudokuGridFinder {
    /// The smallest grid read: cells of 12 pixels.
    static let minimumSide = 108

    /// The grid's piece and its lines; an error says why no grid was taken.
    static func find(_ pieces: InkPieces) -> Result<(label: Int32, lines: SudokuLines), ScanError> {
        let candidates = pieces.pieces.indices.filter { index in
            let piece = pieces.pieces[index]
            let ratio = Double(piece.width) / Double(piece.height)
            return piece.width >= minimumSide && piece.height >= minimumSide && ratio > 0.8 && ratio < 1.25
        }.sorted { pieces.pieces[$0].width * pieces.pieces[$0].height > pieces.pieces[$1].width * pieces.pieces[$1].height }
        var firstProblem: ScanError?
        for index in candidates {
            let label = Int32(index + 1)
            switch lines(of: label, in: pieces) {
            case .success(let lines): return .success((label, lines))
            case .failure(let problem): firstProblem = firstProblem ?? problem
            }
        }
        return .failure(firstProblem ?? ScanError("no Sudoku grid found: no square of lines at least \(minimumSide) pixels wide", noGrid: true))
    }

    static func lines(of label: Int32, in pieces: InkPieces) -> Result<SudokuLines, ScanError> {
        let piece = pieces.pieces[Int(label) - 1]
        // The grid's ink is its piece, and the pieces inside it that are lines too. A light
        // line (gridlock's own `render` draws them 1 pixel wide, in #aaa) is no ink where it
        // meets a dark one, whose shade lowers its neighbourhood's mean: it comes apart from
        // the grid, a box's worth of thin lines together, or (in a JPEG) a cell's length at a
        // time. So a piece longer than a cell and a third counts (a digit stays in its cell),
        // and so does one over half a cell long and at least 6 times as long as it is wide
        // (a digit "1" that thin sits in its cell's middle, far from any line looked for).
        let cell = max(piece.width, piece.height) / 9
        var isGrid = [Bool](repeating: false, count: pieces.pieces.count + 1)
        for (index, other) in pieces.pieces.enumerated()
        where other.x0 >= piece.x0 && other.x1 <= piece.x1 && other.y0 >= piece.y0 && other.y1 <= piece.y1 {
            let long = max(other.width, other.height), wide = min(other.width, other.height)
            isGrid[index + 1] = long * 3 > cell * 4 || (long * 2 > cell && wide * 6 <= long)
        }
        isGrid[Int(label)] = true
        // How many of the grid's pixels each column and each row of its extent holds.
        var columns = [Int](repeating: 0, count: piece.width), rows = [Int](repeating: 0, count: piece.height)
        pieces.labels.withUnsafeBufferPointer { labels in
            for y in piece.y0..<piece.y1 {
                for x in piece.x0..<piece.x1 where isGrid[Int(labels[y * pieces.width + x])] {
                    columns[x - piece.x0] += 1
                    rows[y - piece.y0] += 1
                }
            }
        }
        guard let vertical = find(in: columns, across: piece.height, name: "column"),
              let horizontal = find(in: rows, across: piece.width, name: "row") else {
            return .failure(ScanError("no Sudoku grid found: a square of ink at (\(piece.x0), \(piece.y0)), \(piece.width)x\(piece.height) pixels, has no lines where nine equal cells put them", noGrid: true))
        }
        return .success(SudokuLines(
            vertical: vertical.map { ($0.lowerBound + piece.x0)...($0.upperBound + piece.x0) },
            horizontal: horizontal.map { ($0.lowerBound + piece.y0)...($0.upperBound + piece.y0) }))
    }

    /// The ten lines along one axis of a grid `length` long: each the heaviest run near its
    /// even place, at least half as heavy as the grid is long (a line crosses the whole grid;
    /// a digit touching the lines does not).
    private static func find(in counts: [Int], across length: Int, name: String) -> [ClosedRange<Int>]? {
        let extent = counts.count
        let cell = Double(extent) / 9
        let reach = max(2, Int(cell / 5))
        var lines: [ClosedRange<Int>] = []
        for index in 0...9 {
            let expected = Int((Double(index) * cell).rounded())
            let window = max(0, expected - reach)...min(extent - 1, expected + reach)
            guard let peak = window.max(by: { counts[$0] < counts[$1] }), counts[peak] * 2 >= length else { return nil }
            // The line's width: the run around the peak of columns at least half as heavy.
            var low = peak, high = peak
            while low > 0, counts[low - 1] * 2 >= counts[peak] { low -= 1 }
            while high < extent - 1, counts[high + 1] * 2 >= counts[peak] { high += 1 }
            if let previous = lines.last, low <= previous.upperBound + 1 { return nil }
            lines.append(low...high)
        }
        return lines
    }
}
