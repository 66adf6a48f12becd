// Additive pattern databases for the 15-puzzle (Korf and Felner, 2002). The 15 tiles are split
// into disjoint groups; for each group a table holds, for every placement of its tiles, the
// fewest moves *of those tiles* that bring them home, the other tiles and the blank free to
// move at no cost. Moves of one group never count in another, so the tables' sum is a lower
// bound on the moves left: far tighter than Manhattan distance (Korf's 100 need ~2,000x fewer
// nodes with 6-6-3).
//
//   6-6-3 (blank-first goal, by goal cell):    5-5-5:              7-8:
//      _  C  C  C                                 _  A  A  A          _  A  A  A
//      A  A  B  B                                 B  B  A  A          A  A  A  A
//      A  A  B  B                                 B  B  C  C          B  B  B  B
//      A  A  B  B                                 B  C  C  C          B  B  B  B
//   The blank-last goal uses the same shapes turned half a circle.
//
//   index (6-6-3, 5-5-5): the group's cells, 4 bits each (tile i of the group in bits
//   4i...4i+3): a sparse table of 16^k bytes (16 MiB for 6 tiles) that needs no permutation
//   ranking on lookup.
//   index (7-8): the rank of the group's cells (TilePlacementRank.swift), 16!/(16-k)! bytes.
//
// Building (sparse): a breadth-first search over (group cells, blank cell), 16^(k+1) entries,
// level by level; within a level, moves of other tiles (cost 0) are closed over first. Then
// each placement takes the minimum over blank cells. Ranked: TilePatternDatabase+Ranked.swift.

public struct TilePatternDatabase: Sendable {
    public enum Partition: String, Sendable, CaseIterable {
        case sixSixThree = "6-6-3"
        case fiveFiveFive = "5-5-5"
        /// The top two rows and the bottom two (Korf and Felner's 7-8): 550 MiB, ranked.
        case sevenEight = "7-8"

        /// The groups as goal cells of the blank-first goal.
        var groupCells: [[Int]] {
            switch self {
            case .sixSixThree: [[4, 5, 8, 9, 12, 13], [6, 7, 10, 11, 14, 15], [1, 2, 3]]
            case .fiveFiveFive: [[1, 2, 3, 6, 7], [4, 5, 8, 9, 12], [10, 11, 13, 14, 15]]
            case .sevenEight: [[1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15]]
            }
        }

        /// Whether its tables use the ranked index (TilePlacementRank.swift) rather than the
        /// sparse one: 8 tiles' sparse table would be 4 GiB.
        public var isRanked: Bool { self == .sevenEight }

        /// A table's entries for a group of `tiles`.
        func entries(tiles: Int) -> Int {
            isRanked ? TilePlacementRank.count(tiles: tiles) : 1 << (4 * tiles)
        }
    }

    public let goal: TileGoal
    public let partition: Partition
    /// Each group's tiles, in index order.
    public let groups: [[UInt8]]
    /// Every group's table, one after another.
    let storage: PatternTableBytes
    let offsets: [Int]

    public var byteCount: Int { storage.count }

    /// The groups' tiles for a goal: the shapes above, turned for blank-last.
    static func groups(_ partition: Partition, goal: TileGoal) -> [[UInt8]] {
        let goalTiles = goal.tiles(cells: 16)
        return partition.groupCells.map { cells in
            cells.map { goalTiles[goal == .blankFirst ? $0 : 15 - $0] }
        }
    }

    public init(goal: TileGoal, partition: Partition, storage: [UInt8]) throws(PuzzleInputError) {
        try self.init(goal: goal, partition: partition, tables: PatternTableBytes(storage))
    }

    /// Tables made elsewhere: a mapping of the cache file, shared with every process that maps it.
    public init(goal: TileGoal, partition: Partition, tables: PatternTableBytes) throws(PuzzleInputError) {
        try self.init(goal: goal, partition: partition, groups: Self.groups(partition, goal: goal), storage: tables)
    }

    /// The bytes of a partition's tables (without the file's header line).
    public static func storageBytes(_ partition: Partition, goal: TileGoal) -> Int {
        groups(partition, goal: goal).reduce(0) { $0 + partition.entries(tiles: $1.count) }
    }

    /// Tables for other groups than the partition's, indexed as its are (the tests' small ranked
    /// tables).
    init(goal: TileGoal, partition: Partition, groups: [[UInt8]], storage: [UInt8]) throws(PuzzleInputError) {
        try self.init(goal: goal, partition: partition, groups: groups, storage: PatternTableBytes(storage))
    }

    init(goal: TileGoal, partition: Partition, groups: [[UInt8]], storage: PatternTableBytes) throws(PuzzleInputError) {
        self.goal = goal
        self.partition = partition
        self.groups = groups
        offsets = groups.reduce(into: [0]) { $0.append($0.last! + partition.entries(tiles: $1.count)) }
        guard storage.count == offsets.last! else {
            throw PuzzleInputError(
                code: "bad-pattern-database", message: "a \(partition.rawValue) table holds \(offsets.last!) bytes, this one \(storage.count)")
        }
        self.storage = storage
    }

    /// Builds every group's table; `progress` hears each group's number as it starts, and
    /// `level` each level of a ranked group's search (its number and states).
    public static func build(
        goal: TileGoal, partition: Partition, progress: (Int) -> Void = { _ in }, level: (Int, Int) -> Void = { _, _ in }
    ) -> TilePatternDatabase {
        let goalTiles = goal.tiles(cells: 16)
        var storage: [UInt8] = []
        for (number, group) in groups(partition, goal: goal).enumerated() {
            progress(number)
            storage += partition.isRanked ? buildRankedGroup(group, goalTiles: goalTiles, level: level) : buildGroup(group, goalTiles: goalTiles)
        }
        return try! TilePatternDatabase(goal: goal, partition: partition, storage: storage)
    }

