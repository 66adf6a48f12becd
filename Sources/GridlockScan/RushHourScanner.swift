// A Rush Hour (Unblock Me) board read from a picture, by the rules docs/scanning.md lists:
//
// 1. The board is the inside of a frame, divided into square tiles (BoardFinder). It may sit
//    anywhere in a larger picture.
// 2. A block stands a little inside its tiles: along a side where it ends, its face stops
//    short of the tile's edge (TileSides). An empty tile's tray, and a block going on into the
//    next tile, run to the edge. A tile whose face stops short on two sides or more is a block,
//    whatever its colour; one that stops on none is the tray unless its colour is far from the
//    tray's (a block drawn flush with its tile). RushHourTiles.
// 3. The tray's colour is what lies just inside the frame all round. Where blocks crowd the
//    frame, each of the commonest colours there is tried: only the tray's reads by the rules.
// 4. Two neighbouring block tiles belong to one block unless a seam runs between them: either
//    face stopping short of their shared edge, or the tray or an outline showing across it. A
//    block is a straight run of 2 or 3 tiles; a lone tile is a fixed block, grey.
// 5. The chute is the one row beside which the outside of the board differs from beside every
//    other: a notch in the frame, or an arrow past it (RushHourChute).
// 6. The prisoner is the horizontal block in the chute's row that is reddest, clearly.
//
// Every decision carries a confidence (ScanConfidence). Anything that breaks a rule is an
// error naming the tile (rows and columns from 0) and what could not be read: nothing is
// guessed.

import Foundation
import GridlockCore

public struct ScanError: Error, CustomStringConvertible, Sendable, Hashable {
    public var description: String
    /// No puzzle of the kind looked for is in the picture at all (rather than one found and not
    /// read): `scan --kind auto` then looks for the other kind.
    public var noGrid: Bool

    init(_ description: String, noGrid: Bool = false) {
        self.description = description
        self.noGrid = noGrid
    }

    /// The board runs to the picture's edge on `side`: whatever lies beyond (a chute, the
    /// frame) cannot be read.
    static func cutOff(_ side: PictureEdge) -> ScanError {
        guard side != .horizon else {
            return ScanError("the board, rectified, reaches past the photo's horizon: the frame round it cannot be read")
        }
        return ScanError("the picture ends at the board's \(side.rawValue) edge: the frame beside it, where a chute would show, is cut off")
    }
}

public struct ScannedRushHour: Sendable {
    /// The board as its readable grid (the chute marked), which RushHourPuzzle reads.
    public var grid: String
    public var puzzle: RushHourPuzzle
    /// How sure each part of the reading is.
    public var confidence: ScanConfidence
    /// What was found, for `--debug-overlay`.
    var board: BoardGrid
}

public enum RushHourScanner {
    /// The most pixels a picture is read at: a phone's screenshot (2.5 million) is halved, its
    /// tiles still a hundred pixels wide, in a quarter of the time.
    public static let workingPixels = 1_200_000

    /// The picture as it is read: reduced, and straightened when turned a little.
    static func prepared(_ image: RGBAImage) -> RGBAImage {
        Deskew.straightened(image.reduced(toAtMost: workingPixels))
    }

    /// The board in the picture, refused where any part of the reading is less sure than
    /// `leastConfidence` (0.5 takes all the rules allow), naming the weakest.
    public static func scan(_ image: RGBAImage, leastConfidence: Double = ScanConfidence.defaultLeast) -> Result<ScannedRushHour, ScanError> {
        scanAtAnyConfidence(image).flatMap { reading in
            let weakest = reading.confidence.weakest
            guard weakest.value < leastConfidence else { return .success(reading) }
            let place = weakest.cell.map { "row \($0.row), column \($0.column)" } ?? weakest.part
            return .failure(ScanError("\(place): read with confidence \(String(format: "%.2f", weakest.value)), under the least taken, \(leastConfidence)"))
        }
    }

    static func scanAtAnyConfidence(_ image: RGBAImage) -> Result<ScannedRushHour, ScanError> {
        attempt(image).reading
    }

