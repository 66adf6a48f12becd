// How long an answer to a puzzle can honestly be, in bytes: the sink keeps no more of a solution
// than its puzzle's MOVES could take (issue 48, point 4). A Rush Hour database line that gives 12
// moves is answered in at most 12 moves of at most "B right 4" each; a solution of 64 KiB for it
// is no answer, however it replays.

extension ParsedPuzzle {
    /// The longest text one move of this puzzle can have, as the solvers write it and the
    /// validator reads it (`B right 4`, `15 right`, `north`); nil for Sudoku, whose answer is
    /// its filled grid.
    public var longestMoveBytes: Int? {
        if let rushHour {
            let name = rushHour.blocks.map { String($0.name).utf8.count }.max() ?? 1
            return name + " right ".utf8.count + String(max(rushHour.width, rushHour.height)).utf8.count
        }
        if let tiles { return String(tiles.cellCount).utf8.count + " right".utf8.count }
        if tilt != nil { return TiltDirection.allCases.map { $0.name.utf8.count }.max()! }
        return nil
    }

    /// The most bytes a solution of `moves` moves of at most `longestMoveBytes` each can take,
    /// its ", " separators counted; 0 for no moves (or a
    /// negative count, an input's "unsolvable"), `Int.max` past it: an input's MOVES is any
    /// number it says.
    public static func longestSolutionBytes(moves: Int, longestMoveBytes: Int) -> Int {
        guard moves > 0 else { return 0 }
        let (bytes, overflow) = moves.multipliedReportingOverflow(by: longestMoveBytes + 2)
        return overflow ? Int.max : bytes
    }
}

extension RushHourPuzzle {
    /// `longestMoveBytes` of a database line (6x6, blocks named by one letter): `B right 4`.
    public static let databaseLongestMoveBytes = 9
}
