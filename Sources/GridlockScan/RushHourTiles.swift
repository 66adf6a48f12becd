// Which tiles hold a block, and which neighbouring block tiles are one block (rules 3 and 4 of
// RushHourScanner), each decision with its confidence: 1 where every sign agrees, 0.5 where
// the scan would refuse, between where one sign is weak. The structure decides first (a
// block's end stops short of its tile's edge; an empty tile's tray runs to it), the colour
// second, so a light block on a light tray is a block by its outline.

struct TileReading: Sendable {
    var occupied: [[Bool]]
    /// How sure each tile's empty-or-block is, 0.5-1.
    var confidence: [[Double]]
}

enum RushHourTiles {
    /// The colour distances from the tray under which a tile is the tray's and over which a
    /// block's, when its sides alone do not say (a block's ends blurred away).
    static let emptyDistance = 60, blockDistance = 110

    /// What one sign alone says of a tile.
    enum Sign { case empty, block, unsure }

    static func byColour(_ tile: TileSides, tray: RGB) -> Sign {
        let distance = tile.face.distance(to: tray)
        return distance <= emptyDistance ? .empty : distance >= blockDistance ? .block : .unsure
    }

    /// A tile with ends on two sides or more is a block; one with no mark at all on any side
    /// is the tray; one with marks that are no ends is neither, plainly.
    static func byEnds(_ tile: TileSides) -> Sign {
        tile.ownEdges >= 2 ? .block : tile.ownEdges == 0 && !tile.marked ? .empty : .unsure
    }

