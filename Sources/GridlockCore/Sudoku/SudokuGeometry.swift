// The fixed shape of a Sudoku of one size: which cells share a row, a column or a box. Built
// once per size, as Norvig's `units` and `peers`, but flat so hot loops index without
// allocating.
//
//   9x9, box side 3. Cells are numbered row by row:      units 0..8   rows
//      0  1  2 |  3  4  5 |  6  7  8                     units 9..17  columns
//      9 10 11 | 12 13 14 | 15 16 17                     units 18..26 boxes, row by row
//     ...
//   A cell has 3 units and 20 peers (8 in its row, 8 in its column, 4 more in its box).

public struct SudokuGeometry: Sendable {
    /// The side of a box: 2, 3 or 4 (4x4, 9x9 or 16x16 grids).
    public let boxSide: Int
    /// Digits per unit, and cells per row.
    public let side: Int
    public let cellCount: Int
    /// Every unit's cells: unit `u` is `units[u * side ..< (u + 1) * side]`.
    public let units: [Int]
    /// The three units of cell `c`: row, column, box, at `cellUnits[c * 3 ..< c * 3 + 3]`.
    public let cellUnits: [Int]
    /// The peers of cell `c`, at `peers[c * peerCount ..< (c + 1) * peerCount]`.
    public let peers: [Int]
    public let peerCount: Int

    public static let supportedBoxSides = 2...4

    /// The geometry for a box side, built once.
    public static func forBoxSide(_ boxSide: Int) -> SudokuGeometry {
        precondition(supportedBoxSides.contains(boxSide), "box side \(boxSide) is not supported")
        return all[boxSide - supportedBoxSides.lowerBound]
    }

    private static let all = supportedBoxSides.map(SudokuGeometry.init(boxSide:))

    public var unitCount: Int { 3 * side }

    public func row(of cell: Int) -> Int { cell / side }
    public func column(of cell: Int) -> Int { cell % side }
    public func box(of cell: Int) -> Int { (row(of: cell) / boxSide) * boxSide + column(of: cell) / boxSide }

    private init(boxSide: Int) {
        self.boxSide = boxSide
        side = boxSide * boxSide
        cellCount = side * side
        let side = self.side
        var units: [Int] = []
        for row in 0..<side { units += (0..<side).map { row * side + $0 } }
        for column in 0..<side { units += (0..<side).map { $0 * side + column } }
        for box in 0..<side {
            let top = (box / boxSide) * boxSide, left = (box % boxSide) * boxSide
            units += (0..<side).map { (top + $0 / boxSide) * side + left + $0 % boxSide }
        }
        self.units = units
        var cellUnits = [Int](repeating: 0, count: side * side * 3)
        var peers: [Int] = []
        for cell in 0..<(side * side) {
            let row = cell / side, column = cell % side
            let box = (row / boxSide) * boxSide + column / boxSide
            cellUnits[cell * 3] = row
            cellUnits[cell * 3 + 1] = side + column
            cellUnits[cell * 3 + 2] = 2 * side + box
            var cellPeers: [Int] = []
            for unit in [row, side + column, 2 * side + box] {
                for other in units[(unit * side)..<((unit + 1) * side)] where other != cell && !cellPeers.contains(other) {
                    cellPeers.append(other)
                }
            }
            peers += cellPeers.sorted()
        }
        self.cellUnits = cellUnits
        self.peers = peers
        peerCount = peers.count / (side * side)
    }

    /// A cell as people name it: `r1c3` (row 1, column 3, counted from 1).
    public func name(of cell: Int) -> String { "r\(row(of: cell) + 1)c\(column(of: cell) + 1)" }

    /// A unit as people name it: `row 4`, `column 7`, `box 5`.
    public func name(ofUnit unit: Int) -> String {
        switch unit / side {
        case 0: "row \(unit + 1)"
        case 1: "column \(unit - side + 1)"
        default: "box \(unit - 2 * side + 1)"
        }
    }
}

/// A geometry is fixed by its box side.
extension SudokuGeometry: Hashable {
    public static func == (left: SudokuGeometry, right: SudokuGeometry) -> Bool { left.boxSide == right.boxSide }
    public func hash(into hasher: inout Hasher) { hasher.combine(boxSide) }
}
