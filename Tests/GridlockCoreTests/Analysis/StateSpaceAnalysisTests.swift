// The analysis against known answers: Fogleman's database (each line is the hardest state of
// its cluster, with its cluster size), the 8-puzzle census, tilt boards worked out by hand, and
// solution counts against an independent path-counting breadth-first search.

@testable import GridlockCore
import Testing

@Suite("State-space analysis")
struct StateSpaceAnalysisTests {
    static func analyze(_ text: String) throws -> StateSpaceAnalysis {
        try StateSpaceAnalysis.analyze(try ParsedPuzzle.parse(text), maxStates: 10_000_000).get()
    }

    @Test("Rush Hour: reachable is the cluster and hardest the line's moves", arguments: ["fogleman_forty.txt", "fogleman_app_fixtures20.txt"])
    func rushHourClusters(file: String) throws {
        for puzzle in Fixtures.rushHour(file) where (puzzle.expectedCluster ?? .max) <= 300_000 {
            let analysis = try StateSpaceAnalysis.analyze(ParsedPuzzle(puzzle), maxStates: 1_000_000).get()
            #expect(analysis.reachable == puzzle.expectedCluster, "\(puzzle.testName)")
            #expect(analysis.hardest == puzzle.expectedMoves, "\(puzzle.testName)")
            #expect(analysis.bestMoves == puzzle.expectedMoves)
            #expect(analysis.deadEnds == 0, "Rush Hour moves can be undone")
        }
    }

    @Test("tiles: a board with more arrangements than --max-states allows is refused before exploring")
    func tileCountRefusedAtOnce() throws {
        let fifteen = try ParsedPuzzle.parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")
        guard case .failure(.overLimitKnown(let limit, let reachable)) = StateSpaceAnalysis.analyze(fifteen, maxStates: 50_000_000) else {
            Issue.record("the 15-puzzle was explored")
            return
        }
        #expect(limit == 50_000_000 && reachable == 10_461_394_944_000)
        let eight = try ParsedPuzzle.parse("1 2 3 4 5 6 7 0 8")
        guard case .failure(.overLimitKnown(_, let census)) = StateSpaceAnalysis.analyze(eight, maxStates: 181_439) else {
            Issue.record("the 8-puzzle was explored past its limit")
            return
        }
        #expect(census == 181_440)
        #expect(try StateSpaceAnalysis.analyze(eight, maxStates: 181_440).get().reachable == 181_440)
    }

    @Test("Rush Hour: an exploration whose tables would pass the memory budget stops, saying so; with room it completes")
    func rushHourBudget() throws {
        let deep = try ParsedPuzzle.parse("HBBKooHooKCCoIAALMoIDDLMEEJooNxoJGGN")
        guard case .failure(.overBudget(_, let states)) = StateSpaceAnalysis.analyze(deep, maxStates: 1_000_000, memoryBudgetBytes: 4 << 20) else {
            Issue.record("the cluster was explored past its budget")
            return
        }
        #expect(states > 1 && states < 147_355)
        #expect(try StateSpaceAnalysis.analyze(deep, maxStates: 1_000_000, memoryBudgetBytes: 256 << 20).get().reachable == 147_355)
    }

    @Test("Rush Hour: optimal sequences agree with a separate path-counting search")
    func rushHourSolutionCounts() throws {
        for puzzle in Fixtures.rushHour("fogleman_forty.txt").prefix(12) {
            let analysis = try StateSpaceAnalysis.analyze(ParsedPuzzle(puzzle), maxStates: 1_000_000).get()
            #expect(analysis.solutions == Self.countShortestPaths(puzzle), "\(puzzle.testName)")
        }
    }

