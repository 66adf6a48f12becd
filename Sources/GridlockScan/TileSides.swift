// What lies between a tile's middle and each of its sides: the structure a block is found by,
// whatever its colours. A block stands a little inside its tiles, so along a side where it ends
// its face stops short of the tile's edge (at its outline, or where the tray shows between it
// and the next), while an empty tile's tray, and a block going on into the next tile, run to
// the edge unchanged.

enum TileSide: CaseIterable, Sendable {
    case top, right, bottom, left
}

/// A stretch of a side's profile clearly unlike the tile's face: [start, end) in pixels from
/// the tile's edge.
struct UnlikeRun: Sendable, Hashable {
    var start: Int
    var end: Int
}

/// One tile's colours from each side inward, and what they say of it.
struct TileSides: Sendable {
    /// The tile's face: the median colour of its middle.
    var face: RGB
    /// Per side, in `TileSide.allCases` order: the colours from the edge (index 0) a third of
    /// the way in, each the median across the middle half of the side (a car's window or
    /// stripe covers less than that).
    var profiles: [[RGB]]
    /// Per side, the deepest-ending run unlike the face within `deepestStop` of the edge, if
    /// one ends at least `leastStop` in: where a block ends (the tray or its outline), or a
    /// mark that is not an end (a stripe).
    var runs: [UnlikeRun?]
    /// Per side, how deep in the face stops where a block's end was found (0 where none):
    /// set by `settle`, which needs the whole board.
    var stops: [Int] = [0, 0, 0, 0]

    var ownEdges: Int { stops.filter { $0 > 0 }.count }
    /// Whether any side shows a mark unlike the face that is no end: such a tile is not plainly
    /// the tray.
    var marked: Bool { zip(runs, stops).contains { $0 != nil && $1 == 0 } }

    func stop(_ side: TileSide) -> Int { stops[TileSide.allCases.firstIndex(of: side)!] }

    /// The ends deeper than blur reaches: the frame or the next block blurred across the edge
    /// of an empty tile makes a shallow end; a block's inset and outline make a deeper one.
    func deepEnds(tile: Double) -> Int {
        stops.filter { $0 >= Self.deep(tile: tile) }.count
    }

    /// The sides with a mark, an end or not, as deep as a block's end lies: an empty tile shows
    /// none (the tray runs to its edges, a line on the edge at most).
    func deepMarks(tile: Double) -> Int {
        runs.filter { ($0?.end ?? 0) >= Self.deep(tile: tile) }.count
    }

    static func deep(tile: Double) -> Int { max(leastStop(tile: tile) + 1, Int(tile * 0.06)) }

    /// The least depth a face may stop at and count as a block's end: what is shallower is the
    /// tray's line on the tile's edge, or the frame or the next block blurred across it.
    static func leastStop(tile: Double) -> Int { max(2, Int((tile * 0.04).rounded())) }

    /// The deepest a block's end lies inside its tile: past this the face has begun (a car's
    /// window or stripe further in is no end).
    static func deepestStop(tile: Double) -> Int { max(3, Int((tile * 0.2).rounded())) }

    init(_ board: BoardGrid, row: Int, column: Int, image: RGBAImage) {
        let tile = board.tile
        let x0 = board.left + Double(column) * board.tileWidth, y0 = board.top + Double(row) * board.tileHeight
        let x1 = x0 + board.tileWidth, y1 = y0 + board.tileHeight
        let inner = 0.3
        face = image.median(
            x0: Int(x0 + board.tileWidth * inner), y0: Int(y0 + board.tileHeight * inner),
            x1: Int(x1 - board.tileWidth * inner), y1: Int(y1 - board.tileHeight * inner))
        let depth = max(4, Int(tile * 0.32))
        profiles = TileSide.allCases.map { side in
            (0..<depth).map { k in
                let inward = Double(k) + 0.5
                switch side {
                case .top: return image.medianAlongRow(Int(y0 + inward), from: x0 + board.tileWidth * 0.25, to: x1 - board.tileWidth * 0.25)
                case .bottom: return image.medianAlongRow(Int(y1 - inward), from: x0 + board.tileWidth * 0.25, to: x1 - board.tileWidth * 0.25)
                case .left: return image.medianAlongColumn(Int(x0 + inward), from: y0 + board.tileHeight * 0.25, to: y1 - board.tileHeight * 0.25)
                case .right: return image.medianAlongColumn(Int(x1 - inward), from: y0 + board.tileHeight * 0.25, to: y1 - board.tileHeight * 0.25)
                }
            }
        }
        let least = Self.leastStop(tile: tile), deepest = Self.deepestStop(tile: tile)
        runs = profiles.map { [face] in Self.run(in: $0, face: face, least: least, deepest: deepest, faceFrom: Int(tile * 0.22)) }
    }