    /// The scanner's try at a picture: the picture it read in, the board found there, and what
    /// was read.
    struct Attempt {
        var picture: RGBAImage
        var board: BoardGrid?
        var reading: Result<ScannedRushHour, ScanError>
    }

    /// Reads the picture as it is (straightened); where that finds no board, or one that does
    /// not read, the likely frames photographed at a slant (FrameQuad) are rectified, the
    /// largest first, and the first in which a board is found is read. Only the first: a
    /// smaller frame may be part of the board, bounded by its blocks' edges, and part of a
    /// board can read by every rule (a run that read on took 4 rows of 6 for a whole board).
    static func attempt(_ image: RGBAImage) -> Attempt {
        let image = prepared(image)
        let edges = EdgeMap(image)
        let straight = attempt(in: image, edges: edges)
        if case .success = straight.reading { return straight }
        for quad in FrameQuad.candidates(in: edges).prefix(FrameQuad.quadsTried) {
            guard let (picture, back) = quad.rectified(image, maximumPixels: workingPixels / 2) else { continue }
            var rectified = attempt(in: picture, edges: EdgeMap(picture), photo: PhotoBounds(back: back, width: image.width, height: image.height))
            guard let board = rectified.board else { continue }
            // The board found as the picture is, and refused there, found again in a smaller,
            // resampled copy of it: the refusal stands. The copy adds no view of a slant, only
            // blur (a board whose two readings disagreed could read one way there).
            if let first = straight.board, sameBoard(first, board, map: back) { return straight }
            // The rectified picture is padded where it reaches past the photo's edge, and the
            // padding's edge can pass for a frame: the board and 0.3 of a tile round it
            // must lie inside the photo (the chute's strips stop where the photo does).
            if let side = cutSide(board, map: back, width: image.width, height: image.height) { rectified.reading = .failure(.cutOff(side)) }
            return rectified
        }
        return straight
    }

    /// Whether `rectified`, mapped back to the photo by `map`, lies where `straight` does: each
    /// corner within a third of a tile.
    static func sameBoard(_ straight: BoardGrid, _ rectified: BoardGrid, map: Homography) -> Bool {
        let corners = [(rectified.left, rectified.top), (rectified.right, rectified.top), (rectified.right, rectified.bottom), (rectified.left, rectified.bottom)]
        let straightCorners = [(straight.left, straight.top), (straight.right, straight.top), (straight.right, straight.bottom), (straight.left, straight.bottom)]
        return zip(corners, straightCorners).allSatisfy { corner, other in
            let point = map.apply(corner.0, corner.1)
            return abs(point.x - other.0) <= straight.tile / 3 && abs(point.y - other.1) <= straight.tile / 3
        }
    }

    /// Where the board, with 0.3 of a tile round it, reaches past the photo (`map` takes
    /// the rectified picture to a photo of `width` x `height`): the photo's edge it crosses
    /// (or the horizon), or nil. A third of a tile is what a straight picture needs beside
    /// the board (RushHourChute), and the chute's strips beyond it stop at the photo's edge.
    static func cutSide(_ board: BoardGrid, map: Homography, width: Int, height: Int) -> PictureEdge? {
        let reach = board.tile * 0.3
        let left = board.left - reach, right = board.right + reach, top = board.top - reach, bottom = board.bottom + reach
        var outline: [(x: Double, y: Double)] = []
        for step in 0...8 {
            let t = Double(step) / 8
            let x = left + (right - left) * t, y = top + (bottom - top) * t
            outline += [(x, top), (x, bottom), (left, y), (right, y)]
        }
        for (x, y) in outline {
            // Past the projection's horizon: nowhere in the photo.
            guard let point = map.applyInFront(x, y) else { return .horizon }
            if point.x < 0 { return .left }
            if point.x > Double(width) { return .right }
            if point.y < 0 { return .top }
            if point.y > Double(height) { return .bottom }
        }
        return nil
    }

