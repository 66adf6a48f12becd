// A board as a scene, for each kind: the tray and its frame, the pieces in wood, the
// prisoner in red, fixed blocks in slate, the chute as a gap in the frame.

import GridlockCore

public enum BoardScene {
    static let paper = Colour(0xF6, 0xF1, 0xE7)
    static let frameWood = Colour(0x6D, 0x4C, 0x2F)
    static let tray = Colour(0xE8, 0xDC, 0xC4)
    static let trayLine = Colour(0xD6, 0xC6, 0xA6)
    static let blockWood = Colour(0xD9, 0xA0, 0x5B)
    static let prisonerRed = Colour(0xC6, 0x28, 0x28)
    static let slate = Colour(0x4A, 0x4F, 0x57)
    static let ink = Colour(0x3E, 0x2A, 0x1A)
    static let plainWood = Colour(0xB8, 0xAA, 0x8E)
    /// Tilt colours, in the puzzle's colour order (then round again).
    static let palette = [
        Colour(0xC6, 0x28, 0x28), Colour(0x15, 0x65, 0xC0), Colour(0x2E, 0x7D, 0x32), Colour(0xEF, 0x6C, 0x00),
        Colour(0x6A, 0x1B, 0x9A), Colour(0x00, 0x83, 0x8F), Colour(0xAD, 0x14, 0x57), Colour(0x5D, 0x40, 0x37),
    ]
    /// Colour `index` of a tilt puzzle: the palette, then hues a golden angle apart, so that no
    /// two colours of one board look alike (a board may have dozens).
    static func colour(_ index: Int) -> Colour {
        if index < palette.count { return palette[index] }
        let hue = (Double(index - palette.count) * 137.508).truncatingRemainder(dividingBy: 360)
        // HSV with saturation 0.75 and value 0.75, to RGB.
        let value = 0.75, chroma = 0.75 * 0.75
        let x = chroma * (1 - abs((hue / 60).truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(hue / 60) {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        let base = value - chroma
        return Colour(UInt8((r + base) * 255), UInt8((g + base) * 255), UInt8((b + base) * 255))
    }

    static let cell = 64.0
    static let frame = 24.0

    /// A board's title: its kind and step, nothing from its file, so that every drawing of one
    /// board at one step (the report's, `gridlock render`'s) is the same text.
    public static func title(kind: PuzzleKind, step: Int) -> String {
        "\(kind.rawValue) puzzle, step \(step)"
    }

    /// The scene of one frame, captioned `title`.
    public static func scene(_ frame: BoardFrame, title: String) -> Scene {
        switch frame {
        case .rushHour(let puzzle): rushHour(puzzle, title: title)
        case .tiles(let board, let width, let height): tiles(board, width: width, height: height, title: title)
        case .sudoku(let givens, let cells, let boxSide): sudoku(givens: givens, cells: cells, boxSide: boxSide, title: title)
        case .tilt(let puzzle, let state): tilt(puzzle, state, title: title)
        }
    }

    /// The frame and tray of a board of `width` x `height` cells, with faint cell lines.
    static func tray(width: Int, height: Int, title: String) -> Scene {
        let size = (width: Double(width) * cell + 2 * frame, height: Double(height) * cell + 2 * frame)
        var scene = Scene(width: size.width, height: size.height, background: paper, title: title)
        scene.shapes.append(.box(Rectangle(x: 0, y: 0, width: size.width, height: size.height), radius: 14,
                                 fill: .wood(frameWood, horizontal: true, seed: 7), role: "frame"))
        let inside = Rectangle(x: frame, y: frame, width: Double(width) * cell, height: Double(height) * cell)
        scene.shapes.append(.box(inside, radius: 4, fill: .solid(tray), role: "tray"))
        for column in 1..<max(1, width) {
            let x = frame + Double(column) * cell
            scene.shapes.append(.line(x1: x, y1: inside.y, x2: x, y2: inside.y + inside.height, colour: trayLine, width: 1))
        }
        for row in 1..<max(1, height) {
            let y = frame + Double(row) * cell
            scene.shapes.append(.line(x1: inside.x, y1: y, x2: inside.x + inside.width, y2: y, colour: trayLine, width: 1))
        }
        return scene
    }

    /// The rectangle of cells from (row, column), `rows` x `columns` of them.
    static func cells(row: Int, column: Int, rows: Int = 1, columns: Int = 1) -> Rectangle {
        Rectangle(x: frame + Double(column) * cell, y: frame + Double(row) * cell, width: Double(columns) * cell, height: Double(rows) * cell)
    }

    static func rushHour(_ puzzle: RushHourPuzzle, title: String) -> Scene {
        var scene = tray(width: puzzle.width, height: puzzle.height, title: title)
        // The chute: the frame cut open at the end of the prisoner's row, with an arrow out.
        let row = cells(row: puzzle.exit.row, column: 0)
        let outX = puzzle.exit.side == .right ? frame + Double(puzzle.width) * cell : 0
        scene.shapes.append(.box(Rectangle(x: outX, y: row.y + 6, width: frame, height: cell - 12), radius: 0, fill: .solid(tray), role: "chute"))
        let tip = puzzle.exit.side == .right ? outX + frame - 5 : outX + 5
        let back = puzzle.exit.side == .right ? tip - 9 : tip + 9
        for dy in [-9.0, 9.0] {
            scene.shapes.append(.line(x1: back, y1: row.centreY + dy, x2: tip, y2: row.centreY, colour: prisonerRed, width: 3))
        }
        for (index, block) in puzzle.blocks.enumerated() {
            let area = cells(
                row: block.row, column: block.column,
                rows: block.orientation == .vertical ? block.length : 1, columns: block.orientation == .horizontal ? block.length : 1)
            if block.isFixed {
                scene.shapes.append(.box(area.inset(5), radius: 6, fill: .solid(slate), outline: slate.shaded(0.7), role: "wall"))
                continue
            }
            let isPrisoner = index == puzzle.prisonerIndex
            let colour = isPrisoner ? prisonerRed : blockWood
            scene.shapes.append(.box(
                area.inset(5), radius: 10, fill: .wood(colour, horizontal: block.orientation == .horizontal, seed: Int(block.name.asciiValue ?? 0)),
                outline: colour.shaded(0.6), role: isPrisoner ? "prisoner \(block.name)" : "block \(block.name)"))
        }
        return scene
    }

    static func tiles(_ tiles: [UInt8], width: Int, height: Int, title: String) -> Scene {
        var scene = tray(width: width, height: height, title: title)
        for (index, tile) in tiles.enumerated() where tile != 0 {
            let area = cells(row: index / width, column: index % width).inset(4)
            scene.shapes.append(.box(area, radius: 8, fill: .wood(blockWood, horizontal: true, seed: Int(tile)), outline: blockWood.shaded(0.6), role: "tile \(tile)"))
            scene.shapes.append(.label(String(tile), centreX: area.centreX, centreY: area.centreY, size: 22, colour: ink, bold: true))
        }
        return scene
    }

    static func sudoku(givens: [UInt8], cells values: [UInt8], boxSide: Int, title: String) -> Scene {
        let side = boxSide * boxSide
        let size = side > 9 ? 34.0 : 46.0
        let margin = 12.0
        let whole = Double(side) * size + 2 * margin
        var scene = Scene(width: whole, height: whole, background: Colour(0xFF, 0xFF, 0xFF), title: title)
        scene.shapes.append(.box(Rectangle(x: margin, y: margin, width: Double(side) * size, height: Double(side) * size), radius: 0,
                                 fill: .solid(Colour(0xFF, 0xFF, 0xFF)), role: "grid"))
        for index in values.indices where values[index] != 0 {
            let x = margin + Double(index % side) * size, y = margin + Double(index / side) * size
            let given = givens[index] != 0
            if given {
                scene.shapes.append(.box(Rectangle(x: x, y: y, width: size, height: size), radius: 0, fill: .solid(Colour(0xEE, 0xEB, 0xE4)), role: "given"))
            }
            scene.shapes.append(.label(
                String(SudokuPuzzle.character(for: values[index])), centreX: x + size / 2, centreY: y + size / 2, size: size * 0.42,
                colour: given ? Colour(0x11, 0x11, 0x11) : Colour(0x15, 0x65, 0xC0), bold: given))
        }
        for line in 0...side {
            let at = margin + Double(line) * size
            let heavy = line % boxSide == 0
            let colour = heavy ? Colour(0x22, 0x22, 0x22) : Colour(0xAA, 0xAA, 0xAA)
            let width = heavy ? 3.0 : 1.0
            scene.shapes.append(.line(x1: at, y1: margin, x2: at, y2: whole - margin, colour: colour, width: width))
            scene.shapes.append(.line(x1: margin, y1: at, x2: whole - margin, y2: at, colour: colour, width: width))
        }
        return scene
    }

    static func tilt(_ puzzle: TiltPuzzle, _ state: TiltState, title: String) -> Scene {
        var scene = tray(width: puzzle.width, height: puzzle.height, title: title)
        func has(_ mask: UInt64, _ row: Int, _ column: Int) -> Bool {
            row >= 0 && column >= 0 && row < puzzle.height && column < puzzle.width && mask & (1 << UInt64(row * puzzle.width + column)) != 0
        }
        for row in 0..<puzzle.height {
            for column in 0..<puzzle.width where has(puzzle.walls, row, column) {
                scene.shapes.append(.box(cells(row: row, column: column).inset(3), radius: 4, fill: .solid(slate), role: "wall"))
            }
        }
        var pieces: [(mask: UInt64, colour: Colour, name: String)] = [(state.plain, plainWood, "plain")]
        for (index, mask) in state.colours.enumerated() {
            pieces.append((mask, colour(index), String(puzzle.colourNames[index])))
        }
        for piece in pieces {
            for row in 0..<puzzle.height {
                for column in 0..<puzzle.width where has(piece.mask, row, column) {
                    let area = cells(row: row, column: column)
                    // Blocks of one colour that touch are joined for good: drawn as one piece.
                    if piece.name != "plain", has(piece.mask, row, column + 1) {
                        scene.shapes.append(.box(Rectangle(x: area.centreX, y: area.y + 12, width: cell, height: cell - 24), radius: 0, fill: .solid(piece.colour)))
                    }
                    if piece.name != "plain", has(piece.mask, row + 1, column) {
                        scene.shapes.append(.box(Rectangle(x: area.x + 12, y: area.centreY, width: cell - 24, height: cell), radius: 0, fill: .solid(piece.colour)))
                    }
                    scene.shapes.append(.box(area.inset(6), radius: 10, fill: .wood(piece.colour, horizontal: true, seed: row * 8 + column),
                                             outline: piece.colour.shaded(0.6), role: "block \(piece.name)"))
                }
            }
        }
        return scene
    }
}