    static func occupancy(_ sides: [[TileSides]], tray: RGB, tile size: Double) throws(ScanError) -> TileReading {
        let rows = sides.count, columns = sides[0].count
        var reading = TileReading(
            occupied: Array(repeating: Array(repeating: false, count: columns), count: rows),
            confidence: Array(repeating: Array(repeating: 1, count: columns), count: rows))
        // Blocks drawn flush with their tiles show no ends, and then colour alone would decide,
        // against the tray's colour: where a block's colour is taken for it, the true tray reads
        // as flush blocks and every rule can hold (in a run that read flush boards, 2 of 31 so
        // read were wrong at exit 0: a car's orange or yellow taken for the tray, the tray's
        // tiles for cars). So a board whose blocks show no ends is refused.
        let colourBlocks = sides.joined().filter { byColour($0, tray: tray) == .block }
        let withEnds = colourBlocks.filter { byEnds($0) == .block }.count
        if withEnds * 5 < colourBlocks.count {
            let first = (0..<rows).lazy.flatMap { row in (0..<columns).lazy.map { (row, $0) } }.first { row, column in
                byColour(sides[row][column], tray: tray) == .block && byEnds(sides[row][column]) != .block
            }
            let place = first.map { "row \($0.0), column \($0.1) and others: " } ?? ""
            throw ScanError("\(place)\(withEnds) of the \(colourBlocks.count) tiles of a block's colour (against the tray \(tray)) show a block's ends: blocks drawn flush with their tiles, or a block's colour taken for the tray's, are not read by colour alone")
        }
        // A tile or two of a block's colour may have their ends blurred away; more is a block's
        // colour taken for the tray's.
        let endless = colourBlocks.filter { byEnds($0) == .empty }.count
        for row in 0..<rows {
            for column in 0..<columns {
                let tile = sides[row][column]
                let distance = tile.face.distance(to: tray)
                let colour = byColour(tile, tray: tray), ends = byEnds(tile)
                let place = "row \(row), column \(column)"
                let decided: Sign
                switch (colour, ends) {
                case (.empty, .empty), (.block, .block): (decided, reading.confidence[row][column]) = (colour, 1)
                case (.unsure, .block): (decided, reading.confidence[row][column]) = (.block, 0.75)
                // No end seen, of a colour between: the tray a little off, or a block whose
                // ends blurred away. Only the colour nearer the tray's is taken for empty.
                case (.unsure, .empty) where distance < (emptyDistance + blockDistance) / 2:
                    (decided, reading.confidence[row][column]) = (.empty, 0.6)
                case (.unsure, .empty):
                    throw ScanError("\(place): nearer a block's colour than the tray's (\(tile.face), the tray \(tray)) but with no end of a block seen on any side")
                case (.block, .unsure): (decided, reading.confidence[row][column]) = (colour, 0.6)
                // Of the tray's colour with a mark that is no end: an outlined block of the
                // tray's colour whose outline was not made out, or the tray with a line on it.
                case (.empty, .unsure) where tile.ownEdges == 1:
                    (decided, reading.confidence[row][column]) = (colour, 0.6)
                case (.empty, .unsure):
                    throw ScanError("\(place): of the tray's colour (\(tile.face)) but marked inside its edges as a block's outline would be, on no side as a block's end")
                case (.empty, .block) where tile.deepEnds(tile: size) >= 2:
                    (decided, reading.confidence[row][column]) = (.block, 0.7)
                // Ends too shallow to be more than blur, on a tile of the tray's colour: empty,
                // but too weakly for a reading to be given on it unless asked.
                case (.empty, .block): (decided, reading.confidence[row][column]) = (.empty, 0.55)
                case (.unsure, .unsure):
                    throw ScanError("\(place): neither empty nor a block: colour \(tile.face) (the tray \(tray)), the end of a block seen on \(tile.ownEdges) side")
                case (.block, .empty) where endless <= 2: (decided, reading.confidence[row][column]) = (.block, 0.55)
                case (.block, .empty):
                    throw ScanError("\(place): of a block's colour (\(tile.face), the tray \(tray)) but with no end of a block seen on any side")
                }
                // An empty tile shows nothing inside its edges: one outlined or inset on two
                // sides is a block that colour alone took for the tray (a block's colour taken
                // for the tray's, or blocks drawn as outlines), never read as empty.
                if decided == .empty, tile.deepMarks(tile: size) >= 2 {
                    throw ScanError("\(place): of the tray's colour (\(tile.face), the tray \(tray)) but marked inside \(tile.deepMarks(tile: size)) of its edges as a block is")
                }
                reading.occupied[row][column] = decided == .block
            }
        }
        // A board of blocks only cannot move: its tray's colour was not seen.
        guard reading.occupied.joined().contains(false) else {
            throw ScanError("every tile read as a block: the tray's colour (\(tray)) shows in none")
        }
        return reading
    }

    /// Whether a seam divides two neighbouring block tiles, and how sure that is: either
    /// tile's face stopping short of the edge between them, or RushHourScanner.hasSeam's
    /// look across it (the tray or an outline showing).
    static func seam(
        between a: (row: Int, column: Int), and b: (row: Int, column: Int), sides: [[TileSides]], crossings: Int
    ) -> (divided: Bool, confidence: Double) {
        let (sideA, sideB): (TileSide, TileSide) =
            b.column > a.column ? (.right, .left) : b.column < a.column ? (.left, .right) : b.row > a.row ? (.bottom, .top) : (.top, .bottom)
        let stops = [sides[a.row][a.column].stop(sideA), sides[b.row][b.column].stop(sideB)].filter { $0 > 0 }.count
        let alike = sides[a.row][a.column].face.distance(to: sides[b.row][b.column].face)
        // Votes: each stop, and the crossings of the look across (2 of 3 say a seam). Faces
        // unlike each other with no seam seen are two blocks drawn touching.
        switch (stops, crossings) {
        case (2, 2...), (1, 3): return (true, 1)
        case (1, 2), (2, 0...1): return (true, 0.8)
        case (0, 0) where alike < 60: return (false, 1)
        case (0, 1) where alike < 60: return (false, 0.75)
        case (0, 0...1): return (true, 0.7)
        default: return (true, 0.6)
        }
    }
}
