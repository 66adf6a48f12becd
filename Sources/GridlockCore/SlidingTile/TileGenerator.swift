// New tile boards, seeded and reproducible:
//   scramble   k random slides from the goal, never undoing the previous one (as the seeds'
//              shuffles do); the board is at most k moves from the goal, often fewer
//   random     a uniformly random arrangement that can reach the goal: a random permutation,
//              and if its parity is wrong, the first two tiles swapped (a bijection between
//              the two halves, so the result is uniform over the solvable half)

public struct TileGenerator: Sendable {
    public let width: Int
    public let height: Int
    public let goal: TileGoal

    public init(width: Int, height: Int, goal: TileGoal = .blankLast) {
        self.width = width
        self.height = height
        self.goal = goal
    }

    public func scramble(moves: Int, using random: inout SplitMix64) -> TilePuzzle {
        let geometry = TileGeometry(width: width, height: height)
        var tiles = goal.tiles(cells: width * height)
        var blank = tiles.firstIndex(of: 0)!
        var previous = -1
        for _ in 0..<moves {
            let choices = geometry.moves[blank].filter { $0.tile != previous }
            let move = choices[random.below(choices.count)]
            tiles.swapAt(blank, move.tile)
            previous = blank
            blank = move.tile
        }
        return try! TilePuzzle(width: width, height: height, tiles: tiles, goal: goal)
    }

    public func randomSolvable(using random: inout SplitMix64) -> TilePuzzle {
        var tiles = random.shuffled(goal.tiles(cells: width * height))
        let candidate = try! TilePuzzle(width: width, height: height, tiles: tiles, goal: goal)
        if candidate.unsolvableReason != nil {
            let numbered = tiles.indices.filter { tiles[$0] != 0 }
            tiles.swapAt(numbered[0], numbered[1])
        }
        return try! TilePuzzle(width: width, height: height, tiles: tiles, goal: goal)
    }
}