    /// `photo`: where `image` is a rectified copy, which of its points come from the photo.
    static func attempt(in image: RGBAImage, edges: EdgeMap, photo: PhotoBounds? = nil) -> Attempt {
        do {
            // A frame barely off its tray (a dark theme) is looked for at a fainter bar, only
            // where none is found at the usual one: a noisy photo at that bar is all edges.
            var found = try BoardFinder.find(in: edges)
            if found == nil { found = try BoardFinder.find(in: edges.with(threshold: EdgeMap.faintThreshold)) }
            guard let board = found else {
                return Attempt(picture: image, reading: .failure(ScanError("no board found: no rectangle of square tiles inside a contrasting frame")))
            }
            do {
                return Attempt(picture: image, board: board, reading: .success(try read(board, in: image, photo: photo)))
            } catch let error as ScanError {
                return Attempt(picture: image, board: board, reading: .failure(error))
            } catch {
                return Attempt(picture: image, board: board, reading: .failure(ScanError("\(error)")))
            }
        } catch {
            return Attempt(picture: image, reading: .failure(error))
        }
    }

    static func read(_ board: BoardGrid, in image: RGBAImage, photo: PhotoBounds? = nil) throws -> ScannedRushHour {
        // Where blocks come close to the frame (or the picture is small, and the gap between
        // them a pixel), what lies just inside the frame may be a block's colour more often than
        // the tray's. So the commonest few colours there are each tried as the tray: a wrong one
        // breaks the rules (the real tray's tiles would join into blocks no seam divides), and
        // two that both read, as different boards, are no answer.
        var readings: [ScannedRushHour] = []
        var firstError: Error?
        var sides = (0..<board.rows).map { row in (0..<board.columns).map { TileSides(board, row: row, column: $0, image: image) } }
        TileSides.settle(&sides, tile: board.tile)
        try TileSides.checkRegistration(sides)
        for tray in trayColours(board, image) {
            do {
                readings.append(try read(board, in: image, sides: sides, tray: tray, photo: photo))
            } catch {
                firstError = firstError ?? error
            }
        }
        guard let reading = readings.first else { throw firstError ?? ScanError("no colour inside the frame to take for the tray") }
        if let other = readings.first(where: { $0.grid != reading.grid }) {
            throw ScanError("two readings of the board, with two colours for the tray, disagree:\n\(reading.grid)\n\(other.grid)")
        }
        return reading
    }

