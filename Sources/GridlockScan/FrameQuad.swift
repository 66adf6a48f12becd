// A board photographed at a slant: its frame is a quadrilateral, not a rectangle, so
// BoardFinder (which looks for rectangles of long horizontal and vertical lines) finds none.
// Here the frame's sides are found as straight lines at any slant up to `maximumSlant` (a
// Hough transform over the edges, the near-horizontal and the near-vertical apart), four of
// them make a quadrilateral whose sides the edges follow, and the picture inside it, with a
// margin for the frame, is mapped back to a rectangle (Homography). The board is then found
// and read in that rectangle as in any screenshot: nothing here decides what the board holds.
//
// Why a slant of 12 degrees: a camera tilted 15 degrees off the board, held no closer than the
// board is wide, turns a side by up to about 7 degrees; a picture turned a few degrees more
// is first straightened (Deskew).

import Foundation

struct FrameQuad: Sendable {
    /// The corners: top left, top right, bottom right, bottom left, in picture coordinates.
    var corners: [(x: Double, y: Double)]
    /// The least share of any side along which the edges run (0-1).
    var support: Double

    static let maximumSlant = 12.0
    /// Angles tried, in degrees from the axis.
    static let slants = stride(from: -maximumSlant, through: maximumSlant, by: 0.5).map { $0 }
    /// Lines kept from each family: a board's frame has two inner and two outer edges in
    /// each, and a phone's screen and buttons a few more.
    static let linesKept = 12
    /// Quadrilaterals rectified and searched for a board, the largest first. Each costs a
    /// refused picture about 10 ms; 6 of them (at twice the pixels) read 37 of the test set's
    /// 200 photos where 3 read 22, at 112 ms a picture where 3 take 65 ms.
    static let quadsTried = 3

    /// A straight line: points (x, y) with y cos(a) - x sin(a) = rho for the near-horizontal
    /// (a the slant), and x cos(a) + y sin(a) = rho for the near-vertical.
    struct Line: Sendable {
        var slant: Double
        var rho: Double
        var votes: Int
    }

    /// The candidate frames in `edges`, the largest first. The largest is the likeliest to
    /// rectify the board whole: a phone's screen or the frame's outer edge maps the board's
    /// plane as well as its inner edge does, and a smaller one may be part of the board,
    /// bounded by its blocks' edges, whose reading would be part of the answer.
    static func candidates(in edges: EdgeMap) -> [FrameQuad] {
        let shorter = min(edges.width, edges.height)
        // No side of 24 pixels fits; and the votes' table grows with the longer side (a
        // 1 x 1,000,000 picture would take 400 MB of it twice).
        guard shorter >= 24 else { return [] }
        let minimumSide = Double(max(24, shorter / 5))
        let horizontal = lines(in: edges, horizontal: true, minimum: Int(minimumSide / 2)).map { refined($0, horizontal: true, edges: edges) }
        let vertical = lines(in: edges, horizontal: false, minimum: Int(minimumSide / 2)).map { refined($0, horizontal: false, edges: edges) }
        var quads: [FrameQuad] = []
        for (i, top) in horizontal.enumerated() {
            for bottom in horizontal[(i + 1)...] {
                let (upper, lower) = top.rho < bottom.rho ? (top, bottom) : (bottom, top)
                guard lower.rho - upper.rho >= minimumSide else { continue }
                for (j, left) in vertical.enumerated() {
                    for right in vertical[(j + 1)...] {
                        let (west, east) = left.rho < right.rho ? (left, right) : (right, left)
                        guard east.rho - west.rho >= minimumSide else { continue }
                        guard let quad = quad(upper, lower, west, east, edges: edges, minimumSide: minimumSide) else { continue }
                        quads.append(quad)
                    }
                }
            }
        }
        return quads.sorted { $0.area > $1.area }
    }

    /// The quadrilateral the four lines bound, with the share of each side the edges follow;
    /// nil when it is no board's shape (too small, too long and thin, outside the picture) or
    /// a side is followed along less than 60% (a chute breaks one side of the frame's inner
    /// edge, by a sixth of it).
    static func quad(_ top: Line, _ bottom: Line, _ left: Line, _ right: Line, edges: EdgeMap, minimumSide: Double) -> FrameQuad? {
        let corners = [meet(top, left), meet(top, right), meet(bottom, right), meet(bottom, left)]
        let slack = 2.0
        guard corners.allSatisfy({ $0.x >= -slack && $0.y >= -slack && $0.x <= Double(edges.width) + slack && $0.y <= Double(edges.height) + slack })
        else { return nil }
        let width = (distance(corners[0], corners[1]) + distance(corners[3], corners[2])) / 2
        let height = (distance(corners[0], corners[3]) + distance(corners[1], corners[2])) / 2
        guard width >= minimumSide, height >= minimumSide, width <= 3 * height, height <= 3 * width else { return nil }
        let sides = [
            follows(corners[0], corners[1], horizontal: true, edges: edges),
            follows(corners[3], corners[2], horizontal: true, edges: edges),
            follows(corners[0], corners[3], horizontal: false, edges: edges),
            follows(corners[1], corners[2], horizontal: false, edges: edges),
        ]
        let support = sides.min()!
        guard support >= 0.6 else { return nil }
        return FrameQuad(corners: corners, support: support)
    }

