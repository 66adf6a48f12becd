// A Rush Hour (Unblock Me) board read from a picture, by the rules docs/scanning.md lists:
//
// 1. The board is the inside of a frame of contrasting colour, divided into square tiles
//    (BoardFinder). It may sit anywhere in a larger picture.
// 2. The tray's colour is what lies just inside the frame all round: blocks stand a little
//    inside their tiles, so the tray shows between them and the frame. Where blocks crowd the
//    frame, each of the commonest colours there is tried: only the tray's reads by the rules.
// 3. A tile whose middle has the tray's colour is empty; any other holds a block.
// 4. Two neighbouring block tiles belong to one block unless a seam (the tray showing through,
//    or an outline) runs between them, close to their shared edge. A block is a straight run
//    of 2 or 3 tiles; a lone tile is a fixed block, grey and darker than the tray.
// 5. The chute is the gap in the frame beside one row: the place, left or right of a row,
//    where the frame's colour is most unlike the frame elsewhere.
// 6. The prisoner is the horizontal block in the chute's row that is reddest, clearly.
//
// Anything that breaks a rule is an error naming the tile and what could not be read: nothing
// is guessed.

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
}

public struct ScannedRushHour: Sendable {
    /// The board as its readable grid (the chute marked), which RushHourPuzzle reads.
    public var grid: String
    public var puzzle: RushHourPuzzle
    /// What was found, for `--debug-overlay`.
    var board: BoardGrid
}

public enum RushHourScanner {
    /// The most pixels a picture is read at: a phone's screenshot (2.5 million) is halved, its
    /// tiles still a hundred pixels wide, in a quarter of the time.
    public static let workingPixels = 1_200_000

    public static func scan(_ image: RGBAImage) -> Result<ScannedRushHour, ScanError> {
        let image = image.reduced(toAtMost: workingPixels)
        let edges = EdgeMap(image)
        do {
            guard let board = try BoardFinder.find(in: edges) else {
                return .failure(ScanError("no board found: no rectangle of square tiles inside a contrasting frame"))
            }
            return .success(try read(board, in: image))
        } catch let error as ScanError {
            return .failure(error)
        } catch {
            return .failure(ScanError("\(error)"))
        }
    }