    static func read(_ board: BoardGrid, in image: RGBAImage, sides: [[TileSides]], tray: RGB, photo: PhotoBounds? = nil) throws -> ScannedRushHour {
        let middles = sides.map { $0.map(\.face) }
        let tiles = try RushHourTiles.occupancy(sides, tray: tray, tile: board.tile)
        let occupied = tiles.occupied
        var confidence = tiles.confidence
        // Blocks: neighbouring occupied tiles with no seam between them.
        var owner = [[Int]](repeating: [Int](repeating: -1, count: board.columns), count: board.rows)
        var blocks: [[(row: Int, column: Int)]] = []
        var seamConfidence: [Int: Double] = [:]
        for row in 0..<board.rows {
            for column in 0..<board.columns where occupied[row][column] && owner[row][column] < 0 {
                var cells = [(row, column)]
                owner[row][column] = blocks.count
                var index = 0
                var least = 1.0
                while index < cells.count {
                    let (r, c) = cells[index]
                    index += 1
                    for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                        let (nr, nc) = (r + dr, c + dc)
                        guard nr >= 0, nc >= 0, nr < board.rows, nc < board.columns, occupied[nr][nc] else { continue }
                        let crossings = seamCrossings(between: (r, c), and: (nr, nc), board: board, middles: middles, tray: tray, image: image)
                        let seam = RushHourTiles.seam(between: (r, c), and: (nr, nc), sides: sides, crossings: crossings)
                        least = min(least, seam.confidence)
                        guard !seam.divided, owner[nr][nc] < 0 else { continue }
                        owner[nr][nc] = blocks.count
                        cells.append((nr, nc))
                    }
                }
                seamConfidence[blocks.count] = least
                blocks.append(cells)
            }
        }
        for cells in blocks {
            let rows = Set(cells.map(\.row)), columns = Set(cells.map(\.column))
            guard cells.count <= 3, rows.count == 1 || columns.count == 1 else {
                let first = cells.min { ($0.row, $0.column) < ($1.row, $1.column) }!
                throw ScanError("row \(first.row), column \(first.column): a block of \(cells.count) tiles that is no straight run of 2 or 3 (a seam not seen?)")
            }
        }
        try checkFixedBlocks(blocks, sides: sides, tray: tray, owner: owner)
        let chute = try RushHourChute.find(board, image, photo: photo)
        let (exitRow, exitSide) = (chute.row, chute.side)
        // The prisoner: the reddest horizontal block in the chute's row, clearly so.
        let candidates = blocks.indices.filter { index in
            blocks[index].count >= 2 && Set(blocks[index].map(\.row)) == [exitRow]
        }
        let redness = { (index: Int) -> Int in
            blocks[index].map { middles[$0.row][$0.column].redness }.reduce(0, +) / blocks[index].count
        }
        guard let prisoner = candidates.max(by: { redness($0) < redness($1) }) else {
            throw ScanError("row \(exitRow): no horizontal block in the chute's row to be the prisoner")
        }
        let others = blocks.indices.filter { $0 != prisoner && blocks[$0].count >= 2 }.map(redness)
        let margin = min(redness(prisoner), redness(prisoner) - (others.max() ?? 0)) - 40
        guard margin >= 0 else {
            throw ScanError("row \(exitRow): no block in the chute's row is clearly redder than the others, to be the prisoner")
        }
        // Names: the prisoner A, the others B, C... in reading order, fixed blocks x.
        var grid = [[Character]](repeating: [Character](repeating: ".", count: board.columns), count: board.rows)
        var names = Array("BCDEFGHIJKLMNOPQRSTUVWYZ")
        for index in blocks.indices.sorted(by: { (blocks[$0][0].row, blocks[$0][0].column) < (blocks[$1][0].row, blocks[$1][0].column) }) {
            let name: Character
            if index == prisoner {
                name = "A"
            } else if blocks[index].count == 1 {
                name = "x"
            } else {
                guard !names.isEmpty else { throw ScanError("more blocks than names (24)") }
                name = names.removeFirst()
            }
            for cell in blocks[index] {
                grid[cell.row][cell.column] = name
                confidence[cell.row][cell.column] = min(confidence[cell.row][cell.column], seamConfidence[index] ?? 1)
            }
        }
        let lines = grid.enumerated().map { row, cells -> String in
            let text = String(cells)
            guard row == exitRow else { return exitSide == .left ? " " + text : text }
            return exitSide == .left ? "<" + text : text + ">"
        }
        let text = lines.joined(separator: "\n")
        let puzzle: RushHourPuzzle
        do {
            puzzle = try RushHourPuzzle.parseGrid(lines.enumerated().map { ($0.offset + 1, $0.element) })
        } catch {
            throw ScanError("the board read is no puzzle: \(error)\n\(text)")
        }
        let sureness = ScanConfidence(
            cells: confidence, chute: chute.confidence, prisoner: min(1, 0.5 + Double(margin) / 160))
        return ScannedRushHour(grid: text, puzzle: puzzle, confidence: sureness, board: board)
    }

    /// A lone tile is a fixed block: grey, unlike the tray (a coloured one is part of a block
    /// whose seam was misread). A grey lone tile beside a block tile of its very colour, with
    /// no end of either seen between them, is more likely a grey car cut in two by a seam
    /// that is not there than a fixed block that happens to match it: refused.
    static func checkFixedBlocks(_ blocks: [[(row: Int, column: Int)]], sides: [[TileSides]], tray: RGB, owner: [[Int]]) throws(ScanError) {
        for cell in blocks.filter({ $0.count == 1 }).map({ $0[0] }) {
            let colour = sides[cell.row][cell.column].face
            guard colour.saturation < 48, colour.distance(to: tray) >= 60 else {
                throw ScanError("row \(cell.row), column \(cell.column): a lone tile of colour \(colour), not a grey unlike the tray (\(tray)) as a fixed block is (a seam seen inside a block?)")
            }
            for (dr, dc, side, facing) in [(0, 1, TileSide.right, TileSide.left), (1, 0, .bottom, .top), (0, -1, .left, .right), (-1, 0, .top, .bottom)] {
                let (row, column) = (cell.row + dr, cell.column + dc)
                guard row >= 0, column >= 0, row < owner.count, column < owner[0].count, owner[row][column] >= 0 else { continue }
                // Both ends seen, the fixed block's and its neighbour's, is two blocks.
                let bothEnds = sides[cell.row][cell.column].stop(side) > 0 && sides[row][column].stop(facing) > 0
                guard bothEnds || sides[row][column].face.distance(to: colour) >= 30 else {
                    throw ScanError("row \(cell.row), column \(cell.column): a fixed block of the very grey of the block beside it (row \(row), column \(column)): one grey block divided by a seam not there?")
                }
            }
        }
    }

    /// The commonest colours just inside the frame, all round: the tray's among them (rule 2).
    static func trayColours(_ board: BoardGrid, _ image: RGBAImage) -> [RGB] {
        let near = max(1, Int(board.tile * 0.05)), far = max(near + 1, Int(board.tile * 0.1))
        var samples: [RGB] = []
        let step = max(1, Int(board.tile / 8))
        for x in stride(from: Int(board.left) + far, to: Int(board.right) - far, by: step) {
            for depth in near...far {
                samples.append(image.colour(x, Int(board.top) + depth))
                samples.append(image.colour(x, Int(board.bottom) - 1 - depth))
            }
        }
        for y in stride(from: Int(board.top) + far, to: Int(board.bottom) - far, by: step) {
            for depth in near...far {
                samples.append(image.colour(Int(board.left) + depth, y))
                samples.append(image.colour(Int(board.right) - 1 - depth, y))
            }
        }
        return commonest(samples, count: 3)
    }

    /// Along how many of three paths across two neighbouring tiles' shared edge (rule 4), close
    /// to it, the colour goes a good way back toward the
    /// tray's (the tray showing between two blocks, however blurred), or far darker than both
    /// (an outline). A car's window or stripe darkens it but does not turn it toward a light
    /// tray, and lies further from the edge.
    static func seamCrossings(
        between a: (row: Int, column: Int), and b: (row: Int, column: Int), board: BoardGrid, middles: [[RGB]], tray: RGB, image: RGBAImage
    ) -> Int {
        let colourA = middles[a.row][a.column], colourB = middles[b.row][b.column]
        let horizontal = a.row == b.row
        let tile = board.tile
        let centreA = board.centre(row: a.row, column: a.column), centreB = board.centre(row: b.row, column: b.column)
        let edgeX = (centreA.x + centreB.x) / 2, edgeY = (centreA.y + centreB.y) / 2
        let apart = Double(min(colourA.distance(to: tray), colourB.distance(to: tray)))
        let darkest = min(colourA.brightness, colourB.brightness)
        var crossings = 0
        for offset in [-0.25, 0.0, 0.25] {
            var towardTray = false, outline = false
            let reach = max(3, Int(tile * 0.13))
            for step in -reach...reach {
                let x = horizontal ? edgeX + Double(step) : edgeX + offset * tile
                let y = horizontal ? edgeY + offset * tile : edgeY + Double(step)
                let colour = image.colour(Int(x), Int(y))
                if Double(colour.distance(to: tray)) < 0.65 * apart { towardTray = true }
                if colour.brightness * 2 < darkest { outline = true }
            }
            if towardTray || outline { crossings += 1 }
        }
        return crossings
    }

    /// The `count` most common colours among `samples` (to a sixteenth of each channel), most
    /// common first, each as its samples' median.
    static func commonest(_ samples: [RGB], count: Int) -> [RGB] {
        var bins: [Int: [RGB]] = [:]
        for sample in samples { bins[(sample.red >> 4) << 8 | (sample.green >> 4) << 4 | sample.blue >> 4, default: []].append(sample) }
        return bins.values.sorted { $0.count > $1.count }.prefix(count).map(RGB.median)
    }
}
