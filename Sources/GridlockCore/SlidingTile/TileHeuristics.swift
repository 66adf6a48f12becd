// Lower bounds on the moves left, each kept up to date move by move so IDA* pays a few table
// reads per node instead of a full recount.
//
//   manhattan         the sum over tiles of the grid distance to their goal cells
//   linear conflict   plus 2 for every tile that must leave its goal row or column to let
//                     another pass: per line, the tiles already in their goal line minus the
//                     longest run of them in goal order (Hansson, Mayer and Yung, 1992). A
//                     sideways slide keeps every row's order, so only the two columns it
//                     touches are recounted; an up or down slide, only the two rows
//   pattern database  TilePatternDatabase.swift
//
// `moved` is called after each slide. A slide is undone by `undo`, which by default is `moved`
// with the reverse slide; a heuristic whose update costs table reads (the pattern databases)
// keeps its state small enough to save before the slide and put back after, instead.

protocol TileHeuristic {
    /// What `undo` puts back: nothing for a heuristic that the reverse slide restores.
    associatedtype Saved = Void
    /// The bound for the whole board, resetting any state.
    mutating func reset(_ tiles: UnsafePointer<UInt8>) -> Int
    /// The bound after `tile` slid from `from` to `to` (`tiles` already shows the slide).
    mutating func moved(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>) -> Int
    /// The state before a slide, for its `undo`.
    var saved: Saved { get }
    /// Takes back the slide of `tile` from `from` to `to` (`tiles` already shows it taken back),
    /// given the state saved before it.
    mutating func undo(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>, saved: Saved)
}

extension TileHeuristic where Saved == Void {
    var saved: Void { () }

    @inline(__always)
    mutating func undo(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>, saved: Void) {
        _ = moved(tile, from: to, to: from, tiles)
    }
}

/// Distances from every cell to every tile's goal cell.
struct TileDistances {
    let width: Int
    let cells: Int
    /// `distance[tile * cells + cell]`; 0 for the blank.
    let distance: [Int]
    /// Each tile's goal cell.
    let goalCell: [Int]

    init(width: Int, goal: [UInt8]) {
        self.width = width
        cells = goal.count
        var goalCell = [Int](repeating: 0, count: goal.count)
        for (cell, tile) in goal.enumerated() { goalCell[Int(tile)] = cell }
        self.goalCell = goalCell
        var distance = [Int](repeating: 0, count: goal.count * goal.count)
        for tile in 1..<goal.count {
            for cell in 0..<goal.count {
                let target = goalCell[tile]
                distance[tile * goal.count + cell] = abs(cell / width - target / width) + abs(cell % width - target % width)
            }
        }
        self.distance = distance
    }
}

struct ManhattanHeuristic: TileHeuristic {
    let distances: TileDistances
    var total = 0

    mutating func reset(_ tiles: UnsafePointer<UInt8>) -> Int {
        total = 0
        for cell in 0..<distances.cells { total += distances.distance[Int(tiles[cell]) * distances.cells + cell] }
        return total
    }

    @inline(__always)
    mutating func moved(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>) -> Int {
        total += distances.distance[tile * distances.cells + to] - distances.distance[tile * distances.cells + from]
        return total
    }
}

struct LinearConflictHeuristic: TileHeuristic {
    var manhattan: ManhattanHeuristic
    let width: Int
    let height: Int
    /// Conflict moves per row, then per column.
    var lineConflicts: [Int]
    var conflicts = 0

    init(distances: TileDistances, height: Int) {
        manhattan = ManhattanHeuristic(distances: distances)
        width = distances.width
        self.height = height
        lineConflicts = [Int](repeating: 0, count: distances.width + height)
    }

    mutating func reset(_ tiles: UnsafePointer<UInt8>) -> Int {
        conflicts = 0
        for row in 0..<height {
            lineConflicts[row] = rowConflicts(row, tiles)
            conflicts += lineConflicts[row]
        }
        for column in 0..<width {
            lineConflicts[height + column] = columnConflicts(column, tiles)
            conflicts += lineConflicts[height + column]
        }
        return manhattan.reset(tiles) + conflicts
    }

    mutating func moved(_ tile: Int, from: Int, to: Int, _ tiles: UnsafePointer<UInt8>) -> Int {
        let distance = manhattan.moved(tile, from: from, to: to, tiles)
        if from / width == to / width {
            recount(line: height + from % width, columnConflicts(from % width, tiles))
            recount(line: height + to % width, columnConflicts(to % width, tiles))
        } else {
            recount(line: from / width, rowConflicts(from / width, tiles))
            recount(line: to / width, rowConflicts(to / width, tiles))
        }
        return distance + conflicts
    }

    private mutating func recount(line: Int, _ value: Int) {
        conflicts += value - lineConflicts[line]
        lineConflicts[line] = value
    }

    private func rowConflicts(_ row: Int, _ tiles: UnsafePointer<UInt8>) -> Int {
        lineConflicts(first: row * width, step: 1, count: width, tiles) { goal in
            goal / width == row ? goal % width : nil
        }
    }

    private func columnConflicts(_ column: Int, _ tiles: UnsafePointer<UInt8>) -> Int {
        lineConflicts(first: column, step: width, count: height, tiles) { goal in
            goal % width == column ? goal / width : nil
        }
    }

    /// 2 x (the tiles of the line whose goal is in it, less the longest run in goal order).
    /// `place` gives a goal cell's position along this line, or nil when it is elsewhere.
    @inline(__always)
    private func lineConflicts(
        first: Int, step: Int, count cells: Int, _ tiles: UnsafePointer<UInt8>, place: (Int) -> Int?
    ) -> Int {
        var order: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &order) { raw in
            let goals = raw.bindMemory(to: Int.self)
            for index in 0..<cells {
                let tile = Int(tiles[first + index * step])
                guard tile != 0, let position = place(manhattan.distances.goalCell[tile]) else { continue }
                goals[count] = position
                count += 1
            }
            count = 2 * (count - Self.longestIncreasingRun(goals, count))
        }
        return count
    }

    /// The longest strictly increasing subsequence of the first `count` values (at most 8).
    static func longestIncreasingRun(_ values: UnsafeMutableBufferPointer<Int>, _ count: Int) -> Int {
        guard count > 1 else { return count }
        var lengths: (Int, Int, Int, Int, Int, Int, Int, Int) = (1, 1, 1, 1, 1, 1, 1, 1)
        return withUnsafeMutableBytes(of: &lengths) { raw in
            let length = raw.bindMemory(to: Int.self)
            var best = 1
            for index in 1..<count {
                for earlier in 0..<index where values[earlier] < values[index] {
                    length[index] = max(length[index], length[earlier] + 1)
                }
                best = max(best, length[index])
            }
            return best
        }
    }
}