    static func read(_ board: BoardGrid, in image: RGBAImage) throws -> ScannedRushHour {
        // Where blocks come close to the frame (or the picture is small, and the gap between
        // them a pixel), what lies just inside the frame may be a block's colour more often than
        // the tray's. So the commonest few colours there are each tried as the tray: a wrong one
        // breaks the rules (the real tray's tiles would join into blocks no seam divides), and
        // two that both read, as different boards, are no answer.
        var readings: [ScannedRushHour] = []
        var firstError: Error?
        for tray in trayColours(board, image) {
            do {
                readings.append(try read(board, in: image, tray: tray))
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

    static func read(_ board: BoardGrid, in image: RGBAImage, tray: RGB) throws -> ScannedRushHour {
        let tile = board.tile
        // Each tile's middle.
        var middles: [[RGB]] = []
        for row in 0..<board.rows {
            middles.append((0..<board.columns).map { column in
                let (x, y) = board.centre(row: row, column: column)
                let half = tile * 0.2
                return image.mean(x0: Int(x - half), y0: Int(y - half), x1: Int(x + half), y1: Int(y + half))
            })
        }
        let emptyDistance = 60, blockDistance = 110
        var occupied = [[Bool]](repeating: [Bool](repeating: false, count: board.columns), count: board.rows)
        for row in 0..<board.rows {
            for column in 0..<board.columns {
                let distance = middles[row][column].distance(to: tray)
                if distance > emptyDistance, distance < blockDistance {
                    throw ScanError("row \(row + 1), column \(column + 1): colour \(middles[row][column]) between empty (the tray, \(tray)) and block")
                }
                occupied[row][column] = distance >= blockDistance
            }
        }
        // Blocks: neighbouring occupied tiles with no seam between them.
        var owner = [[Int]](repeating: [Int](repeating: -1, count: board.columns), count: board.rows)
        var blocks: [[(row: Int, column: Int)]] = []
        for row in 0..<board.rows {
            for column in 0..<board.columns where occupied[row][column] && owner[row][column] < 0 {
                var cells = [(row, column)]
                owner[row][column] = blocks.count
                var index = 0
                while index < cells.count {
                    let (r, c) = cells[index]
                    index += 1
                    for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                        let (nr, nc) = (r + dr, c + dc)
                        guard nr >= 0, nc >= 0, nr < board.rows, nc < board.columns, occupied[nr][nc], owner[nr][nc] < 0,
                              !hasSeam(between: (r, c), and: (nr, nc), board: board, middles: middles, tray: tray, image: image)
                        else { continue }
                        owner[nr][nc] = blocks.count
                        cells.append((nr, nc))
                    }
                }
                blocks.append(cells)
            }
        }
        for cells in blocks {
            let rows = Set(cells.map(\.row)), columns = Set(cells.map(\.column))
            guard cells.count <= 3, rows.count == 1 || columns.count == 1 else {
                let first = cells.min { ($0.row, $0.column) < ($1.row, $1.column) }!
                throw ScanError("row \(first.row + 1), column \(first.column + 1): a block of \(cells.count) tiles that is no straight run of 2 or 3 (a seam not seen?)")
            }
        }
        // A lone tile is a fixed block, grey and darker than the tray in every theme: a coloured
        // one is part of a block whose seam was misread, and a light one is the tray itself
        // read with another colour taken for the tray.
        for cells in blocks where cells.count == 1 {
            let colour = middles[cells[0].row][cells[0].column]
            guard colour.saturation < 48, colour.brightness + 60 < tray.brightness else {
                throw ScanError("row \(cells[0].row + 1), column \(cells[0].column + 1): a lone tile of colour \(colour), not grey and darker than the tray (\(tray)) as a fixed block is (a seam seen inside a block?)")
            }
        }
        let (exitRow, exitSide) = try chute(board, image)
        // The prisoner: the reddest horizontal block in the chute's row, clearly so.
        let candidates = blocks.indices.filter { index in
            blocks[index].count >= 2 && Set(blocks[index].map(\.row)) == [exitRow]
        }
        let redness = { (index: Int) -> Int in
            blocks[index].map { middles[$0.row][$0.column].redness }.reduce(0, +) / blocks[index].count
        }
        guard let prisoner = candidates.max(by: { redness($0) < redness($1) }) else {
            throw ScanError("row \(exitRow + 1): no horizontal block in the chute's row to be the prisoner")
        }
        let others = blocks.indices.filter { $0 != prisoner && blocks[$0].count >= 2 }.map(redness)
        guard redness(prisoner) >= 40, others.allSatisfy({ redness(prisoner) - $0 >= 40 }) else {
            throw ScanError("row \(exitRow + 1): no block in the chute's row is clearly redder than the others, to be the prisoner")
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
            for cell in blocks[index] { grid[cell.row][cell.column] = name }
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
            throw ScanError("the board read is no puzzle: \(error.description)\n\(text)")
        }
        return ScannedRushHour(grid: text, puzzle: puzzle, board: board)
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

    /// Whether a seam runs between two neighbouring tiles (rule 4): along at least two of three
    /// paths across their shared edge, close to it, the colour goes a good way back toward the
    /// tray's (the tray showing between two blocks, however blurred), or far darker than both
    /// (an outline). A car's window or stripe darkens it but does not turn it toward a light
    /// tray, and lies further from the edge.
    static func hasSeam(
        between a: (row: Int, column: Int), and b: (row: Int, column: Int), board: BoardGrid, middles: [[RGB]], tray: RGB, image: RGBAImage
    ) -> Bool {
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
        return crossings >= 2
    }

    /// The `count` most common colours among `samples` (to a sixteenth of each channel), most
    /// common first, each as its samples' median.
    static func commonest(_ samples: [RGB], count: Int) -> [RGB] {
        var bins: [Int: [RGB]] = [:]
        for sample in samples { bins[(sample.red >> 4) << 8 | (sample.green >> 4) << 4 | sample.blue >> 4, default: []].append(sample) }
        return bins.values.sorted { $0.count > $1.count }.prefix(count).map(RGB.median)
    }

    /// The chute (rule 5): the row and side where the band just outside the frame's inner edge
    /// is least like the frame's colour there elsewhere.
    static func chute(_ board: BoardGrid, _ image: RGBAImage) throws -> (row: Int, side: RushHourSide) {
        var bands: [(row: Int, side: RushHourSide, colour: RGB)] = []
        for row in 0..<board.rows {
            let y = board.centre(row: row, column: 0).y
            let half = board.tile * 0.15
            for side in [RushHourSide.left, .right] {
                let x0 = side == .left ? board.left - board.tile * 0.25 : board.right + board.tile * 0.08
                // A band past the picture's edge would read as black, the most unlike any frame:
                // a chute where the picture was only cut.
                guard Int(x0) >= 0, Int(x0 + board.tile * 0.17) <= image.width else {
                    throw ScanError("the picture ends at the board's \(side) edge: the frame beside it, where a chute would show, is cut off")
                }
                bands.append((row, side, image.mean(x0: Int(x0), y0: Int(y - half), x1: Int(x0 + board.tile * 0.17), y1: Int(y + half))))
            }
        }
        let frame = RGB.median(bands.map(\.colour))
        let ranked = bands.sorted { $0.colour.distance(to: frame) > $1.colour.distance(to: frame) }
        let first = ranked[0].colour.distance(to: frame), second = ranked[1].colour.distance(to: frame)
        guard first >= 90, first >= 2 * second + 30 else {
            throw ScanError("no chute found: no gap in the frame beside one row stands out (the largest change from the frame's colour, \(frame), is \(first), the next \(second))")
        }
        return (ranked[0].row, ranked[0].side)
    }
}
