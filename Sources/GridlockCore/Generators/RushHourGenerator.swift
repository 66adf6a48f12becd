// New Rush Hour puzzles of a chosen difficulty, as Fogleman built his database: a random legal
// layout, its whole cluster explored, and the cluster's hardest state (the farthest from any
// goal) kept when its optimal length is the target.
//
//   layout   the prisoner A on the exit row (not yet out), `walls` fixed blocks on free cells,
//            then a random number of tries (up to 60) at placing a block of random axis,
//            length (2, or 3 one time in three) and cell, each kept when it overlaps nothing;
//            no horizontal block shares the exit row (it would wall the prisoner in). Dense
//            layouts make small clusters, where hard puzzles live; clusters over 60,000
//            states are skipped (open boards: big and easy), which keeps each try cheap.
//
//   climb    random layouts rarely reach 30 moves (20 already took ~900 tries), so the search
//            climbs: from the best state so far, remove a block, add one, both, or move one
//            to a free place, and keep the change when the hardest length gets no farther from
//            the target; after 300 changes without progress, start from a new layout. Adding
//            the single-block move took 30-move puzzles from ~25 s to ~6 s each; making it
//            half of all changes instead of a quarter was no better (5.5 s)
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
    /// Clusters bigger than this are skipped: open boards, big and easy.
    public var clusterLimit = 60_000

    public init(targetMoves: Int) {
        self.targetMoves = targetMoves
    }

    public struct Found: Sendable {
        public var puzzle: RushHourPuzzle
        public var moves: Int
        public var cluster: Int
        public var attempts: Int
    }

    /// The index-th puzzle of the seed's sequence.
    public func puzzle(seed: UInt64, index: Int, maxAttempts: Int = 1_000_000) -> Found? {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        var attempts = 0
        while attempts < maxAttempts {
            guard let layout = randomLayout(using: &random) else { continue }
            attempts += 1
            guard var best = hardest(of: layout) else { continue }
            var stale = 0
            while stale < 300, attempts < maxAttempts {
                if meets(best.moves) {
                    return Found(puzzle: best.puzzle, moves: best.moves, cluster: best.cluster, attempts: attempts)
                }
                attempts += 1
                stale += 1
                guard let changed = mutated(best.puzzle, using: &random), let candidate = hardest(of: changed) else { continue }
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

    /// The layout with a random block removed, one added, or both.
    func mutated(_ puzzle: RushHourPuzzle, using random: inout SplitMix64) -> RushHourPuzzle? {
        var blocks = puzzle.blocks
        let change = random.below(4)
        if change == 3 {
            // Move one block (not A) to a random free place, same axis and length.
            let movable = blocks.indices.filter { blocks[$0].name != "A" && !blocks[$0].isFixed }
            guard !movable.isEmpty else { return nil }
            let index = movable[random.below(movable.count)]
            var occupied = Set(blocks.enumerated().filter { $0.offset != index }.flatMap(\.element.cells))
            var block = blocks[index]
            block.row = random.below(height)
            block.column = random.below(width)
            guard block.orientation == .vertical || block.row != exit.row,
                  fits(block, occupied) else { return nil }
            occupied.formUnion(block.cells)
            blocks[index] = block
            return try? RushHourPuzzle.validated(width: width, height: height, exit: exit, blocks: blocks)
        }
        if change != 1 {
            let removable = blocks.indices.filter { blocks[$0].name != "A" && !blocks[$0].isFixed }
            if !removable.isEmpty { blocks.remove(at: removable[random.below(removable.count)]) }
        }
        if change != 0 {
            var occupied = Set(blocks.flatMap(\.cells))
            for _ in 0..<20 {
                let vertical = random.coinFlip()
                let length = random.below(3) == 0 ? 3 : 2
                let block = RushHourBlock(
                    name: "?", orientation: vertical ? .vertical : .horizontal, length: length,
                    row: random.below(height), column: random.below(width))
                guard vertical || block.row != exit.row, fits(block, occupied) else { continue }
                occupied.formUnion(block.cells)
                blocks.append(block)
                break
            }
        }
        // Letters again in order, A kept, walls as x.
        var name = Character("B")
        for index in blocks.indices where blocks[index].name != "A" && !blocks[index].isFixed {
            guard name <= "Z" else { return nil }
            blocks[index].name = name
            name = Character(UnicodeScalar(name.asciiValue! + 1))
        }
        return try? RushHourPuzzle.validated(width: width, height: height, exit: exit, blocks: blocks)
    }

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
    /// clusters with no goal or too big to explore cheaply.
    func hardest(of layout: RushHourPuzzle) -> (puzzle: RushHourPuzzle, moves: Int, cluster: Int)? {
        let geometry = RushHourGeometry(layout)
        guard let graph = StateSpaceAnalysis.rushHourGraph(geometry, maxStates: clusterLimit) else { return nil }
        let (distance, order) = StateSpaceAnalysis.distancesToGoal(graph)
        guard let last = order.last else { return nil }
        let moves = Int(distance[Int(last)])
        let puzzle = layout.with(blocks: geometry.blocks(of: layout, at: graph.keys[Int(last)]))
        return (puzzle, moves, graph.count)
    }
}
