// `gridlock render`: the picture the drawing library makes, written where asked, and a clear
// refusal with the right exit status for everything else.

import Foundation
import GridlockCore
import GridlockDrawing
import PNGFile
import Testing

@Suite("gridlock render")
struct RenderCommandTests {
    static let board = "17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJGH 5911"

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("SVG of the start to standard output: every block, the prisoner marked")
    func svgToStandardOutput() throws {
        let output = try GridlockBinary.run(["render", Self.board])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("<svg") && output.stdout.hasSuffix("</svg>\n"))
        let puzzle = try #require(try ParsedPuzzle.parse(Self.board).rushHour)
        #expect(output.stdout.components(separatedBy: "data-role=\"block ").count - 1 == puzzle.blocks.count - 1)
        #expect(output.stdout.contains("data-role=\"prisoner A\""))
    }

    @Test("PNG of step 4: the pixels of the library's own drawing of the board after four moves")
    func pngOfAStep() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("step4.png")
        let output = try GridlockBinary.run(["render", Self.board, "--step", "4", "-o", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        let decoded = try PNGFile.decode(Array(try Data(contentsOf: file)))
        let puzzle = try ParsedPuzzle.parse(Self.board)
        let result = try #require(puzzle.solve(with: puzzle.kind.defaultSolver, options: SolveOptions()))
        let expected = Raster(BoardScene.scene(BoardFrame.steps(of: puzzle, result: result)[4], title: ""))
        #expect(decoded.width == expected.width && decoded.rgba == expected.pixels)
        let start = Raster(BoardScene.scene(BoardFrame.steps(of: puzzle, result: nil)[0], title: ""))
        #expect(decoded.rgba != start.pixels, "step 4 is not the start")
        // The SVG of the same step draws the same boxes.
        let svg = try GridlockBinary.run(["render", Self.board, "--step", "4", "--format", "svg"])
        #expect(svg.stdout == SVGWriter.svg(BoardScene.scene(BoardFrame.steps(of: puzzle, result: result)[4], title: "rushhour puzzle, step 4")))
    }

    @Test("refusals: no such step, unreadable, unsolvable, cut off, ambiguous file, unknown extension, unwritable path")
    func refusals() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["render", Self.board, "--step", "99"], 1, "has 17 steps after the start (step 0), so there is no step 99"),
            (["render", "17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJG 5911"], 1, "argument"),
            (["render", "--step", "1", "--", "-1 oBCDDDEBCoFGEBAAFGHHHooGoooooIJJoooI 3899"], 1, "has no solution"),
            (["render", Self.board, "--step", "1", "--max-states", "10"], 2, "cut off"),
            (["render", "data/samples/unblockme.txt"], 64, "pick one with --line"),
            (["render", "data/samples/unblockme.txt", "--line", "13"], 64, "no puzzle on line 13"),
            (["render", Self.board, "-o", directory.appendingPathComponent("board.gif").path], 64, "cannot tell the format"),
            (["render", Self.board, "-o", directory.appendingPathComponent("missing/board.svg").path], 1, "cannot write"),
            (["render", Self.board, "--step=-1"], 64, "--step must be 0 or more"),
            (["render", Self.board, "--scale", "100", "--format", "png"], 64, "--scale"),
        ]
        for item in cases {
            let output = try GridlockBinary.run(item.arguments)
            #expect(output.status == item.status && output.stderr.contains(item.says), "\(item.arguments): \(output.status) \(output.stderr)")
        }
        // The file of several puzzles, with --line: the grid board spanning lines 15 to 19.
        let picked = try GridlockBinary.run(["render", "data/samples/unblockme.txt", "--line", "17"])
        #expect(picked.status == 0 && picked.stdout.contains("<title>rushhour puzzle, step 0</title>")
                && picked.stdout.contains("<rect x=\"0\" y=\"222\" width=\"24\" height=\"52\""), "the chute on the left of row 3: \(picked.stderr)")
    }
}
