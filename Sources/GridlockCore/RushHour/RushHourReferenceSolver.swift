// `reference`: the Unblocker guide's Solver as the guide writes it, kept as the baseline that
// benchmarks compare against and as a second oracle in tests.
//
//   Board = Set<Block>                     a board is the set of its blocks at their positions
//   lookupMoveForBoard: [Board: Move]      how each board was first reached (the visited set)
//   q: Queue<(board, level)>               boards waiting to be expanded
//
// Deliberately unoptimised: a board is a Set, every successor is a copied Set hashed whole.
// The only departures from the guide: a limit and a cancellation poll, and the goal test on the
// starting board (the guide never tests it, so an already-solved board would search forever
// for a goal it would never generate again).

public struct RushHourReferenceSolver: PuzzleSolver {
    public var name: String { "reference" }

    public init() {}

    /// The guide's `Block`: identity plus position; equality and hash on both.
    struct Block: Hashable {
        let id: Int
        let length: Int
        let isHorizontal: Bool
        let isPrisoner: Bool
        let isFixed: Bool
        var col: Int
        var row: Int

        func hash(into hasher: inout Hasher) {
            hasher.combine(id << 10 | col << 5 | row)
        }
    }

    typealias Board = Set<Block>

    /// The guide's `Move`: the block that moved and where it was before.
    struct Move {
        let blockID: Int
        let col: Int
        let row: Int
    }

    public func solve(_ puzzle: RushHourPuzzle, options: SolveOptions) -> SolveResult {
        let initialBoard = Board(puzzle.blocks.enumerated().map { id, block in
            Block(
                id: id, length: block.length, isHorizontal: block.orientation != .vertical,
                isPrisoner: id == puzzle.prisonerIndex, isFixed: block.isFixed,
                col: block.column, row: block.row)
        })
        var search = Search(puzzle: puzzle, options: options)
        return search.run(from: initialBoard)
    }

    /// One solve's mutable state, the guide's Solver instance variables.
    private struct Search {
        let puzzle: RushHourPuzzle
        let options: SolveOptions
        let winColumn: Int
        var lookupMoveForBoard: [Board: Move] = [:]
        var q: [(board: Board, level: Int)] = []
        var head = 0
        var statistics = SearchStatistics()
        var winningBoard: Board?
        var cutoff: CutoffReason?

        static let cancellationInterval = 16

        init(puzzle: RushHourPuzzle, options: SolveOptions) {
            self.puzzle = puzzle
            self.options = options
            winColumn = puzzle.goalColumn
        }

        mutating func run(from initialBoard: Board) -> SolveResult {
            statistics.countExamined(atLevel: 0)
            statistics.countEnqueued(atLevel: 0)
            lookupMoveForBoard[initialBoard] = Move(blockID: -1, col: 0, row: 0)  // -1: sentinel
            q.append((initialBoard, 0))
            statistics.maxQueue = 1
            if initialBoard.contains(where: { $0.isPrisoner && $0.col == winColumn }) {
                winningBoard = initialBoard
            }
            var currentLevel = 0
            // --full: the search goes on past the goal until the cluster is exhausted (the
            // guide stops at it), so that the cluster can be counted and checked as bfs's is.
            let stopsAtGoal = !options.exploreWholeCluster
            var allDone = winningBoard != nil && stopsAtGoal
            while head < q.count, !allDone {
                // Every 16 boards, not every 1,024: an expansion here copies and hashes whole
                // Sets (tens of µs), and 1,024 of them overshot a 50 ms CPU limit by 36 ms.
                if head % Self.cancellationInterval == 0 {
                    if options.isCancelled() { cutoff = options.stopReason; break }
                    if lookupMoveForBoard.count > options.maxStates { cutoff = .maxStates; break }
                }
                // At every expansion (this solver is slow enough for it, and its boards big):
                // what it holds now, the figure it reports (MemoryBudget.swift).
                if options.overBudget(bytesHeld(afterAdding: 0)) { cutoff = .memoryBudget; break }
                let (currentBoard, level) = q[head]
                head += 1
                currentLevel = level
                allDone = expand(currentBoard, level: level) && stopsAtGoal
            }
            statistics.levelReached = statistics.enqueuedPerLevel.count - 1
            statistics.finalQueue = q.count - head
            statistics.statesStored = lookupMoveForBoard.count
            statistics.memoryBytes = bytesHeld(afterAdding: 0)
            if let winningBoard {
                let cluster = options.exploreWholeCluster && cutoff == nil ? lookupMoveForBoard.count : nil
                return SolveResult(status: .solved, solution: moves(to: winningBoard), cluster: cluster, statistics: statistics)
            }
            if let cutoff {
                return SolveResult(status: .cutoff, cutoffReason: cutoff, statistics: statistics)
            }
            statistics.levelReached = currentLevel
            return SolveResult(status: .unsolvable, cluster: lookupMoveForBoard.count, statistics: statistics)
        }

