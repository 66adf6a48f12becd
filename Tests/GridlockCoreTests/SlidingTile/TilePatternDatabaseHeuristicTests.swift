// The pattern databases' bound with its turned lookup, on tables of seeded noise: what is
// checked is the bookkeeping (which entries are read, for the board and for the board turned
// about its diagonal, and how slides and their undos move them), which does not depend on what
// the tables hold. That real tables give optimal answers is checked on Korf's 100 by
// scripts/acceptance, every solution replayed.

@testable import GridlockCore
import Testing

@Suite("Pattern database bound")
struct TilePatternDatabaseHeuristicTests {
    /// Tables of a sparse partition's size filled with seeded noise.
    static func noise(_ partition: TilePatternDatabase.Partition, goal: TileGoal) -> TilePatternDatabase {
        let size = TilePatternDatabase.groups(partition, goal: goal).reduce(0) { $0 + 1 << (4 * $1.count) }
        var generator = SplitMix64(seed: 15)
        let storage = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next() % 60) }
        return try! TilePatternDatabase(goal: goal, partition: partition, storage: storage)
    }

    /// The sum of the group tables' entries for a board, counted from scratch.
    static func plainBound(_ database: TilePatternDatabase, _ board: [UInt8]) -> Int {
        var total = 0
        for (group, tiles) in database.groups.enumerated() {
            var index = 0
            for (slot, tile) in tiles.enumerated() { index |= board.firstIndex(of: tile)! << (4 * slot) }
            total += Int(database.storage[database.offsets[group] + index])
        }
        return total
    }

    /// The board turned about its main diagonal, by coordinates: the tile at (row, column) goes
    /// to (column, row) and takes the number whose goal is its own goal turned likewise.
    static func turned(_ board: [UInt8], goal: TileGoal) -> [UInt8] {
        let goalTiles = goal.tiles(cells: 16)
        func turn(_ cell: Int) -> Int { (cell % 4) * 4 + cell / 4 }
        var result = [UInt8](repeating: 0, count: 16)
        for cell in 0..<16 {
            let goalCell = goalTiles.firstIndex(of: board[cell])!
            result[turn(cell)] = goalTiles[turn(goalCell)]
        }
        return result
    }

    /// A slide picked at random: the tile that moves, its cell, and the blank's cell it moves to.
    static func randomSlide(_ board: [UInt8], _ generator: inout SplitMix64) -> (tile: UInt8, from: Int, to: Int) {
        let blank = board.firstIndex(of: 0)!
        let moves = geometry.moves[blank]
        let from = moves[Int(generator.next() % UInt64(moves.count))].tile
        return (board[from], from, blank)
    }

    static let geometry = TileGeometry(width: 4, height: 4)

    static func shuffled(_ generator: inout SplitMix64) -> [UInt8] {
        var board = (0..<16).map(UInt8.init)
        for index in stride(from: 15, to: 0, by: -1) { board.swapAt(index, Int(generator.next() % UInt64(index + 1))) }
        return board
    }

    @Test("the bound is the larger of the tables' sums for the board and for the board turned about its diagonal",
          arguments: [TileGoal.blankFirst, .blankLast], [TilePatternDatabase.Partition.sixSixThree, .fiveFiveFive])
    func turnedLookup(goal: TileGoal, partition: TilePatternDatabase.Partition) {
        let database = Self.noise(partition, goal: goal)
        var generator = SplitMix64(seed: 3)
        var sawTurnedLarger = false
        database.storage.withUnsafeBufferPointer { tables in
            var heuristic = PatternDatabaseHeuristic(database: database, tables: tables.baseAddress!)
            for _ in 0..<200 {
                let board = Self.shuffled(&generator)
                let own = Self.plainBound(database, board)
                let turned = Self.plainBound(database, Self.turned(board, goal: goal))
                sawTurnedLarger = sawTurnedLarger || turned > own
                let bound = board.withUnsafeBufferPointer { heuristic.reset($0.baseAddress!) }
                #expect(bound == max(own, turned), "\(board)")
            }
        }
        #expect(sawTurnedLarger, "the turned lookup decided no bound")
    }

    @Test("along a walk of slides the bound equals a count from scratch, and an undo puts back the bound before the slide",
          arguments: [TileGoal.blankFirst, .blankLast])
    func slidesAndUndos(goal: TileGoal) {
        let database = Self.noise(.sixSixThree, goal: goal)
        var generator = SplitMix64(seed: 8)
        database.storage.withUnsafeBufferPointer { tables in
            var heuristic = PatternDatabaseHeuristic(database: database, tables: tables.baseAddress!)
            var fresh = heuristic
            var board = Self.shuffled(&generator)
            _ = board.withUnsafeBufferPointer { heuristic.reset($0.baseAddress!) }
            for step in 0..<500 {
                let (tile, from, blank) = Self.randomSlide(board, &generator)
                let saved = heuristic.saved
                let before = board
                board.swapAt(blank, from)
                let bound = board.withUnsafeBufferPointer { heuristic.moved(Int(tile), from: from, to: blank, $0.baseAddress!) }
                let counted = board.withUnsafeBufferPointer { fresh.reset($0.baseAddress!) }
                #expect(bound == counted, "step \(step)")
                if step % 3 == 0 {
                    // Taken back: the bound is the one before the slide, and later slides go on from it.
                    board = before
                    board.withUnsafeBufferPointer { heuristic.undo(Int(tile), from: from, to: blank, $0.baseAddress!, saved: saved) }
                    let undone = board.withUnsafeBufferPointer { fresh.reset($0.baseAddress!) }
                    #expect(max(heuristic.state.total, heuristic.state.turnedTotal) == undone, "undo at step \(step)")
                }
            }
        }
    }
}
