// Boards as pictures: every piece drawn where the puzzle has it, each step of a solution in
// order, and the same scene as SVG and as pixels.

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GridlockCore
import Testing

@testable import GridlockDrawing

@Suite("Board pictures")
struct BoardSceneTests {
    static let rushHour = "17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJGH 5911"

    static func boxes(_ scene: Scene) -> [(area: Rectangle, fill: Fill, role: String)] {
        scene.shapes.compactMap {
            guard case .box(let area, _, let fill, _, let role?) = $0 else { return nil }
            return (area, fill, role)
        }
    }

    static func solved(_ text: String, solver: String? = nil) throws -> (ParsedPuzzle, SolveResult) {
        let puzzle = try ParsedPuzzle.parse(text)
        let result = try #require(puzzle.solve(with: solver ?? puzzle.kind.defaultSolver, options: SolveOptions()))
        #expect(result.status == .solved)
        return (puzzle, result)
    }

    @Test("a Rush Hour board: each block once, where it stands, the prisoner red, the chute on its side")
    func rushHourBoard() throws {
        let puzzle = try #require(try ParsedPuzzle.parse(Self.rushHour).rushHour)
        let scene = BoardScene.scene(.rushHour(puzzle), title: "t")
        let pieces = Self.boxes(scene).filter { $0.role.hasPrefix("block") || $0.role.hasPrefix("prisoner") || $0.role == "wall" }
        #expect(pieces.count == puzzle.blocks.count)
        for block in puzzle.blocks {
            let drawn = try #require(pieces.first { $0.role.hasSuffix(" \(block.name)") }, "block \(block.name)")
            // Inset 5 from its cells.
            #expect(drawn.area.x == BoardScene.frame + Double(block.column) * BoardScene.cell + 5)
            #expect(drawn.area.y == BoardScene.frame + Double(block.row) * BoardScene.cell + 5)
            let cells = Double(block.length) * BoardScene.cell - 10
            #expect(block.orientation == .horizontal ? drawn.area.width == cells : drawn.area.height == cells)
        }
        let prisoner = try #require(pieces.first { $0.role.hasPrefix("prisoner") })
        #expect(prisoner.role == "prisoner A" && prisoner.fill.baseColour == BoardScene.prisonerRed)
        let chute = try #require(Self.boxes(scene).first { $0.role == "chute" })
        #expect(chute.area.x == BoardScene.frame + 6 * BoardScene.cell, "the right-hand chute is cut in the right side of the frame")
        #expect(chute.area.centreY == BoardScene.frame + 2.5 * BoardScene.cell)
    }

    @Test("the steps of a Rush Hour solution: the start, then one board a move, the last solved")
    func rushHourSteps() throws {
        let (puzzle, result) = try Self.solved(Self.rushHour)
        let frames = BoardFrame.steps(of: puzzle, result: result)
        #expect(frames.count == result.solution.count + 1)
        guard case .rushHour(let first) = frames.first, case .rushHour(let last) = frames.last else {
            Issue.record("not Rush Hour frames")
            return
        }
        #expect(first == puzzle.rushHour)
        #expect(last.isSolved && !first.isSolved)
        #expect(BoardFrame.steps(of: puzzle, result: nil).count == 1)
    }