        /// The guide's inner loop: every slide of every block, one tile at a time.
        mutating func expand(_ currentBoard: Board, level currentLevel: Int) -> Bool {
            var isOccupied = [[Bool]](repeating: [Bool](repeating: false, count: puzzle.height), count: puzzle.width)
            for block in currentBoard {
                let width = block.isHorizontal ? block.length : 1
                let height = block.isHorizontal ? 1 : block.length
                for col in block.col..<block.col + width {
                    for row in block.row..<block.row + height { isOccupied[col][row] = true }
                }
            }
            for block in currentBoard where !block.isFixed {
                let length = block.length
                if block.isHorizontal {
                    var col = block.col - 1
                    while col >= 0, !isOccupied[col][block.row] {
                        if registerBoard(currentBoard, block: block, col: col, row: block.row, level: currentLevel + 1) { return true }
                        col -= 1
                    }
                    col = block.col + length
                    while col < puzzle.width, !isOccupied[col][block.row] {
                        if registerBoard(currentBoard, block: block, col: col - length + 1, row: block.row, level: currentLevel + 1) { return true }
                        col += 1
                    }
                } else {
                    var row = block.row - 1
                    while row >= 0, !isOccupied[block.col][row] {
                        if registerBoard(currentBoard, block: block, col: block.col, row: row, level: currentLevel + 1) { return true }
                        row -= 1
                    }
                    row = block.row + length
                    while row < puzzle.height, !isOccupied[block.col][row] {
                        if registerBoard(currentBoard, block: block, col: block.col, row: row - length + 1, level: currentLevel + 1) { return true }
                        row += 1
                    }
                }
            }
            return false
        }

        /// The guide's `registerBoard`: returns true when the new board is a winner.
        mutating func registerBoard(_ board: Board, block: Block, col: Int, row: Int, level: Int) -> Bool {
            var newBoard = board
            var newBlock = newBoard.remove(block)!
            newBlock.col = col
            newBlock.row = row
            newBoard.insert(newBlock)
            statistics.countExamined(atLevel: level)
            if lookupMoveForBoard[newBoard] != nil { return false }
            statistics.countEnqueued(atLevel: level)
            lookupMoveForBoard[newBoard] = Move(blockID: block.id, col: block.col, row: block.row)
            q.append((newBoard, level))
            statistics.maxQueue = max(statistics.maxQueue, q.count - head)
            if newBlock.isPrisoner, newBlock.col == winColumn, winningBoard == nil {
                winningBoard = newBoard
                // --full: this board's other slides still count towards the cluster.
                return !options.exploreWholeCluster
            }
            return false
        }

        /// The guide's `updateSolution`: walk the move dictionary back from the winning board.
        func moves(to winningBoard: Board) -> [SolutionMove] {
            var board = winningBoard
            var moves: [SolutionMove] = []
            while let move = lookupMoveForBoard[board], move.blockID != -1 {
                let block = board.first { $0.id == move.blockID }!
                var previous = block
                previous.col = move.col
                previous.row = move.row
                board.remove(block)
                board.insert(previous)
                moves.append(RushHourMoveText.move(
                    from: publicBlock(previous), to: publicBlock(block)))
            }
            return moves.reversed()
        }

        func publicBlock(_ block: Block) -> RushHourBlock {
            var result = puzzle.blocks[block.id]
            result.row = block.row
            result.column = block.col
            return result
        }

        /// The table and the queue once `adding` more boards are stored: each board a heap
        /// array of its blocks, held once as the table's key and once in the queue.
        func bytesHeld(afterAdding adding: Int) -> Int {
            let boardBytes = MemoryLayout<Block>.stride * puzzle.blocks.count + 32
            let entry = MemoryLayout<Board>.stride + MemoryLayout<Move>.stride
            return lookupMoveForBoard.bytesHeld(afterAdding: adding, bytesPerEntry: entry) + q.bytesHeld(afterAdding: adding)
                + (lookupMoveForBoard.count + adding) * boardBytes
        }
    }
}
