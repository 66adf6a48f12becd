// Where the board is in a picture, and how many tiles it has: the inside of its frame, found
// as a rectangle of long straight edges (the frame's inner edge, broken on one side by the
// chute), whose inside divides into square tiles along which the blocks' edges and the tray's
// lines run. No colour of any theme is assumed: only that the frame contrasts with what it
// holds, and that the blocks sit on a grid of square tiles.
//
// Each pair of long horizontal lines of about the same extent is a candidate's top and bottom,
// kept when edges run down both its sides for most of its height. Each candidate is tried with
// every grid of 3 to 8 tiles a side whose tiles come out square: the grid's score is how much
// more often an edge runs near its inner lines than near lines through its tiles' middles. Each candidate keeps the finest grid that
// scores near its best (a 3x3 grid's lines are a 6x6 grid's too). The board is the candidate
// that fits best, or the largest that holds it on the same grid and fits nearly as well (a
// rectangle of part of the board, between two of its lines, fits as well as the board).

struct BoardGrid: Sendable, Hashable {
    /// The inside of the frame, in pixels: [left, right) x [top, bottom).
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double
    var columns: Int
    var rows: Int
    /// How well the grid's lines fit the edges, 0-1.
    var score: Double

    var tileWidth: Double { (right - left) / Double(columns) }
    var tileHeight: Double { (bottom - top) / Double(rows) }
    var tile: Double { (tileWidth + tileHeight) / 2 }

    /// Whether `other` lies inside this grid, larger than it, with its edges on this grid's
    /// lines and tiles of the same size: a part of this board.
    func holds(_ other: BoardGrid) -> Bool {
        guard columns * rows > other.columns * other.rows, abs(other.tile / tile - 1) < 0.06 else { return false }
        let slack = tile * 0.15
        func onLine(_ value: Double, from start: Double, step: Double, count: Int) -> Bool {
            let position = (value - start) / step
            return position > -0.15 && position < Double(count) + 0.15 && abs(position - position.rounded()) * step <= slack
        }
        return onLine(other.left, from: left, step: tileWidth, count: columns) && onLine(other.right, from: left, step: tileWidth, count: columns)
            && onLine(other.top, from: top, step: tileHeight, count: rows) && onLine(other.bottom, from: top, step: tileHeight, count: rows)
    }

    /// The centre of tile (row, column).
    func centre(row: Int, column: Int) -> (x: Double, y: Double) {
        (left + (Double(column) + 0.5) * tileWidth, top + (Double(row) + 0.5) * tileHeight)
    }
}

enum BoardFinder {
    static let sizes = 3...8

    /// The most rectangles of long lines tried as the board. A board's picture, phone's screen
    /// included, shows a few dozen at most (25 in the tests' 2,000 pictures); stripes or a mesh
    /// show thousands, each costing a grid search (26,564 took 2 s), so past this the picture
    /// is refused, saying to crop it: a board on graph paper is refused too, where ranking the
    /// rectangles to try the likeliest could not tell its frame from the paper's lines.
    static let maximumCandidates = 500

    static func find(in edges: EdgeMap) throws(ScanError) -> BoardGrid? {
        let shorter = min(edges.width, edges.height)
        let minimum = max(24, shorter / 5)
        let gap = max(2, shorter / 200)
        let horizontal = edges.horizontalLines(minimum: minimum, gap: gap)
        let vertical = edges.verticalLines(minimum: minimum / 2, gap: gap)
        // The rectangles first, counted before any grid is searched: stripes are refused at
        // the cost of their lines alone.
        var rectangles: [(left: Int, top: Int, right: Int, bottom: Int)] = []
        for (index, top) in horizontal.enumerated() {
            for bottom in horizontal[(index + 1)...] where bottom.position > top.position {
                let height = bottom.position - top.position
                let tolerance = max(3, top.length / 30)
                guard abs(top.start - bottom.start) <= tolerance, abs(top.end - bottom.end) <= tolerance else { continue }
                let left = (top.start + bottom.start) / 2, right = (top.end + bottom.end) / 2
                let width = right - left
                guard height * 3 >= width, width * 3 >= height else { continue }
                guard sideSupport(vertical, at: left, from: top.position, to: bottom.position, tolerance: tolerance) >= 0.6,
                      sideSupport(vertical, at: right, from: top.position, to: bottom.position, tolerance: tolerance) >= 0.6
                else { continue }
                rectangles.append((left, top.position, right, bottom.position))
                guard rectangles.count <= maximumCandidates else {
                    throw ScanError("""
                        no board found: more than \(maximumCandidates) rectangles of long straight lines could each be the \
                        board, where a board's picture shows a few dozen (stripes, a mesh or a patterned background such as \
                        graph paper): crop the picture to the board
                        """)
                }
            }
        }
        let candidates = rectangles.compactMap { bestGrid(left: $0.left, top: $0.top, right: $0.right, bottom: $0.bottom, edges: edges) }
        guard var board = candidates.max(by: { $0.score < $1.score }), board.score >= 0.2 else { return nil }
        // A rectangle of part of the board fits as well as the board: the board holds it, on the
        // same grid.
        while let larger = candidates.first(where: { $0.score >= board.score * 0.8 && $0.holds(board) }) { board = larger }
        return board.refined(edges)
    }

