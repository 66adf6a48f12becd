// The tilt rules again, written as plainly as possible, to check the bitboard version and to
// replay solutions: a grid of characters, units found by flood fill, one cell per step. It
// shares nothing with TiltRules.swift but the puzzle's text.

public enum TiltReferenceRules {
    /// The rows after tilting toward `direction` (unchanged when nothing moves).
    public static func tilt(_ rows: [String], _ direction: TiltDirection) -> [String] {
        var grid = rows.map(Array.init)
        let height = grid.count, width = grid[0].count
        let (dr, dc) = switch direction {
        case .north: (-1, 0)
        case .south: (1, 0)
        case .east: (0, 1)
        case .west: (0, -1)
        }
        // Units: a plain block alone; a letter with every same letter it touches.
        var unitOf = [[Int]](repeating: [Int](repeating: -1, count: width), count: height)
        var units: [[(Int, Int)]] = []
        for r in 0..<height {
            for c in 0..<width where unitOf[r][c] < 0 && grid[r][c] != "." && grid[r][c] != "#" {
                var members = [(r, c)]
                unitOf[r][c] = units.count
                var index = 0
                while index < members.count, grid[r][c] != "*" {
                    let (mr, mc) = members[index]
                    index += 1
                    for (nr, nc) in [(mr - 1, mc), (mr + 1, mc), (mr, mc - 1), (mr, mc + 1)]
                    where nr >= 0 && nr < height && nc >= 0 && nc < width && unitOf[nr][nc] < 0 && grid[nr][nc] == grid[r][c] {
                        unitOf[nr][nc] = units.count
                        members.append((nr, nc))
                    }
                }
                units.append(members)
            }
        }
        while true {
            var moving = Set(units.indices)
            var changed = true
            while changed {
                changed = false
                for unit in moving {
                    let blocked = units[unit].contains { r, c in
                        let nr = r + dr, nc = c + dc
                        if nr < 0 || nr >= height || nc < 0 || nc >= width { return true }
                        if grid[nr][nc] == "#" { return true }
                        let other = unitOf[nr][nc]
                        return other >= 0 && other != unit && !moving.contains(other)
                    }
                    if blocked {
                        moving.remove(unit)
                        changed = true
                    }
                }
            }
            if moving.isEmpty { break }
            var next = grid.map { $0.map { $0 == "#" ? Character("#") : Character(".") } }
            var nextUnit = [[Int]](repeating: [Int](repeating: -1, count: width), count: height)
            for (unit, members) in units.enumerated() {
                let step = moving.contains(unit) ? (dr, dc) : (0, 0)
                units[unit] = members.map { ($0.0 + step.0, $0.1 + step.1) }
                for ((r, c), (nr, nc)) in zip(members, units[unit]) {
                    next[nr][nc] = grid[r][c]
                    nextUnit[nr][nc] = unit
                }
            }
            grid = next
            unitOf = nextUnit
        }
        return grid.map { String($0) }
    }

    /// Solved: each letter's blocks are one connected group.
    public static func isSolved(_ rows: [String]) -> Bool {
        let grid = rows.map(Array.init)
        var seen = Set<Character>()
        for r in grid.indices {
            for c in grid[r].indices where grid[r][c].isLetter {
                let letter = grid[r][c]
                guard seen.insert(letter).inserted else { continue }
                var group: Set<[Int]> = [[r, c]]
                var queue = [[r, c]]
                while let cell = queue.popLast() {
                    for next in [[cell[0] - 1, cell[1]], [cell[0] + 1, cell[1]], [cell[0], cell[1] - 1], [cell[0], cell[1] + 1]]
                    where grid.indices.contains(next[0]) && grid[0].indices.contains(next[1]) && grid[next[0]][next[1]] == letter
                        && !group.contains(next) {
                        group.insert(next)
                        queue.append(next)
                    }
                }
                let total = grid.joined().filter { $0 == letter }.count
                if group.count != total { return false }
            }
        }
        return true
    }
}

/// Replays a tilt solution with the reference rules: every tilt must change the board, and the
/// last board must be solved.
public enum TiltSolutionValidator {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func validate(_ moves: [SolutionMove], for puzzle: TiltPuzzle) throws(Failure) {
        var rows = puzzle.rows(puzzle.start)
        for (index, move) in moves.enumerated() {
            guard let direction = TiltDirection.allCases.first(where: { $0.name == move.text }) else {
                throw Failure(description: "move \(index + 1) '\(move.text.excerpt())' is not a direction")
            }
            let next = TiltReferenceRules.tilt(rows, direction)
            guard next != rows else { throw Failure(description: "move \(index + 1) '\(move.text)' changes nothing") }
            rows = next
        }
        guard TiltReferenceRules.isSolved(rows) else {
            throw Failure(description: "after \(moves.count) tilts some colour is still in pieces")
        }
    }
}
