// Writing a tile board out: the one-line form files and the wire hold, the grid people read,
// and JSON.

extension TilePuzzle {
    /// `WxH: t0 t1 ...` when the board is not square, else just the numbers.
    public var lineText: String {
        let numbers = tiles.map(String.init).joined(separator: " ")
        return width == height ? numbers : "\(width)x\(height): \(numbers)"
    }

    public static func gridText(_ tiles: [UInt8], width: Int) -> String {
        let cellWidth = String(tiles.count - 1).count
        return stride(from: 0, to: tiles.count, by: width).map { start in
            tiles[start..<(start + width)].map { $0 == 0 ? "_".leftPadded(to: cellWidth) : String($0).leftPadded(to: cellWidth) }
                .joined(separator: " ")
        }.joined(separator: "\n")
    }

    public var gridText: String { Self.gridText(tiles, width: width) }

    public var jsonText: String {
        JSONLine.encode(JSONForm(
            kind: "tiles", width: width, height: height, tiles: tiles.map(Int.init), goal: goal,
            expectedMoves: expectedMoves, label: label))
    }
}

extension TilePuzzle {
    /// The board before the first move and after each one, for `--show`.
    public func boards(after moves: [SolutionMove]) -> [[UInt8]] {
        var tiles = self.tiles
        var boards = [tiles]
        for move in moves {
            guard let from = move.from, let to = move.to else { break }
            tiles.swapAt(from.row * width + from.column, to.row * width + to.column)
            boards.append(tiles)
        }
        return boards
    }
}