    /// The share of the rows from `from` to `to` that a vertical line near x covers.
    static func sideSupport(_ lines: [EdgeMap.Line], at x: Int, from: Int, to: Int, tolerance: Int) -> Double {
        var covered = [Bool](repeating: false, count: max(1, to - from))
        for line in lines where abs(line.position - x) <= tolerance {
            let first = max(from, line.start), last = min(to, line.end + 1)
            guard first < last else { continue }
            for y in first..<last { covered[y - from] = true }
        }
        return Double(covered.filter { $0 }.count) / Double(covered.count)
    }

    /// The finest grid of square tiles that fits the rectangle's inside about as well as any.
    static func bestGrid(left: Int, top: Int, right: Int, bottom: Int, edges: EdgeMap) -> BoardGrid? {
        var grids: [BoardGrid] = []
        for columns in sizes {
            for rows in sizes {
                let tileWidth = Double(right - left) / Double(columns), tileHeight = Double(bottom - top) / Double(rows)
                guard abs(tileWidth / tileHeight - 1) < 0.06, tileWidth >= 8 else { continue }
                var grid = BoardGrid(left: Double(left), top: Double(top), right: Double(right), bottom: Double(bottom), columns: columns, rows: rows, score: 0)
                grid.score = fit(grid, edges: edges)
                grids.append(grid)
            }
        }
        guard let best = grids.map(\.score).max() else { return nil }
        return grids.filter { $0.score >= best * 0.85 }.max { $0.columns * $0.rows < $1.columns * $1.rows }
    }

    /// How much better the grid's inner lines meet edges than lines through its tiles'
    /// middles: a grid off the board's meets edges by chance along both (blocks have edges
    /// everywhere), the board's own along its lines only (a tile's middle is a block's inside,
    /// or the empty tray).
    /// Measured with two bars for an edge, the better kept: faint changes count where a tray's
    /// 1-pixel lines are all an empty board shows of its grid; only strong ones where noise
    /// would put a faint change near every line and every middle alike.
    static func fit(_ grid: BoardGrid, edges: EdgeMap) -> Double {
        [edges.threshold, edges.threshold / 2].map { least in
            share(grid, edges: edges, shift: 0, least: least) - share(grid, edges: edges, shift: 0.5, least: least)
        }.max()!
    }

    /// The share of sampled points along the grid's lines, moved by `shift` tiles, with a change
    /// of at least `least` within a tenth of a tile (a block's edge sits inside its tiles, by
    /// its inset).
    static func share(_ grid: BoardGrid, edges: EdgeMap, shift: Double, least: UInt16) -> Double {
        let reach = max(1, Int(grid.tile * 0.12))
        let step = max(1, Int(grid.tile / 16))
        var hits = 0, looks = 0
        for column in 1..<grid.columns {
            let x = Int((grid.left + (Double(column) - shift) * grid.tileWidth).rounded())
            for y in stride(from: Int(grid.top) + reach, to: Int(grid.bottom) - reach, by: step) {
                looks += 1
                if edges.verticalEdgeNear(x: x, y: y, reach: reach, least: least) { hits += 1 }
            }
        }
        for row in 1..<grid.rows {
            let y = Int((grid.top + (Double(row) - shift) * grid.tileHeight).rounded())
            for x in stride(from: Int(grid.left) + reach, to: Int(grid.right) - reach, by: step) {
                looks += 1
                if edges.horizontalEdgeNear(x: x, y: y, reach: reach, least: least) { hits += 1 }
            }
        }
        return looks > 0 ? Double(hits) / Double(looks) : 0
    }
}
