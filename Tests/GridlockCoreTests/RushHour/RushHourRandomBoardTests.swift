// Seeded random boards: the three solvers must agree with each other, and every solution must
// replay. Boards of other sizes and exits exercise what the database files never do.

import GridlockCore
import Testing

@Suite("Rush Hour solvers agree on random boards")
struct RushHourRandomBoardTests {
    @Test("bfs, bidirectional and reference agree on 300 random 6x6 boards (seed 7)")
    func sixBySix() throws {
        var generator = RandomBoards(seed: 7)
        try compareSolvers(on: generator.boards(count: 300, width: 6, height: 6))
    }

    @Test("they agree on random boards of other sizes, with the exit on either side of any row")
    func otherShapes() throws {
        var generator = RandomBoards(seed: 11)
        var boards: [RushHourPuzzle] = []
        for (width, height) in [(4, 4), (5, 7), (7, 5), (8, 8), (3, 6)] {
            boards += generator.boards(count: 40, width: width, height: height)
        }
        try compareSolvers(on: boards)
    }

    @Test("bfs's skipped slides change no count: every finished level as the reference counts it")
    func skipsChangeNoCount() throws {
        var generator = RandomBoards(seed: 23)
        var compared = 0
        for (width, height) in [(6, 6), (5, 7), (8, 8)] {
            for puzzle in generator.boards(count: 30, width: width, height: height) {
                let options = SolveOptions(maxStates: 20_000)
                let reference = RushHourReferenceSolver().solve(puzzle, options: options)
                guard reference.status != .cutoff else { continue }
                let bfs = RushHourBFSSolver().solve(puzzle, options: options)
                compared += Self.expectSameFinishedLevels(bfs, reference, puzzle) > 2 ? 1 : 0
            }
        }
        #expect(compared > 15)
    }

    /// bfs skips slides it can prove lead to stored states (the entering block's, and those that
    /// commute with it). A level the search finishes has counts independent of the order of
    /// expansion, so bfs must count exactly what the reference examines and enqueues in each;
    /// only the level where the goal turns up is cut short at an order-dependent point.
    /// Returns how many levels were compared.
    @discardableResult
    static func expectSameFinishedLevels(_ bfs: SolveResult, _ reference: SolveResult, _ puzzle: RushHourPuzzle) -> Int {
        let ours = bfs.statistics
        let theirs = reference.statistics
        #expect(ours.enqueuedPerLevel.count == theirs.enqueuedPerLevel.count, "\(puzzle.gridText())")
        let finished = reference.status == .unsolvable ? theirs.enqueuedPerLevel.count : theirs.enqueuedPerLevel.count - 1
        #expect(ours.enqueuedPerLevel.prefix(finished) == theirs.enqueuedPerLevel.prefix(finished), "\(puzzle.gridText())")
        #expect(ours.examinedPerLevel.prefix(finished) == theirs.examinedPerLevel.prefix(finished), "\(puzzle.gridText())")
        return finished
    }

    private func compareSolvers(on boards: [RushHourPuzzle]) throws {
        var solved = 0
        for puzzle in boards {
            let options = SolveOptions(maxStates: 200_000)
            let bfs = RushHourBFSSolver().solve(puzzle, options: options)
            guard bfs.status != .cutoff else { continue }
            let both = RushHourBidirectionalSolver().solve(puzzle, options: SolveOptions(maxStates: 2_000_000))
            let reference = RushHourReferenceSolver().solve(puzzle, options: options)
            #expect(reference.status == bfs.status, "\(puzzle.gridText())")
            #expect(reference.moves == bfs.moves, "\(puzzle.gridText())")
            if both.status != .cutoff {
                #expect(both.status == bfs.status, "\(puzzle.gridText())")
                #expect(both.moves == bfs.moves, "\(puzzle.gridText())")
            }
            for result in [bfs, both, reference] where result.status == .solved {
                #expect(throws: Never.self) { try RushHourSolutionValidator.validate(result.solution, for: puzzle) }
            }
            if bfs.status == .unsolvable {
                #expect(bfs.cluster == reference.cluster)
            } else {
                solved += 1
            }
        }
        // The sweep must exercise real solves, not only unsolvable or trivial boards.
        #expect(solved > boards.count / 4)
    }
}

/// A seeded generator of legal boards: the prisoner on the exit row, then blocks and walls
/// dropped at random where they fit. SplitMix64, so a seed gives the same boards everywhere.
struct RandomBoards {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func boards(count: Int, width: Int, height: Int) -> [RushHourPuzzle] {
        var boards: [RushHourPuzzle] = []
        while boards.count < count {
            if let board = board(width: width, height: height) { boards.append(board) }
        }
        return boards
    }

    mutating func board(width: Int, height: Int) -> RushHourPuzzle? {
        let exit = RushHourExit(side: below(2) == 0 ? .left : .right, row: below(height))
        var blocks = [RushHourBlock(name: "A", orientation: .horizontal, length: 2, row: exit.row, column: below(width - 1))]
        var occupied = Set(blocks[0].cells)
        let names = Array("BCDEFGHIJKLMNOPQR")
        for name in names.prefix(below(min(names.count, width * height / 3))) {
            for _ in 0..<20 {
                let vertical = below(2) == 0
                let length = below(4) == 0 ? 3 : 2
                let block = RushHourBlock(
                    name: name, orientation: vertical ? .vertical : .horizontal, length: length,
                    row: below(height - (vertical ? length - 1 : 0)), column: below(width - (vertical ? 0 : length - 1)))
                if occupied.isDisjoint(with: block.cells) {
                    blocks.append(block)
                    occupied.formUnion(block.cells)
                    break
                }
            }
        }
        for _ in 0..<below(3) {
            let wall = RushHourBlock(name: "x", orientation: .fixed, length: 1, row: below(height), column: below(width))
            if occupied.isDisjoint(with: wall.cells) {
                blocks.append(wall)
                occupied.formUnion(wall.cells)
            }
        }
        return try? RushHourPuzzle.validated(width: width, height: height, exit: exit, blocks: blocks)
    }
}
