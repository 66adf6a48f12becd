// The `bands` solver's rules, each against a brute-force reading of what it claims, on seeded
// random lanes; and its searches against norvig's counts on grids with many solutions.

@testable import GridlockCore
import Testing

@Suite("Sudoku bands rules")
struct SudokuBandRulesTests {
    /// Nine random 27-bit lanes, padding zero: half the bits set, or a quarter (so that
    /// matchings fail too).
    static func randomBand(_ random: inout SplitMix64) -> DigitLanes {
        var band = DigitLanes(repeating: 0)
        let sparse = random.next() % 2 == 0
        for digit in 0..<9 {
            var bits = UInt32(truncatingIfNeeded: random.next()) & SudokuBandMasks.band
            if sparse { bits &= UInt32(truncatingIfNeeded: random.next()) }
            band[digit] = bits
        }
        return band
    }

    static let permutations = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]

    /// Cell (row, column) of a 27-bit band.
    static func has(_ bits: UInt32, _ row: Int, _ column: Int) -> Bool { bits & (1 << UInt32(row * 9 + column)) != 0 }

    @Test("band matching keeps exactly the triads on a matching of rows to boxes, and fails where none is left")
    func bandMatching() {
        var random = SplitMix64(seed: 17)
        var failures = 0
        for _ in 0..<3_000 {
            let band = Self.randomBand(&random)
            let kept = SudokuBandRules.matchRowsToBoxes(band)
            var expected = DigitLanes(repeating: 0), anyLaneStuck = false
            for digit in 0..<9 {
                let triad = { (row: Int, box: Int) in (0..<3).contains { Self.has(band[digit], row, box * 3 + $0) } }
                var keep: UInt32 = 0
                for boxOf in Self.permutations where (0..<3).allSatisfy({ triad($0, boxOf[$0]) }) {
                    for row in 0..<3 { keep |= 0x7 << UInt32(row * 9 + boxOf[row] * 3) }
                }
                if keep == 0 { anyLaneStuck = true }
                expected[digit] = band[digit] & keep
            }
            if anyLaneStuck {
                failures += 1
                #expect(kept == nil)
            } else {
                #expect(kept == expected)
            }
        }
        #expect(failures > 100 && failures < 2_900, "the random lanes should exercise both outcomes")
    }

    @Test("stack matching keeps a band's column only where the other bands can take the stack's other columns")
    func stackMatching() {
        var random = SplitMix64(seed: 18)
        for _ in 0..<3_000 {
            var frame = SudokuBands(top: Self.randomBand(&random), middle: Self.randomBand(&random), bottom: Self.randomBand(&random))
            let before = frame
            SudokuBandRules.matchBandsToColumns(&frame)
            for band in 0..<3 {
                for digit in 0..<9 {
                    let present = { (band: Int, column: Int) in (0..<3).contains { Self.has(before[band][digit], $0, column) } }
                    var keep: UInt32 = 0
                    for stack in 0..<3 {
                        for columnOf in Self.permutations where (0..<3).allSatisfy({ present($0, stack * 3 + columnOf[$0]) }) {
                            keep |= 1 << UInt32(stack * 3 + columnOf[band])
                        }
                    }
                    let expected = before[band][digit] & (keep | keep << 9 | keep << 18)
                    #expect(frame[band][digit] == expected)
                }
            }
        }
    }

    @Test("crowded rows, rows holding bits, coverage and lone columns match a count cell by cell")
    func countingHelpers() {
        var random = SplitMix64(seed: 19)
        for _ in 0..<2_000 {
            let frame = SudokuBands(top: Self.randomBand(&random), middle: Self.randomBand(&random), bottom: Self.randomBand(&random))
            let band = frame.top
            let holding = SudokuBandRules.rows(holding: band)
            for digit in 0..<16 {
                var expected: UInt32 = 0
                for row in 0..<3 where (0..<9).contains(where: { Self.has(band[digit], row, $0) }) { expected |= 0x1FF << UInt32(row * 9) }
                #expect(holding[digit] == expected)
            }
            // crowdedRows asks for every row to have a cell; fill the empty ones.
            let filled = band | (DigitLanes(repeating: 0x40201) & ~holding)
            let crowded = SudokuBandRules.crowdedRows(filled)
            for digit in 0..<16 {
                var expected: UInt32 = 0
                for row in 0..<3 where (0..<9).count(where: { Self.has(filled[digit], row, $0) }) >= 2 { expected |= 0x1FF << UInt32(row * 9) }
                #expect(crowded[digit] == expected)
            }
            let (once, twice) = SudokuBandRules.coverage(band)
            let counts = SudokuBandRules.coverageToThree(band)
            for cell in 0..<27 {
                let count = (0..<16).count { band[$0] & (1 << UInt32(cell)) != 0 }
                #expect((once >> UInt32(cell) & 1 == 1) == (count >= 1))
                #expect((twice >> UInt32(cell) & 1 == 1) == (count >= 2))
                #expect(counts.once == once && counts.twice == twice)
                #expect((counts.thrice >> UInt32(cell) & 1 == 1) == (count >= 3))
            }
            let (lone, covered) = SudokuBandRules.loneColumns(frame)
            var allCovered = true
            for digit in 0..<9 {
                for column in 0..<9 {
                    let count = (0..<3).reduce(0) { sum, band in sum + (0..<3).count { Self.has(frame[band][digit], $0, column) } }
                    #expect((lone[digit] >> UInt32(column) & 1 == 1) == (count == 1))
                    if count == 0 { allCovered = false }
                }
            }
            #expect(covered == allCovered)
        }
    }

    @Test("bands counts the same solutions as norvig on sparse grids, up to 300")
    func countsAgreeWithNorvig() throws {
        var random = SplitMix64(seed: 20)
        let solved = try #require(SudokuBandSolver().solve(try SudokuPuzzle.parseLine(String(repeating: ".", count: 81)), options: SolveOptions()).solvedPosition)
        let digits = solved.utf8.map { $0 - 0x30 }
        var counted = [Int]()
        for _ in 0..<60 {
            // Keep 24-43 cells of a solved grid, under a random relabelling: from one solution to hundreds.
            let relabel = Array((1...9).shuffled(using: &random))
            var cells = [UInt8](repeating: 0, count: 81)
            for cell in (0..<81).shuffled(using: &random).prefix(24 + Int(random.next() % 20)) {
                cells[cell] = UInt8(relabel[Int(digits[cell]) - 1])
            }
            let puzzle = try SudokuPuzzle(cells: cells)
            let options = SolveOptions(solutionLimit: 300)
            let bands = SudokuBandSolver().solve(puzzle, options: options)
            let norvig = SudokuNorvigSolver().solve(puzzle, options: options)
            #expect(bands.solutionCount == norvig.solutionCount, "\(puzzle.lineText)")
            if let solution = bands.solvedPosition { try SudokuSolutionValidator.validate(solution, for: puzzle) }
            counted.append(bands.solutionCount ?? 0)
        }
        #expect(counted.contains(1) && counted.contains(300) && counted.contains { $0 > 1 && $0 < 300 }, "\(counted)")
    }

    @Test("givens that clash, in a row, a column or a box, are unsolvable; others agree with norvig")
    func clashingGivens() throws {
        var random = SplitMix64(seed: 21)
        var clashes = 0
        for _ in 0..<300 {
            var cells = [UInt8](repeating: 0, count: 81)
            for cell in (0..<81).shuffled(using: &random).prefix(4 + Int(random.next() % 16)) {
                cells[cell] = UInt8(1 + random.next() % 9)
            }
            let options = SolveOptions(solutionLimit: 2, maxSteps: 100_000)
            guard let valid = try? SudokuPuzzle(cells: cells) else {
                // The model refuses these; the solver must see the clash by itself all the same.
                clashes += 1
                var puzzle = try SudokuPuzzle(cells: [UInt8](repeating: 0, count: 81))
                puzzle.cells = cells
                let bands = SudokuBandSolver().search(puzzle, options: options, build: PortableSudokuBands.self)
                #expect(bands.status == .unsolvable && bands.solutionCount == 0, "\(puzzle.lineText)")
                continue
            }
            let bands = SudokuBandSolver().solve(valid, options: options)
            let norvig = SudokuNorvigSolver().solve(valid, options: options)
            if norvig.status != .cutoff {
                #expect(bands.status == norvig.status && bands.solutionCount == norvig.solutionCount, "\(valid.lineText)")
            }
            if let solution = bands.solvedPosition { try SudokuSolutionValidator.validate(solution, for: valid) }
        }
        #expect(clashes > 30 && clashes < 270)
    }

    @Test("a grid past the model's checks (a digit above 9, too few cells) is unsolvable, not a crash")
    func malformedGrids() throws {
        for cells in [[UInt8](repeating: 0, count: 80) + [17], [UInt8](repeating: 0, count: 80) + [10], [UInt8](repeating: 0, count: 40)] {
            var puzzle = try SudokuPuzzle(cells: [UInt8](repeating: 0, count: 81))
            puzzle.cells = cells
            let result = SudokuBandSolver().search(puzzle, options: SolveOptions(), build: PortableSudokuBands.self)
            #expect(result.status == .unsolvable)
        }
    }
}
