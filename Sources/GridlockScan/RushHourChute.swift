// The chute (rule 5 of RushHourScanner): the one row beside which what lies outside the board
// differs from what lies beside every other row on that side. That is a notch cut into the
// frame (the tray's colour where the frame's is elsewhere) or a mark past the frame (an arrow),
// whatever their colours: each row's strip outside the board is compared with the strips of
// the other rows, depth by depth.

import GridlockCore

enum RushHourChute {
    /// How far out from the board's inner edge the strips reach, in tiles: past a thick frame
    /// to an arrow beside it.
    static let reach = 1.2

    /// `photo`: where the picture is a rectified copy, which of its points come from the photo;
    /// the strips stop where the first of them leaves it.
    static func find(_ board: BoardGrid, _ image: RGBAImage, photo: PhotoBounds? = nil) throws(ScanError) -> (row: Int, side: RushHourSide, confidence: Double) {
        let tile = board.tile
        // Both sides are read to one depth: a side cut short could see nothing of an arrow past
        // its frame while the other, read deeper, finds something beside another row.
        var reachable = tile * reach
        for side in [RushHourSide.left, .right] {
            var room = side == .left ? board.left : Double(image.width) - board.right
            if let photo { room = min(room, Self.room(beside: board, side: side, inside: photo)) }
            // A strip cut by the picture's edge would differ by what is missing: a chute where
            // the picture was only cut.
            guard room >= tile * 0.3 else {
                throw ScanError.cutOff(PictureEdge(side))
            }
            reachable = min(reachable, room)
        }
        let depth = Int(reachable), skip = max(1, Int(tile * 0.06))
        var outstanding: [(row: Int, side: RushHourSide, difference: Int)] = []
        for side in [RushHourSide.left, .right] {
            let strips = (0..<board.rows).map { row -> [RGB] in
                let (y0, y1) = stripRows(board, row: row)
                return (skip..<depth).map { k in
                    let x = stripColumn(board, side: side, depth: k)
                    return image.mean(x0: x, y0: y0, x1: x + 1, y1: y1)
                }
            }
            let usual = (0..<strips[0].count).map { k in RGB.median(strips.map { $0[k] }) }
            for (row, strip) in strips.enumerated() {
                var total = 0
                for (colour, common) in zip(strip, usual) { total += colour.distance(to: common) }
                let difference = total / max(1, strip.count)
                outstanding.append((row, side, difference))
            }
        }
        outstanding.sort { $0.difference > $1.difference }
        let first = outstanding[0], second = outstanding[1].difference
        // A notch or an arrow changes a good part of its strip; one row differing as much as
        // another is no chute.
        let lead = Double(first.difference - 2 * second - 12), scale = Double(max(1, first.difference))
        let confidence = min(1, 0.5 + lead / scale)
        guard first.difference >= 24, confidence >= 0.5 else {
            throw ScanError("""
                no chute found: beside no one row does the outside of the board stand out (the most different, \
                \(first.side) of row \(first.row), differs by \(first.difference), the next by \(second))
                """)
        }
        return (first.row, first.side, confidence)
    }

    /// The rows of pixels of a row's strip: the middle 30% of its tiles' height.
    static func stripRows(_ board: BoardGrid, row: Int) -> (Int, Int) {
        let y = board.centre(row: row, column: 0).y, half = max(1, board.tile * 0.15)
        return (Int(y - half), Int(y + half) + 1)
    }

    /// The column of pixels `depth` pixels out from the board's inner edge on `side`.
    static func stripColumn(_ board: BoardGrid, side: RushHourSide, depth: Int) -> Int {
        side == .left ? Int(board.left) - 1 - depth : Int(board.right) + depth
    }

    /// How deep, in pixels, every row's strip on `side` stays inside the photo (at most the
    /// strips' reach).
    static func room(beside board: BoardGrid, side: RushHourSide, inside photo: PhotoBounds) -> Double {
        let deepest = Int(board.tile * reach)
        for depth in 0..<deepest {
            let x = stripColumn(board, side: side, depth: depth)
            for row in 0..<board.rows {
                let (y0, y1) = stripRows(board, row: row)
                guard photo.contains(x: x, y: y0, x1: x + 1, y1: y1) else { return Double(depth) }
            }
        }
        return Double(deepest)
    }
}
