// New tilt puzzles whose best solution has a chosen length: random boards (walls on about one
// cell in eight, then `blocks` blocks on free cells, colours dealt in turn so each colour has
// at least two), each analysed whole and kept when its optimal length is the target. The
// analysis comes with it: the share of dead-end states is how the seed's author graded them.

public struct TiltGenerator: Sendable {
    public var width = 6
    public var height = 6
    public var colours = 3
    public var blocks = 8
    public var targetMoves: Int

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

    public func puzzle(seed: UInt64, index: Int, maxAttempts: Int = 200_000) -> Found? {
        var random = SplitMix64(seed: seed &* 0xD1B5_4A32_D192_ED03 &+ UInt64(index))
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for attempt in 1...maxAttempts {
            var cells = [Character](repeating: ".", count: width * height)
            for cell in cells.indices where random.below(8) == 0 { cells[cell] = "#" }
            var free = random.shuffled(cells.indices.filter { cells[$0] == "." })
            guard free.count >= blocks else { continue }
            for block in 0..<blocks { cells[free.removeLast()] = letters[block % colours] }
            let rows = stride(from: 0, to: cells.count, by: width).map { String(cells[$0..<($0 + width)]) }
            guard let puzzle = try? TiltPuzzle.parse(rows.joined(separator: "/")), !puzzle.isSolved(puzzle.start),
                  let analysis = try? StateSpaceAnalysis.analyze(ParsedPuzzle(puzzle), maxStates: 200_000).get(),
                  analysis.bestMoves == targetMoves
            else { continue }
            return Found(puzzle: puzzle, analysis: analysis, attempts: attempt)
        }
        return nil
    }
}
