// How sure a Rush Hour reading is, part by part: 1 where every sign agrees, down to 0.5 where
// the scan would have refused. A reading is returned only when every part is at or above the
// threshold asked for (`scan --least-confidence`, 0.6 unless told), so a caller that wants more
// certainty can have it, and one that reads the JSON sees where a reading was weakest.

public struct ScanConfidence: Sendable, Hashable {
    /// The least confidence a reading is given at unless asked otherwise: a tile read by one
    /// weak sign alone (0.55: a block's colour with its ends blurred away) is refused.
    public static let defaultLeast = 0.6

    /// Per tile, row by row from the top left: how sure it is empty, or part of the block read
    /// there, joined to and divided from its neighbours as read.
    public var cells: [[Double]]
    /// How clearly the chute stands out beside its row.
    public var chute: Double
    /// How clearly the prisoner is the reddest block.
    public var prisoner: Double

    /// The weakest part, and where: a tile (row, column), or nil for the chute or prisoner.
    public var weakest: (value: Double, cell: (row: Int, column: Int)?, part: String) {
        var weakest: (value: Double, cell: (row: Int, column: Int)?, part: String) = (chute, nil, "the chute")
        if prisoner < weakest.value { weakest = (prisoner, nil, "the prisoner") }
        for (row, values) in cells.enumerated() {
            for (column, value) in values.enumerated() where value < weakest.value { weakest = (value, (row, column), "the tile") }
        }
        return weakest
    }
}