    /// Shortest paths from the start to any goal, counted layer by layer with dictionaries:
    /// ways(child) += ways(parent) for every edge into the next layer, summed over the first
    /// layer that holds a goal.
    static func countShortestPaths(_ puzzle: RushHourPuzzle) -> UInt64 {
        let geometry = RushHourGeometry(puzzle)
        var ways: [UInt64: UInt64] = [geometry.startKey: 1]
        var layer = [geometry.startKey]
        var seen: Set<UInt64> = [geometry.startKey]
        while !layer.isEmpty {
            let goals = layer.filter(geometry.isGoal)
            if !goals.isEmpty { return goals.reduce(0) { $0 + ways[$1]! } }
            var next: [UInt64: UInt64] = [:]
            for key in layer {
                geometry.withTables { tables in
                    var collector = SuccessorCollector { child in
                        if !seen.contains(child) { next[child, default: 0] += ways[key]! }
                    }
                    _ = tables.forEachSuccessor(of: key, &collector)
                }
            }
            for child in next.keys { seen.insert(child) }
            ways.merge(next) { $1 }
            layer = Array(next.keys)
        }
        return 0
    }

    @Test("the 8-puzzle: 181,440 reachable, hardest 31, one goal")
    func eightPuzzleCensus() throws {
        let analysis = try Self.analyze("1 2 3 4 5 6 7 8 0")
        #expect(analysis.reachable == 181_440)
        #expect(analysis.hardest == 31)
        #expect(analysis.goalStates == 1)
        #expect(analysis.bestMoves == 0)
        #expect(analysis.goalDistanceHistogram.last == 2)
    }

    // a.# / ..b / a.b  (3x3). Working it out: the b's (column 2, rows 1-2) already touch, so
    // only the a's matter: they are in column 0, rows 0 and 2.
    //   south: a(0,0) falls to (1,0) and touches a(2,0): solved.
    //   north: a(2,0) rises to (1,0), touching a(0,0): solved.
    //   west: nothing in column 0 or the b's can move west? b(1,2) slides to (1,0)... it is a
    //   unit with b(2,2): b(2,2)'s path west meets a(2,0) at (2,1) -> the unit stops when b(2,2)
    //   is blocked: at column 1 (cells (1,1),(2,1)). So west is a move to a.# / .b. / ab.,
    //   which is not solved (the a's are apart) and from which south or north still solve.
    // So the start is 1 move from a goal, and no state is a dead end here.
    @Test("tilt: a small board's goals, best moves and sequences")
    func tiltSmall() throws {
        let analysis = try Self.analyze("a.#/..b/a.b")
        #expect(analysis.bestMoves == 1)
        #expect(analysis.solutions == 2, "south and north")
        #expect(analysis.deadEnds == 0)
    }

    // a.b / ... / b.a  with a wall-free 3x3: tilting can strand pieces? Here is a board with
    // real dead ends: a*a / ###. The a's sit left and right of a plain block on a one-row strip
    // above walls: east slides the left a against * (a * a packed: a*a stays? the right a is at
    // the edge, * is stopped by it, the left a stops at *): nothing changes east or west. It is
    // unsolvable with no move at all: one state, a dead end.
    @Test("tilt: a board that can never be solved is all dead ends")
    func tiltDeadEnds() throws {
        let analysis = try Self.analyze("a*a/###")
        #expect(analysis.reachable == 1)
        #expect(analysis.deadEnds == 1)
        #expect(analysis.bestMoves == nil)
    }

    // a.a / .*. / ...   East: the right a is at the edge, the left one slides up to it and
    // they join (solved); west likewise: 2 optimal sequences of 1 move. South: the three blocks
    // fall to the bottom row as a*a, filling it, so nothing ever moves them sideways again and
    // every later tilt keeps the * between the a's: a dead end; north gives a*a on the top row,
    // the other dead end. The solved boards and the start can still reach a goal: useful.
    @Test("tilt: dead ends are counted when a tilt strands a colour for good")
    func tiltWithDeadEnds() throws {
        let analysis = try Self.analyze("a.a/.*./...")
        #expect(analysis.bestMoves == 1)
        #expect(analysis.solutions == 2)
        #expect(analysis.deadEnds == 2)
        #expect(analysis.useful + analysis.deadEnds == analysis.reachable)
    }
}