    /// The share of points along the segment with an edge of the side's direction within two pixels.
    static func follows(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), horizontal: Bool, edges: EdgeMap) -> Double {
        let samples = 64
        var hits = 0
        for k in 0..<samples {
            let t = (Double(k) + 0.5) / Double(samples)
            let x = Int((a.x + (b.x - a.x) * t).rounded()), y = Int((a.y + (b.y - a.y) * t).rounded())
            let hit = horizontal
                ? edges.horizontalEdgeNear(x: x, y: y, reach: 2, least: edges.threshold)
                : edges.verticalEdgeNear(x: x, y: y, reach: 2, least: edges.threshold)
            if hit { hits += 1 }
        }
        return Double(hits) / Double(samples)
    }

    /// The line fitted to its edges: the votes place it to half a degree and a pixel, which
    /// across a board 400 pixels wide puts a corner 2 pixels off, and the tiles' sides with
    /// it. Along the line, each step's edge is placed at the strength-weighted middle of the
    /// changes within 3 pixels across, and a straight line is fitted to those by least squares,
    /// twice: the second time without the points more than 1.5 pixels off the first fit
    /// (edges of other things the line passes).
    static func refined(_ line: Line, horizontal: Bool, edges: EdgeMap) -> Line {
        let a = line.slant * .pi / 180
        // Near-horizontal: y = (rho + x sin a) / cos a; near-vertical: x = (rho - y sin a) / cos a.
        let length = horizontal ? edges.width : edges.height, span = horizontal ? edges.height : edges.width
        var points: [(along: Double, across: Double)] = []
        for t in 2..<max(2, length - 2) {
            let guess = horizontal ? (line.rho + Double(t) * sin(a)) / cos(a) : (line.rho - Double(t) * sin(a)) / cos(a)
            let centre = Int(guess.rounded())
            guard centre - 3 >= 1, centre + 3 < span - 1 else { continue }
            var weight = 0.0, sum = 0.0
            for u in (centre - 3)...(centre + 3) {
                let strength = horizontal ? edges.strengthAcross(t, u) : edges.strengthAlong(u, t)
                guard strength >= edges.threshold else { continue }
                weight += Double(strength)
                sum += Double(strength) * Double(u)
            }
            if weight > 0 { points.append((Double(t), sum / weight)) }
        }
        guard var fit = fitted(points) else { return line }
        let near = points.filter { abs($0.across - (fit.slope * $0.along + fit.offset)) <= 1.5 }
        fit = fitted(near) ?? fit
        // across = slope * along + offset, back to a slant and rho.
        let slant = atan(fit.slope) * (horizontal ? 1 : -1)
        let rho = fit.offset * cos(slant)
        guard abs(slant * 180 / .pi) <= maximumSlant + 1 else { return line }
        return Line(slant: slant * 180 / .pi, rho: rho, votes: line.votes)
    }

    /// The least-squares line through the points, across = slope * along + offset; nil for
    /// fewer than 8 points.
    static func fitted(_ points: [(along: Double, across: Double)]) -> (slope: Double, offset: Double)? {
        guard points.count >= 8 else { return nil }
        let n = Double(points.count)
        let meanAlong = points.map(\.along).reduce(0, +) / n, meanAcross = points.map(\.across).reduce(0, +) / n
        var covariance = 0.0, variance = 0.0
        for point in points {
            covariance += (point.along - meanAlong) * (point.across - meanAcross)
            variance += (point.along - meanAlong) * (point.along - meanAlong)
        }
        guard variance > 0 else { return nil }
        let slope = covariance / variance
        return (slope, meanAcross - slope * meanAlong)
    }

    /// Where a near-horizontal and a near-vertical line cross.
    static func meet(_ h: Line, _ v: Line) -> (x: Double, y: Double) {
        // h: -x sin(a) + y cos(a) = p;  v: x cos(b) + y sin(b) = q.
        let a = h.slant * .pi / 180, b = v.slant * .pi / 180
        let det = -sin(a) * sin(b) - cos(a) * cos(b)
        let x = (h.rho * sin(b) - cos(a) * v.rho) / det
        let y = (-sin(a) * v.rho - cos(b) * h.rho) / det
        return (x, y)
    }

    /// The area inside the corners (the shoelace formula).
    var area: Double {
        var twice = 0.0
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            twice += a.x * b.y - b.x * a.y
        }
        return abs(twice) / 2
    }

    static func distance(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// The strongest straight lines of one family, each a local peak of the votes, at least
    /// `minimum` edge points long (counted on every second row and column).
    static func lines(in edges: EdgeMap, horizontal: Bool, minimum: Int) -> [Line] {
        let step = 2
        let reach = edges.width + edges.height
        let angles = slants.map { $0 * .pi / 180 }
        let sines = angles.map(sin), cosines = angles.map(cos)
        var votes = [Int32](repeating: 0, count: angles.count * (2 * reach + 1))
        votes.withUnsafeMutableBufferPointer { votes in
            for y in stride(from: 1, to: edges.height - 1, by: step) {
                for x in stride(from: 1, to: edges.width - 1, by: step) {
                    guard horizontal ? edges.isHorizontalEdge(x, y) : edges.isVerticalEdge(x, y) else { continue }
                    let (along, across) = horizontal ? (Double(x), Double(y)) : (Double(y), Double(x))
                    for k in 0..<angles.count {
                        // Near-horizontal: rho = y cos - x sin; near-vertical: rho = x cos + y sin.
                        let rho = horizontal ? across * cosines[k] - along * sines[k] : across * cosines[k] + along * sines[k]
                        votes[k * (2 * reach + 1) + Int(rho.rounded()) + reach] += 1
                    }
                }
            }
        }
        // Peaks: the most votes within half a degree either side and a few pixels either way.
        let width = 2 * reach + 1
        var peaks: [Line] = []
        let near = max(2, min(edges.width, edges.height) / 100)
        for k in 0..<angles.count {
            for r in 0..<width where votes[k * width + r] >= Int32(minimum / step) {
                let value = votes[k * width + r]
                var isPeak = true
                search: for dk in -1...1 {
                    let kk = k + dk
                    guard kk >= 0, kk < angles.count else { continue }
                    for dr in -near...near where (dk, dr) != (0, 0) {
                        let rr = r + dr
                        guard rr >= 0, rr < width else { continue }
                        let other = votes[kk * width + rr]
                        // Ties go to the earlier, so a flat top gives one peak.
                        if other > value || (other == value && (dk, dr) < (0, 0)) {
                            isPeak = false
                            break search
                        }
                    }
                }
                if isPeak { peaks.append(Line(slant: slants[k], rho: Double(r - reach), votes: Int(value))) }
            }
        }
        // The strongest, with lines of about the same place and slant counted once.
        var kept: [Line] = []
        for line in peaks.sorted(by: { $0.votes > $1.votes }) {
            guard !kept.contains(where: { abs($0.rho - line.rho) <= Double(near) * 2 && abs($0.slant - line.slant) <= 2 }) else { continue }
            kept.append(line)
            if kept.count == linesKept { break }
        }
        return kept
    }

    /// The picture inside the quadrilateral, with `margin` of its size round it, mapped to a
    /// rectangle of about the quadrilateral's size, and the map from it back to the picture;
    /// nil when the corners fix no map. The margin is the quadrilateral's size on every side,
    /// so that where it is part of the board, bounded by its blocks' edges, the whole board
    /// is in the rectangle too, and BoardFinder takes the whole (its rule for a part).
    func rectified(_ image: RGBAImage, margin: Double = 1.0, maximumPixels: Int) -> (RGBAImage, Homography)? {
        var width = (Self.distance(corners[0], corners[1]) + Self.distance(corners[3], corners[2])) / 2
        var height = (Self.distance(corners[0], corners[3]) + Self.distance(corners[1], corners[2])) / 2
        let shrink = min(1, (Double(maximumPixels) / (width * height * (1 + 2 * margin) * (1 + 2 * margin))).squareRoot())
        width *= shrink
        height *= shrink
        let mx = width * margin, my = height * margin
        let inner = [(x: mx, y: my), (x: mx + width, y: my), (x: mx + width, y: my + height), (x: mx, y: my + height)]
        guard var back = Homography.mapping(inner, corners) else { return nil }
        // `mapping` makes the weight 1 at the picture's corner (0, 0), a margin away: where the
        // horizon runs between that corner and the quadrilateral, the quadrilateral would lie
        // past it. The same map with every entry negated puts it in front.
        if back.m[6] * (mx + width / 2) + back.m[7] * (my + height / 2) + back.m[8] < 0 { back = Homography(m: back.m.map { -$0 }) }
        let outWidth = Int(width + 2 * mx), outHeight = Int(height + 2 * my)
        guard outWidth >= 8, outHeight >= 8 else { return nil }
        return (back.resample(image, width: outWidth, height: outHeight, background: RGB(0, 0, 0)), back)
    }
}
