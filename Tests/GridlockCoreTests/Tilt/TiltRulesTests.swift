// The tilt rules on hand-built boards, each answer worked out by hand in the comment above it,
// then the bitboard rules against the plain reference rules on seeded random boards.

import GridlockCore
import Testing

@Suite("Tilt rules")
struct TiltRulesTests {
    static func tilt(_ text: String, _ direction: TiltDirection) throws -> String? {
        let puzzle = try TiltPuzzle.parse(text)
        return puzzle.tilted(puzzle.start, direction).map { puzzle.rows($0).joined(separator: "/") }
    }

    // A lone block slides to the edge:  a... east -> ...a
    // North, it is already at the edge: no move.
    @Test("a block slides until the edge")
    func slides() throws {
        #expect(try Self.tilt("a.../....", .east) == "...a/....")
        #expect(try Self.tilt("a.../....", .south) == "..../a...")
        #expect(try Self.tilt("a.../....", .north) == nil)
    }

    // Row 0: a . * . #  tilted east. The plain block * slides to column 3 (stopped by the wall);
    // then a slides until it meets the stopped *: column 2.  ->  . . a * #
    @Test("a block stops against a unit that has stopped, and a wall stops a unit")
    func blockedByStoppedUnit() throws {
        #expect(try Self.tilt("a.*.#", .east) == "..a*#")
    }

    // a . a b  tilted west: the first a stays at column 0 (edge); the second a slides to column 1
    // and stops against it; b slides to column 2. At rest the two a's touch: joined.
    // Then tilted east, the joined aa moves as one: b to column 3, aa to columns 1-2.
    @Test("same colours join at rest and then move as one unit")
    func joining() throws {
        let puzzle = try TiltPuzzle.parse("a.ab/....")
        let west = try #require(puzzle.tilted(puzzle.start, .west))
        #expect(puzzle.rows(west) == ["aab.", "...."])
        #expect(puzzle.isSolved(west))
        let east = try #require(puzzle.tilted(west, .east))
        #expect(puzzle.rows(east) == [".aab", "...."])
    }

    // aa. / .#.   The a's in row 0 are joined (they touch at the start). Tilted south, the left a
    // could fall to row 1, but the right a sits above the wall: the unit is blocked by one of its
    // cells and nothing moves, so south is no move at all.
    @Test("a joined unit is blocked by any one of its cells; a tilt that changes nothing is no move")
    func jointUnitBlocked() throws {
        #expect(try Self.tilt("aa./.#.", .south) == nil)
        // East the unit slides one cell: .aa / .#.
        #expect(try Self.tilt("aa./.#.", .east) == ".aa/.#.")
    }

    // a # a : walls on every side of both blocks that could let them meet: nothing ever
    // moves them together, so the puzzle is unsolvable.
    @Test("an unsolvable board is proved unsolvable")
    func unsolvable() throws {
        let result = TiltBFSSolver().solve(try TiltPuzzle.parse("a#a/###"), options: SolveOptions())
        #expect(result.status == .unsolvable)
    }

    // a . / . b / a b   (3 rows, 2 columns). South first: column 0 a's fall to rows 1-2 and
    // join; column 1 b's are at rows 1-2 already and joined: solved in 1 (south).
    // North first instead: column 0: a's to rows 0-1, joined; column 1: b's to rows 0-1: also
    // solved. Optimal length 1.
    @Test("bfs finds the shortest tilt sequence and the validator replays it")
    func shortest() throws {
        let puzzle = try TiltPuzzle.parse("a./.b/ab")
        let result = TiltBFSSolver().solve(puzzle, options: SolveOptions())
        #expect(result.moves == 1)
        try TiltSolutionValidator.validate(result.solution, for: puzzle)
    }

    @Test("the bitboard rules and the reference rules agree on 500 seeded random boards")
    func agreeWithReference() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<500 {
            let width = 2 + random.below(5), height = 2 + random.below(5)
            let rows = (0..<height).map { _ in
                String((0..<width).map { _ -> Character in
                    switch random.below(10) {
                    case 0: "#"
                    case 1: "*"
                    case 2, 3: "a"
                    case 4: "b"
                    case 5: "c"
                    default: "."
                    }
                })
            }
            let puzzle = try TiltPuzzle.parse(rows.joined(separator: "/"))
            var state = puzzle.start
            var text = rows
            for _ in 0..<6 {
                let direction = TiltDirection.allCases[random.below(4)]
                let reference = TiltReferenceRules.tilt(text, direction)
                let fast = puzzle.tilted(state, direction)
                #expect((fast.map { puzzle.rows($0) } ?? text) == reference, "\(text.joined(separator: "/")) \(direction.name)")
                #expect((fast == nil) == (reference == text))
                if let fast { state = fast }
                text = reference
                #expect(puzzle.isSolved(state) == TiltReferenceRules.isSolved(text))
            }
        }
    }
}
