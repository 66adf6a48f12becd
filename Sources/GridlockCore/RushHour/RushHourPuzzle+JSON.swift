// JSON for machines, one object per puzzle:
//
//   {"width":6,"height":6,"exit":{"side":"right","row":2},
//    "blocks":[{"name":"A","orientation":"horizontal","length":2,"row":2,"column":0},
//              {"name":"x","orientation":"fixed","length":1,"row":3,"column":3}],
//    "expectedMoves":23}
//
// Rows and columns count from 0 here, as in the solver's output; lengths of fixed blocks may be
// left out.

import Foundation

extension RushHourPuzzle {
    struct JSONForm: Codable {
        struct Block: Codable {
            var name: String
            var orientation: RushHourOrientation
            var length: Int?
            var row: Int
            var column: Int
        }

        var width: Int
        var height: Int
        var exit: RushHourExit
        var blocks: [Block]
        var expectedMoves: Int?
        var expectedCluster: Int?
        var label: String?
    }

    /// Reads the JSON form. `lineNumber` is where the object starts in the user's file.
    public static func parseJSON(_ text: String, lineNumber: Int = 1) throws(PuzzleInputError) -> RushHourPuzzle {
        let form: JSONForm
        do {
            form = try PuzzleJSON.decode(JSONForm.self, from: text)
        } catch {
            throw PuzzleInputError(
                code: "bad-json", message: "not a Rush Hour JSON object: \(JSONErrorText.describe(error))",
                location: TextLocation(line: lineNumber))
        }
        var blocks: [RushHourBlock] = []
        for block in form.blocks {
            // The grid's alphabet, so every board prints and draws: A the prisoner, B-Z the other
            // blocks, x or # a wall. A block named '.', 'o', a newline or an emoji was accepted,
            // and vanished from `--show`.
            let fixed = block.orientation == .fixed
            guard block.name.count == 1, let name = block.name.first,
                  fixed ? (name == "x" || name == "#") : (name.isASCII && name.isUppercase)
            else {
                throw PuzzleInputError(
                    code: "bad-name",
                    message: "block name '\(block.name.printable)' is not \(fixed ? "x or # (a fixed block)" : "one letter from A to Z (A the prisoner)")",
                    location: TextLocation(line: lineNumber))
            }
            blocks.append(RushHourBlock(
                name: name, orientation: block.orientation,
                length: block.length ?? (block.orientation == .fixed ? 1 : 2),
                row: block.row, column: block.column))
        }
        do {
            var puzzle = try validated(width: form.width, height: form.height, exit: form.exit, blocks: blocks)
            puzzle.expectedMoves = form.expectedMoves
            puzzle.expectedCluster = form.expectedCluster
            puzzle.label = form.label
            return puzzle
        } catch {
            throw error.placed(at: TextLocation(line: lineNumber))
        }
    }

    /// The JSON form of this puzzle, on one line.
    public var jsonText: String {
        let form = JSONForm(
            width: width, height: height, exit: exit,
            blocks: blocks.map {
                JSONForm.Block(name: String($0.name), orientation: $0.orientation, length: $0.length, row: $0.row, column: $0.column)
            },
            expectedMoves: expectedMoves, expectedCluster: expectedCluster, label: label)
        return JSONLine.encode(form)
    }
}