    @Test("Sudoku steps: the givens, then one more solved cell each, ending with the solution")
    func sudokuSteps() throws {
        let (puzzle, result) = try Self.solved("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
        let sudoku = try #require(puzzle.sudoku)
        let frames = BoardFrame.steps(of: puzzle, result: result)
        #expect(frames.count == sudoku.cells.count { $0 == 0 } + 1)
        guard case .sudoku(let givens, let cells, _) = frames.last else {
            Issue.record("not Sudoku frames")
            return
        }
        #expect(givens == sudoku.cells)
        #expect(String(cells.map { SudokuPuzzle.character(for: $0) }) == result.solvedPosition)
        // Step 1 fills the first blank cell (reading order), and only it.
        guard case .sudoku(_, let one, _) = frames[1] else { return }
        let first = try #require(sudoku.cells.firstIndex(of: 0))
        #expect(zip(one, sudoku.cells).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset) == [first])
    }

    @Test("tilt and tile steps end solved")
    func tiltAndTileSteps() throws {
        let (tilt, tiltResult) = try Self.solved("a..b/..a./b.../....")
        guard case .tilt(let board, let state) = BoardFrame.steps(of: tilt, result: tiltResult).last else {
            Issue.record("not tilt frames")
            return
        }
        #expect(board.isSolved(state))
        let (tiles, tileResult) = try Self.solved("1 2 3 4 5 6 0 7 8")
        guard case .tiles(let last, _, _) = BoardFrame.steps(of: tiles, result: tileResult).last else {
            Issue.record("not tile frames")
            return
        }
        #expect(last == tiles.tiles?.goalTiles)
    }

    @Test("SVG: every box of the scene, the prisoner where the scene has it, text escaped")
    func svg() throws {
        let puzzle = try #require(try ParsedPuzzle.parse(Self.rushHour).rushHour)
        let scene = BoardScene.scene(.rushHour(puzzle), title: "a <board> & \"more\"")
        let svg = SVGWriter.svg(scene)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("<title>a &lt;board&gt; &amp; &quot;more&quot;</title>"))
        let prisoner = try #require(Self.boxes(scene).first { $0.role.hasPrefix("prisoner") })
        #expect(svg.contains("<rect x=\"\(SVGWriter.number(prisoner.area.x))\" y=\"\(SVGWriter.number(prisoner.area.y))\""))
        #expect(svg.components(separatedBy: "data-role=\"").count - 1 == Self.boxes(scene).count)
        // Every opened element is closed: the file is well-formed.
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test("pixels: the prisoner's centre is red, an empty cell the tray's colour, the border the frame's wood")
    func raster() throws {
        let puzzle = try #require(try ParsedPuzzle.parse(Self.rushHour).rushHour)
        let scene = BoardScene.scene(.rushHour(puzzle), title: "t")
        let raster = Raster(scene)
        #expect(raster.width == 6 * 64 + 48 && raster.height == raster.width)
        let prisoner = try #require(Self.boxes(scene).first { $0.role.hasPrefix("prisoner") })
        let red = raster.colour(x: Int(prisoner.area.centreX), y: Int(prisoner.area.centreY))
        #expect(red.red > 150 && red.green < 90 && red.blue < 90, "\(red)")
        // Row 0, column 2 is empty ("o") in this board; away from the cell lines.
        let empty = raster.colour(x: Int(BoardScene.frame + 2 * 64 + 20), y: Int(BoardScene.frame + 20))
        #expect(empty == BoardScene.tray)
        let frame = raster.colour(x: 12, y: 200)
        #expect(abs(Int(frame.red) - Int(BoardScene.frameWood.red)) < 40 && frame.red > frame.blue)
        let doubled = Raster(scene, scale: 2)
        #expect(doubled.width == 2 * raster.width)
    }

    @Test("labels: every glyph the boards use is 7 rows of 5, and a tile's number is drawn in ink")
    func labels() throws {
        for character in "0123456789ABCDEFG" {
            let rows = try #require(PixelFont.rows(of: character), "\(character)")
            #expect(rows.count == PixelFont.height && rows.allSatisfy { $0.count == PixelFont.width }, "\(character)")
        }
        let scene = BoardScene.scene(.tiles([1, 0, 0, 0], width: 2, height: 2), title: "t")
        let raster = Raster(scene)
        let tile = try #require(Self.boxes(scene).first { $0.role == "tile 1" })
        // The "1"'s stem is the glyph's middle column, through the tile's centre.
        let stem = raster.colour(x: Int(tile.area.centreX), y: Int(tile.area.centreY))
        #expect(stem == BoardScene.ink, "\(stem)")
    }
}
