// New tilt puzzles whose best solution has a chosen length. A random board (walls on about one
// cell in eight, then `blocks` blocks on free cells, colours dealt in turn so each colour has
// at least two) is scored by a breadth-first solve (cheaper than the whole analysis), then
// climbed: move one block or one wall to a free cell, keep the change when the best length gets
// no farther from the target, restart after 200 changes without progress. Pure random boards
// found no 12-move puzzle in two minutes. A hit is analysed whole: the share of dead-end states
// is how the seed's author graded his puzzles.

public struct TiltGenerator: Sendable {
    public var width = 6
    public var height = 6
    public var colours = 3
    public var blocks = 8
    public var targetMoves: Int
    /// The budget of each search a try runs (its optimal length, the found puzzle's analysis):
    /// a board whose search would pass it is skipped like one too big to search.
    public var memoryBudgetBytes = SolveOptions.defaultMemoryBudgetBytes

    public init(targetMoves: Int) {
        self.targetMoves = targetMoves
    }

    public struct Found: Sendable {
        public var puzzle: TiltPuzzle
        public var analysis: StateSpaceAnalysis
        public var attempts: Int

        /// Dead-end states as a share of everything reachable.
        public var deadEndShare: Double { Double(analysis.deadEnds) / Double(max(1, analysis.reachable)) }
    }

    /// The index-th puzzle of the seed's sequence, or nil after `maxAttempts` boards or once
    /// `isCancelled` (polled at each board) says so.
    public func puzzle(seed: UInt64, index: Int, maxAttempts: Int = 200_000, isCancelled: () -> Bool = { false }) -> Found? {
        var random = SplitMix64(seed: seed &* 0xD1B5_4A32_D192_ED03 &+ UInt64(index))
        var attempts = 0
        while attempts < maxAttempts, !isCancelled() {
            attempts += 1
            guard var cells = randomCells(using: &random), var moves = bestMoves(cells) else { continue }
            var stale = 0
            while stale < 200, attempts < maxAttempts, !isCancelled() {
                if moves == targetMoves, let found = found(cells, attempts: attempts) { return found }
                attempts += 1
                stale += 1
                let changed = mutated(cells, using: &random)
                guard let changedMoves = bestMoves(changed) else { continue }
                if abs(changedMoves - targetMoves) <= abs(moves - targetMoves) {
                    if abs(changedMoves - targetMoves) < abs(moves - targetMoves) { stale = 0 }
                    cells = changed
                    moves = changedMoves
                }
            }
        }
        return nil
    }

    func randomCells(using random: inout SplitMix64) -> [Character]? {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var cells = [Character](repeating: ".", count: width * height)
        for cell in cells.indices where random.below(8) == 0 { cells[cell] = "#" }
        var free = random.shuffled(cells.indices.filter { cells[$0] == "." })
        guard free.count >= blocks else { return nil }
        for block in 0..<blocks { cells[free.removeLast()] = letters[block % colours] }
        return cells
    }

    /// One block or one wall moved to a free cell.
    func mutated(_ cells: [Character], using random: inout SplitMix64) -> [Character] {
        var cells = cells
        let free = cells.indices.filter { cells[$0] == "." }
        let movable = cells.indices.filter { cells[$0] != "." }
        guard !free.isEmpty, !movable.isEmpty else { return cells }
        cells.swapAt(movable[random.below(movable.count)], free[random.below(free.count)])
        return cells
    }

    func puzzle(_ cells: [Character]) -> TiltPuzzle? {
        let rows = stride(from: 0, to: cells.count, by: width).map { String(cells[$0..<($0 + width)]) }
        return try? TiltPuzzle.parse(rows.joined(separator: "/"))
    }

    /// The optimal length, or nil when unsolved already, unsolvable or too big to search.
    func bestMoves(_ cells: [Character]) -> Int? {
        guard let puzzle = puzzle(cells), !puzzle.isSolved(puzzle.start) else { return nil }
        return TiltBFSSolver().solve(puzzle, options: SolveOptions(maxStates: 300_000, memoryBudgetBytes: memoryBudgetBytes)).moves
    }

    func found(_ cells: [Character], attempts: Int) -> Found? {
        guard let puzzle = puzzle(cells),
              let analysis = try? StateSpaceAnalysis.analyze(ParsedPuzzle(puzzle), maxStates: 3_000_000, memoryBudgetBytes: memoryBudgetBytes).get()
        else { return nil }
        return Found(puzzle: puzzle, analysis: analysis, attempts: attempts)
    }
}
