// New Sudoku with exactly one solution, near a requested number of givens.
//
//   1. A random full grid: the solver completes a grid whose first row is a random
//      permutation; then digits are relabelled and rows, columns, bands and stacks shuffled
//      (every such change keeps a valid grid).
//   2. Blanks: cells are emptied in random order, each kept empty only if the solution count
//      (the bitset solver, counting to 2) stays at one, until the target is reached.
//   3. Greedy removal can stall above the target (near 25 givens, most full grids do): the
//      generator restarts from a new grid up to `attempts` times and keeps the closest puzzle.
//
// Every puzzle returned has been counted unique by the solver at the moment it was accepted.

public struct SudokuGenerator {
    public var boxSide: Int
    public var targetGivens: Int
    public var attempts: Int

    public init(boxSide: Int = 3, targetGivens: Int, attempts: Int = 20) {
        self.boxSide = boxSide
        self.targetGivens = targetGivens
        self.attempts = attempts
    }

    /// One puzzle, drawn from `random`.
    public func puzzle(using random: inout SplitMix64) -> SudokuPuzzle {
        var best: [UInt8]?
        for _ in 0..<max(1, attempts) {
            let candidate = removingGivens(from: fullGrid(using: &random), using: &random)
            if best == nil || givens(candidate) < givens(best!) { best = candidate }
            if givens(best!) <= targetGivens { break }
        }
        return try! SudokuPuzzle(cells: best!)
    }

    private func givens(_ cells: [UInt8]) -> Int { cells.count { $0 != 0 } }

    func fullGrid(using random: inout SplitMix64) -> [UInt8] {
        let geometry = SudokuGeometry.forBoxSide(boxSide)
        let side = geometry.side
        var seed = [UInt8](repeating: 0, count: geometry.cellCount)
        for (column, digit) in random.shuffled(1...UInt8(side)).enumerated() { seed[column] = digit }
        let completed = SudokuBitsetSolver().solve(try! SudokuPuzzle(cells: seed), options: SolveOptions()).solvedPosition!
        let grid = completed.utf8.map { SudokuPuzzle.digit(for: $0)! }
        let relabel = [0] + random.shuffled(1...UInt8(side))
        let rows = shuffledLines(using: &random)
        let columns = shuffledLines(using: &random)
        let transpose = random.coinFlip()
        var shuffled = grid
        for row in 0..<side {
            for column in 0..<side {
                let (from, to) = (rows[row] * side + columns[column], transpose ? column * side + row : row * side + column)
                shuffled[to] = UInt8(relabel[Int(grid[from])])
            }
        }
        return shuffled
    }

    /// A permutation of lines that keeps boxes whole: bands shuffled, lines within each band shuffled.
    private func shuffledLines(using random: inout SplitMix64) -> [Int] {
        random.shuffled(0..<boxSide).flatMap { band in
            random.shuffled(0..<boxSide).map { band * boxSide + $0 }
        }
    }

    func removingGivens(from grid: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var cells = grid
        var count = cells.count
        for cell in random.shuffled(cells.indices) where count > targetGivens {
            let digit = cells[cell]
            cells[cell] = 0
            let result = SudokuBitsetSolver().solve(try! SudokuPuzzle(cells: cells), options: SolveOptions(solutionLimit: 2))
            if result.solutionCount == 1 {
                count -= 1
            } else {
                cells[cell] = digit
            }
        }
        return cells
    }
}
