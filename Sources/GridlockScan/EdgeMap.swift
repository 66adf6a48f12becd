// Where the colour changes sharply, across rows (horizontal edges) and across columns (vertical
// edges), measured over two pixels so that an edge smoothed by scaling or anti-aliasing still
// shows. And the long straight lines those edges make: a board's frame, and its grid.

struct EdgeMap {
    let width: Int
    let height: Int
    /// The colour difference between the pixels above and below each pixel (a horizontal
    /// edge), and between those left and right of it (a vertical edge).
    private(set) var across: [UInt16]
    private(set) var along: [UInt16]
    /// A difference this large is an edge: well above JPEG's and a phone's noise, well below a
    /// block's outline against the tray.
    private(set) var threshold: UInt16

    /// The bar for a faint edge: a dark theme's frame a shade off its tray (a difference of
    /// 44 in one test look) is no edge at the usual bar.
    static let faintThreshold: UInt16 = 30

    /// The same changes, an edge from `threshold` up.
    func with(threshold: UInt16) -> EdgeMap {
        var edges = self
        edges.threshold = threshold
        return edges
    }

    init(_ image: RGBAImage, threshold: UInt16 = 60) {
        width = image.width
        height = image.height
        self.threshold = threshold
        // Built in local arrays through raw buffers with wrapping arithmetic (a difference is
        // at most 765): writing the stored arrays with bounds and overflow checks took a sixth
        // of a phone screenshot's scan.
        var across = [UInt16](repeating: 0, count: width * height)
        var along = [UInt16](repeating: 0, count: width * height)
        let width = width, height = height
        image.pixels.withUnsafeBufferPointer { pixels in
            @inline(__always) func difference(_ a: Int, _ b: Int) -> UInt16 {
                let red = abs(Int(pixels[a]) &- Int(pixels[b]))
                let green = abs(Int(pixels[a &+ 1]) &- Int(pixels[b &+ 1]))
                let blue = abs(Int(pixels[a &+ 2]) &- Int(pixels[b &+ 2]))
                return UInt16(truncatingIfNeeded: red &+ green &+ blue)
            }
            across.withUnsafeMutableBufferPointer { across in
                along.withUnsafeMutableBufferPointer { along in
                    for y in 1..<max(1, height - 1) {
                        for x in 1..<max(1, width - 1) {
                            let at = y &* width &+ x
                            across[at] = difference((at &- width) &* 4, (at &+ width) &* 4)
                            along[at] = difference((at &- 1) &* 4, (at &+ 1) &* 4)
                        }
                    }
                }
            }
        }
        self.across = across
        self.along = along
    }

    /// The change across rows (a horizontal edge's) and across columns at (x, y), inside the picture.
    @inline(__always) func strengthAcross(_ x: Int, _ y: Int) -> UInt16 { across[y * width + x] }
    @inline(__always) func strengthAlong(_ x: Int, _ y: Int) -> UInt16 { along[y * width + x] }

    @inline(__always) func isHorizontalEdge(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height && across[y * width + x] >= threshold
    }

    @inline(__always) func isVerticalEdge(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height && along[y * width + x] >= threshold
    }

    /// Whether a change of at least `least` lies within `reach` rows of y at column x.
    func horizontalEdgeNear(x: Int, y: Int, reach: Int, least: UInt16) -> Bool {
        let low = max(0, y - reach), high = min(height - 1, y + reach)
        guard x >= 0, x < width, low <= high else { return false }
        return (low...high).contains { across[$0 * width + x] >= least }
    }

    /// Whether a change of at least `least` lies within `reach` columns of x at row y.
    func verticalEdgeNear(x: Int, y: Int, reach: Int, least: UInt16) -> Bool {
        let low = max(0, x - reach), high = min(width - 1, x + reach)
        guard y >= 0, y < height, low <= high else { return false }
        return (low...high).contains { along[y * width + $0] >= least }
    }

    /// A straight line of edge pixels: at `position` (a row, or a column), from `start` to `end`.
    struct Line: Hashable {
        var position: Int
        var start: Int
        var end: Int
        var length: Int { end - start }
    }

    /// The horizontal lines at least `minimum` long, gaps up to `gap` bridged; an edge a few
    /// rows thick is one line, at its middle row.
    func horizontalLines(minimum: Int, gap: Int) -> [Line] {
        lines(count: height, length: width, minimum: minimum, gap: gap) { isHorizontalEdge($1, $0) }
    }

    func verticalLines(minimum: Int, gap: Int) -> [Line] {
        lines(count: width, length: height, minimum: minimum, gap: gap) { isVerticalEdge($0, $1) }
    }

    private func lines(count: Int, length: Int, minimum: Int, gap: Int, isEdge: (Int, Int) -> Bool) -> [Line] {
        var finished: [Line] = []
        // Lines still growing: the rows they span so far, and their runs' ends.
        var open: [(first: Int, last: Int, starts: [Int], ends: [Int])] = []
        for position in 0..<count {
            var runs: [(Int, Int)] = []
            var start = -1, lastEdge = -1
            for offset in 0..<length {
                guard isEdge(position, offset) else { continue }
                if start < 0 || offset - lastEdge > gap + 1 {
                    if start >= 0, lastEdge - start >= minimum { runs.append((start, lastEdge)) }
                    start = offset
                }
                lastEdge = offset
            }
            if start >= 0, lastEdge - start >= minimum { runs.append((start, lastEdge)) }
            var stillOpen: [(first: Int, last: Int, starts: [Int], ends: [Int])] = []
            for run in runs {
                if let index = open.firstIndex(where: { line in
                    line.last == position - 1 && abs(line.starts.last! - run.0) <= gap + 2 && abs(line.ends.last! - run.1) <= gap + 2
                }) {
                    var line = open.remove(at: index)
                    line.last = position
                    line.starts.append(run.0)
                    line.ends.append(run.1)
                    stillOpen.append(line)
                } else {
                    stillOpen.append((position, position, [run.0], [run.1]))
                }
            }
            for line in open { finished.append(Self.line(line)) }
            open = stillOpen
        }
        for line in open { finished.append(Self.line(line)) }
        return finished
    }

    private static func line(_ grown: (first: Int, last: Int, starts: [Int], ends: [Int])) -> Line {
        Line(position: (grown.first + grown.last) / 2, start: grown.starts.sorted()[grown.starts.count / 2], end: grown.ends.sorted()[grown.ends.count / 2])
    }
}