    /// The deepest-ending run of colours clearly unlike the face (the tile's middle: a stripe
    /// may lie across the profile's inner end) up to `deepest`, a pixel of the face inside it
    /// forgiven; nil when it ends shallower than `least` (the tray's line on the edge, or the
    /// next block blurred across it). "Clearly" is against the face's own spread, so that
    /// grain or noise is none.
    static func run(in profile: [RGB], face: RGB, least: Int, deepest: Int, faceFrom: Int) -> UnlikeRun? {
        let faceBand = Array(profile[min(faceFrom, profile.count - 1)...])
        let spread = faceBand.map { $0.distance(to: face) }.reduce(0, +) / faceBand.count
        let clearly = max(36, 3 * spread + 12)
        let unlike = profile.prefix(deepest + 1).map { $0.distance(to: face) > clearly }
        guard let last = unlike.lastIndex(of: true), last + 1 >= least else { return nil }
        var start = last
        while start > 0, unlike[start - 1] || (start > 1 && unlike[start - 2]) { start -= 1 }
        return UnlikeRun(start: start, end: last + 1)
    }

    /// Which runs are a block's end, board-wide. A block's end is a run from the tile's edge
    /// (the tray showing between the block and its tile's edge, unlike its face), or an
    /// outline a little way in with the tray between it and the edge, where the tray is the
    /// block's own colour (white blocks on a white tray): such outlines begin at one depth all
    /// over the board, as one app draws every block alike. A run beginning elsewhere is a
    /// stripe or a window, no end.
    static func settle(_ sides: inout [[TileSides]], tile: Double) {
        let fromEdge = max(1, leastStop(tile: tile) / 2), tolerance = max(1, Int(tile * 0.02))
        let inner = sides.joined().flatMap { $0.runs.compactMap { $0 } }.map(\.start).filter { $0 > fromEdge }
        var counts: [Int: Int] = [:]
        for start in inner { counts[start, default: 0] += 1 }
        let outline = counts.keys.max { a, b in
            let near = { (depth: Int) in inner.filter { abs($0 - depth) <= tolerance }.count }
            return (near(a), b) < (near(b), a)
        }
        let outlined = outline.map { depth in inner.filter { abs($0 - depth) <= tolerance }.count >= 6 } ?? false
        for row in sides.indices {
            for column in sides[row].indices {
                sides[row][column].stops = sides[row][column].runs.map { run -> Int in
                    guard let run else { return 0 }
                    if run.start <= fromEdge { return run.end }
                    if outlined, let outline, abs(run.start - outline) <= tolerance { return run.end }
                    return 0
                }
            }
        }
    }
}

extension RGBAImage {
    /// The per-channel median of the pixels in [x0, x1) x [y0, y1), sampled at most 16 a side.
    func median(x0: Int, y0: Int, x1: Int, y1: Int) -> RGB {
        let xs = Self.clamped(x0, max(x1, x0 + 1), to: width), ys = Self.clamped(y0, max(y1, y0 + 1), to: height)
        var colours: [RGB] = []
        for y in stride(from: ys.lowerBound, to: ys.upperBound, by: max(1, ys.count / 16)) {
            for x in stride(from: xs.lowerBound, to: xs.upperBound, by: max(1, xs.count / 16)) { colours.append(colour(x, y)) }
        }
        return RGB.median(colours)
    }

    func medianAlongRow(_ y: Int, from x0: Double, to x1: Double) -> RGB {
        let start = Int(x0), end = max(Int(x0) + 1, Int(x1))
        return RGB.median(stride(from: start, to: end, by: max(1, (end - start) / 24)).map { colour($0, y) })
    }

    func medianAlongColumn(_ x: Int, from y0: Double, to y1: Double) -> RGB {
        let start = Int(y0), end = max(Int(y0) + 1, Int(y1))
        return RGB.median(stride(from: start, to: end, by: max(1, (end - start) / 24)).map { colour(x, $0) })
    }
}

extension TileSides {
    /// Whether the grid lies on the board's tiles: every block has two ends across its length
    /// and one at each end of it, so a block's ends are seen about as often on the top of
    /// tiles as on the bottom, on the left as on the right. A grid off by a few pixels sees its
    /// tiles' edges (the tray's lines, the frame) on one side only, and ends that are not there.
    static func checkRegistration(_ sides: [[TileSides]]) throws(ScanError) {
        var counts = [0, 0, 0, 0]
        for tile in sides.joined() {
            for (index, stop) in tile.stops.enumerated() where stop > 0 { counts[index] += 1 }
        }
        let (top, right, bottom, left) = (counts[0], counts[1], counts[2], counts[3])
        for (name, one, other) in [("tops and bottoms", top, bottom), ("left and right sides", left, right)] where max(one, other) >= 6 {
            guard min(one, other) * 5 >= max(one, other) else {
                throw ScanError("the grid found does not lie on the board's tiles: blocks' ends seen on the \(name) of tiles \(one) and \(other) times, where every block shows both")
            }
        }
    }
}