    /// The search's index puts the blank in the lowest four bits and tile i of the group in bits
    /// 4(i+1)...4(i+1)+3: the 16 blank cells of one placement share a 16-byte run, so a free
    /// move (another tile slides) lands in the cache line just read. With the blank on top, each
    /// free move was a random read 16 MiB away, and the 6-6-3 build was bound by memory latency
    /// (82-92 s against 27 s with this layout, docs/benchmarks.md).
    static func buildGroup(_ group: [UInt8], goalTiles: [UInt8]) -> [UInt8] {
        let size = group.count
        let geometry = TileGeometry(width: 4, height: 4)
        var start = goalTiles.firstIndex(of: 0)!
        for (slot, tile) in group.enumerated() { start |= goalTiles.firstIndex(of: tile)! << (4 * (slot + 1)) }
        let unreached: UInt8 = 255
        var distance = [UInt8](repeating: unreached, count: 1 << (4 * (size + 1)))
        distance.withUnsafeMutableBufferPointer { distance in
            var current: [UInt32] = [UInt32(start)]
            var next: [UInt32] = []
            distance[start] = 0
            var level: UInt8 = 0
            while !current.isEmpty {
                var position = 0
                while position < current.count {
                    let state = Int(current[position])
                    position += 1
                    guard distance[state] == level else { continue }
                    let blank = state & 15
                    let withoutBlank = state & ~15
                    for move in geometry.moves[blank] {
                        var shift = -1
                        for slot in 1...size where (state >> (4 * slot)) & 15 == move.tile { shift = 4 * slot }
                        if shift < 0 {
                            // Another tile slides: free.
                            let target = withoutBlank | move.tile
                            if distance[target] > level {
                                distance[target] = level
                                current.append(UInt32(target))
                            }
                        } else {
                            // A tile of the group slides into the blank: one move.
                            let target = withoutBlank & ~(15 << shift) | blank << shift | move.tile
                            if distance[target] == unreached {
                                distance[target] = level + 1
                                next.append(UInt32(target))
                            }
                        }
                    }
                }
                swap(&current, &next)
                next.removeAll(keepingCapacity: true)
                level += 1
            }
        }
        let placements = 1 << (4 * size)
        var table = [UInt8](repeating: unreached, count: placements)
        distance.withUnsafeBufferPointer { distance in
            for placement in 0..<placements {
                let base = placement << 4
                var fewest = unreached
                for blank in 0..<16 { fewest = min(fewest, distance[base + blank]) }
                table[placement] = fewest
            }
        }
        return table
    }

    /// The file form: a header line `GLPDB2 PARTITION GOAL CHECKSUM`, then the tables.
    public var serialized: [UInt8] {
        storage.withUnsafeBufferPointer { tables in
            let sum = PatternTableChecksum.of(UnsafeRawBufferPointer(tables))
            return Array("GLPDB2 \(partition.rawValue) \(goal.rawValue) \(PatternTableChecksum.text(sum))\n".utf8) + Array(tables)
        }
    }

    public init(serialized bytes: [UInt8]) throws(PuzzleInputError) {
        let header = try Self.header(of: bytes.prefix(64))
        let tables = Array(bytes[header.length...])
        try Self.check(PatternTableChecksum.of(tables), against: header.checksum, file: "the file")
        try self.init(goal: header.goal, partition: header.partition, storage: tables)
    }

    /// Throws unless the tables' checksum is the header's.
    public static func check(_ sum: UInt64, against expected: UInt64, file: String) throws(PuzzleInputError) {
        guard sum == expected else {
            throw PuzzleInputError(
                code: "bad-pattern-database",
                message: "\(file) is damaged: its tables' checksum is \(PatternTableChecksum.text(sum)), its header says \(PatternTableChecksum.text(expected))")
        }
    }

    /// The file form's header line: its partition, goal and checksum, and its length with the
    /// newline. (Read apart from the tables, so that a loader copies the 550 MiB of 7-8 only
    /// once.) A file of the first form, GLPDB1, has no checksum: refused, so it is built again.
    public static func header(of prefix: some Collection<UInt8>) throws(PuzzleInputError) -> (partition: Partition, goal: TileGoal, checksum: UInt64, length: Int) {
        guard let newline = prefix.firstIndex(of: 0x0A) else {
            throw PuzzleInputError(code: "bad-pattern-database", message: "no header line")
        }
        let line = Array(prefix[..<newline])
        let header = String(decoding: line, as: UTF8.self).split(separator: " ")
        if header.first == "GLPDB1" {
            throw PuzzleInputError(code: "bad-pattern-database", message: "an older build's file, with no checksum of its tables (GLPDB1)")
        }
        guard header.count == 4, header[0] == "GLPDB2", let partition = Partition(rawValue: String(header[1])),
              let goal = TileGoal(rawValue: String(header[2])), header[3].count == 16, let checksum = UInt64(header[3], radix: 16)
        else {
            throw PuzzleInputError(code: "bad-pattern-database", message: "the header is not GLPDB2 PARTITION GOAL CHECKSUM")
        }
        return (partition, goal, checksum, line.count + 1)
    }
}
