// New Rush Hour puzzles of a chosen difficulty, as Fogleman built his database: a random legal
// layout, its whole cluster explored, and the cluster's hardest state (the farthest from any
// goal) kept when its optimal length is the target.
//
//   layout   the prisoner A on the exit row (not yet out), `walls` fixed blocks on free cells,
//            then a random number of tries (up to 60) at placing a block of random axis,
//            length (2, or 3 one time in three) and cell, each kept when it overlaps nothing;
//            no horizontal block shares the exit row (it would wall the prisoner in). Dense
//            layouts make small clusters, where hard puzzles live.
//
//   climb    random layouts rarely reach 30 moves (20 already took ~900 tries), so the search
//            climbs: from the best state so far, change the layout (RushHourGenerator+Changes)
//            and keep the change when the hardest length gets no farther from the target;
//            after 300 changes without progress, start from a new layout.
//
//   budget   a change may not grow the cluster past twice the current one (at least 2,000
//            states, at most 20,000): the 30-move clusters of Fogleman's database have a
//            median of 4,278 states and a 90th percentile of 15,560, while changes that open
//            the board up make clusters of hundreds of thousands of easy states, and exploring
//            those was half of all the work.
//
// Each puzzle comes from its own generator, seeded by (seed, index), so the output does not
// depend on how many threads share the work.

public struct RushHourGenerator: Sendable {
    public var width = 6
    public var height = 6
    public var walls = 0
    public var targetMoves: Int
    /// Accept any hardest length at or above the target instead of exactly it.
    public var atLeast = false
    /// Clusters bigger than this are never explored whole.
    public var clusterLimit = 20_000
    /// Changes in a row without getting closer to the target before starting again.
    public var staleLimit = 300

    public init(targetMoves: Int) {
        self.targetMoves = targetMoves
    }

    public struct Found: Sendable {
        public var puzzle: RushHourPuzzle
        public var moves: Int
        public var cluster: Int
        public var attempts: Int
    }

    /// The index-th puzzle of the seed's sequence, or nil after `maxAttempts` layouts or once
    /// `isCancelled` (polled at each layout) says so.
    public func puzzle(
        seed: UInt64, index: Int, maxAttempts: Int = 1_000_000, isCancelled: () -> Bool = { false }
    ) -> Found? {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        var attempts = 0
        while attempts < maxAttempts, !isCancelled() {
            guard let layout = randomLayout(using: &random) else { continue }
            attempts += 1
            guard var best = hardest(of: layout, limit: clusterLimit) else { continue }
            var stale = 0
            while stale < staleLimit, attempts < maxAttempts, !isCancelled() {
                if meets(best.moves) {
                    return Found(puzzle: best.puzzle, moves: best.moves, cluster: best.cluster, attempts: attempts)
                }
                stale += 1
                guard let changed = changed(best.puzzle, using: &random) else { continue }
                attempts += 1
                let budget = min(clusterLimit, max(2_000, 2 * best.cluster))
                guard let candidate = hardest(of: changed, limit: budget) else { continue }
                if gap(candidate.moves) <= gap(best.moves) {
                    if gap(candidate.moves) < gap(best.moves) { stale = 0 }
                    best = candidate
                }
            }
        }
        return nil
    }

    func meets(_ moves: Int) -> Bool { atLeast ? moves >= targetMoves : moves == targetMoves }
    func gap(_ moves: Int) -> Int { atLeast ? max(0, targetMoves - moves) : abs(targetMoves - moves) }

    var exit: RushHourExit { RushHourExit(side: .right, row: (height - 1) / 2) }

    /// Whether the block lies on the board and on free cells.
    func fits(_ block: RushHourBlock, _ occupied: Set<BoardCell>) -> Bool {
        block.cells.allSatisfy { $0.row < height && $0.column < width && !occupied.contains($0) }
    }

    func randomLayout(using random: inout SplitMix64) -> RushHourPuzzle? {
        var occupied = Set<BoardCell>()
        var blocks: [RushHourBlock] = []
        func place(_ block: RushHourBlock) -> Bool {
            guard fits(block, occupied) else { return false }
            occupied.formUnion(block.cells)
            blocks.append(block)
            return true
        }
        _ = place(RushHourBlock(name: "A", orientation: .horizontal, length: 2, row: exit.row, column: random.below(width - 2)))
        for _ in 0..<walls {
            _ = place(RushHourBlock(name: "x", orientation: .fixed, length: 1, row: random.below(height), column: random.below(width)))
        }
        var name = Character("B")
        for _ in 0..<(20 + random.below(41)) {
            guard name <= "Z" else { break }
            let vertical = random.coinFlip()
            let length = random.below(3) == 0 ? 3 : 2
            let row = random.below(height), column = random.below(width)
            if !vertical, row == exit.row { continue }
            if place(RushHourBlock(name: name, orientation: vertical ? .vertical : .horizontal, length: length, row: row, column: column)) {
                name = Character(UnicodeScalar(name.asciiValue! + 1))
            }
        }
        return try? RushHourPuzzle.validated(width: width, height: height, exit: exit, blocks: blocks)
    }

    /// The hardest state of the layout's cluster, its length and the cluster's size; nil for
    /// clusters with no goal or more than `limit` states. Two breadth-first passes: from the
    /// layout, for the cluster's goals; then from all of them at once, whose last level holds
    /// the states farthest from any goal.
    func hardest(of layout: RushHourPuzzle, limit: Int) -> (puzzle: RushHourPuzzle, moves: Int, cluster: Int)? {
        let geometry = RushHourGeometry(layout)
        guard let cluster = geometry.levels(from: [geometry.startKey], limit: limit) else { return nil }
        let goals = cluster.entries.lazy.map { $0 & StateTable.keyMask }.filter(geometry.isGoal)
        guard !goals.isEmpty, let fromGoals = geometry.levels(from: Array(goals), limit: limit) else { return nil }
        let hardestKey = fromGoals.entries.last! & StateTable.keyMask
        let puzzle = layout.with(blocks: geometry.blocks(of: layout, at: hardestKey))
        return (puzzle, fromGoals.levelStarts.count - 1, cluster.entries.count)
    }
}
