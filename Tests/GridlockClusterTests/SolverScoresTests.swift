// PAR-2 and the virtual best solver against a small example worked out by hand.

import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct SolverScoresTests {
    static func job(_ source: String, _ solver: String, solved: Bool = false, wrong: Bool = false, _ termination: Termination? = nil, seconds: Double) -> SolverScores.Job {
        SolverScores.Job(batch: "b", source: source, kind: .rushhour, solver: solver, solved: solved, wrong: wrong, termination: termination, seconds: seconds)
    }

    /// Limit 10 s. f:1: A 1 s, B 2 s (A fastest). f:2: A timeout, B 4 s (B fastest). f:3: A
    /// wrong, B memout (nobody).
    static let example = [
        job("f:1", "A", solved: true, seconds: 1), job("f:1", "B", solved: true, seconds: 2),
        job("f:2", "A", .timeout, seconds: 10), job("f:2", "B", solved: true, seconds: 4),
        job("f:3", "A", wrong: true, seconds: 0.5), job("f:3", "B", .memout, seconds: 3),
    ]

    static func close(_ value: Double?, _ expected: Double) -> Bool { value.map { abs($0 - expected) < 1e-9 } ?? false }

    @Test("PAR-2, solved, wrong, timeouts, memouts and VBS share per solver, and the VBS row, as worked out by hand")
    func handExample() throws {
        for ordered in [true, false] {
            var scores = SolverScores(limitSeconds: 10, expectedSolvers: ordered ? nil : [.rushhour: 2])
            // Stored as they come: out of order, puzzles interleaved.
            for job in ordered ? Self.example : Self.example.reversed() { scores.add(job) }
            scores.finish()
            let rows = scores.rows
            #expect(rows.map(\.solver) == (ordered ? ["A", "B", "VBS"] : ["B", "A", "VBS"]))
            let a = try #require(rows.first { $0.solver == "A" }), b = try #require(rows.first { $0.solver == "B" })
            let vbs = try #require(rows.first { $0.solver == "VBS" })
            #expect(a.puzzles == 3 && a.solved == 1 && a.wrong == 1 && a.timeouts == 1 && a.memouts == 0)
            // (1 + 2x10 + 2x10) / 3 and (2 + 4 + 2x10) / 3; the VBS: (1 + 4 + 2x10) / 3.
            #expect(Self.close(a.par2Seconds, 41.0 / 3) && Self.close(b.par2Seconds, 26.0 / 3) && Self.close(vbs.par2Seconds, 25.0 / 3))
            #expect(b.solved == 2 && b.memouts == 1 && b.timeouts == 0 && b.wrong == 0)
            #expect(vbs.puzzles == 3 && vbs.solved == 2)
            #expect(a.fastest == 1 && b.fastest == 1 && Self.close(a.vbsShare, 0.5) && Self.close(b.vbsShare, 0.5) && Self.close(vbs.vbsShare, 1))
        }
    }

    @Test("without a limit an unsolved puzzle has no time: PAR-2 only for a solver that solved everything; a tie counts for both")
    func noLimit() throws {
        var scores = SolverScores()
        for job in [Self.job("f:1", "A", solved: true, seconds: 1), Self.job("f:1", "B", solved: true, seconds: 1),
                    Self.job("f:2", "A", solved: true, seconds: 3), Self.job("f:2", "B", .timeout, seconds: 9)] { scores.add(job) }
        scores.finish()
        let rows = scores.rows
        #expect(Self.close(rows[0].par2Seconds, 2) && rows[1].par2Seconds == nil && Self.close(rows[2].par2Seconds, 2))
        #expect(rows[0].fastest == 2 && rows[1].fastest == 1 && Self.close(rows[1].vbsShare, 0.5))
    }

    @Test("a solver's repeated runs of a puzzle count once: solved only if every run was, in their mean time")
    func repeats() throws {
        var scores = SolverScores(limitSeconds: 10, expectedSolvers: [.rushhour: 6])
        for job in [
            Self.job("f:1", "A", solved: true, seconds: 1), Self.job("f:1", "B", solved: true, seconds: 2),
            Self.job("f:1", "A", solved: true, seconds: 3), Self.job("f:1", "B", .timeout, seconds: 10),
            Self.job("f:1", "A", solved: true, seconds: 2), Self.job("f:1", "B", solved: true, seconds: 2),
        ] { scores.add(job) }
        scores.finish()
        let rows = scores.rows
        let a = try #require(rows.first { $0.solver == "A" }), b = try #require(rows.first { $0.solver == "B" })
        #expect(a.puzzles == 1 && a.solved == 1 && Self.close(a.par2Seconds, 2) && a.fastest == 1)
        // One timeout in three runs: not solved, counted once as a timeout, 2 x 10 s.
        #expect(b.puzzles == 1 && b.solved == 0 && b.timeouts == 1 && Self.close(b.par2Seconds, 20))
    }
}

@Suite struct SolverRatioTests {
    static func run(_ source: String, _ solver: String, _ repetition: Int, seconds: Double, solved: Bool = true) -> SolverScores.Job {
        SolverScores.Job(
            batch: "b", source: source, kind: .rushhour, solver: solver, solved: solved, wrong: !solved, termination: nil, seconds: seconds,
            repetition: repetition)
    }

    @Test("each solver over its kind's first in the tables, paired by puzzle and repeat; a wrong run is no time")
    func ratioRows() throws {
        for ordered in [true, false] {
            var scores = SolverScores(expectedSolvers: ordered ? nil : [.rushhour: 4])
            var jobs = [
                Self.run("f:1", "A", 0, seconds: 1), Self.run("f:1", "B", 0, seconds: 2),
                Self.run("f:1", "A", 1, seconds: 4), Self.run("f:1", "B", 1, seconds: 8),
                Self.run("f:2", "A", 0, seconds: 3), Self.run("f:2", "B", 0, seconds: 6),
                // Wrong: its pair is left out, and so is the puzzle's measured spread.
                Self.run("f:2", "A", 1, seconds: 1), Self.run("f:2", "B", 1, seconds: 100, solved: false),
            ]
            if !ordered { jobs.reverse() }
            for job in jobs { scores.add(job) }
            scores.finish()
            let forward = try #require(scores.ratioRows(order: [(.rushhour, "A"), (.rushhour, "B")]).first)
            #expect(forward.solver == "B" && forward.baseline == "A" && forward.estimate.puzzles == 2 && forward.estimate.pairs == 3)
            #expect(SolverScoresTests.close(forward.estimate.ratio, 2))
            #expect(forward.estimate.measurement == nil)
            let backward = try #require(scores.ratioRows(order: [(.rushhour, "B"), (.rushhour, "A")]).first)
            #expect(backward.solver == "A" && backward.baseline == "B" && SolverScoresTests.close(backward.estimate.ratio, 0.5))
        }
    }

    @Test("scores and ratios are per batch, each under its own limit, each batch's baseline the first solver it ran")
    func perBatch() throws {
        var scores = SolverScores()
        scores.batchLimits = ["one": 10, "two": 1]
        func job(_ batch: String, _ source: String, _ solver: String, _ seconds: Double, solved: Bool = true) -> SolverScores.Job {
            SolverScores.Job(batch: batch, source: source, kind: .rushhour, solver: solver, solved: solved, wrong: false, termination: solved ? nil : .timeout, seconds: seconds)
        }
        // Batch one runs A and B; batch two runs C and B (no A): its baseline is B, the first of
        // the tables' order it ran, and its ratio C's over B's.
        for item in [job("one", "f:1", "A", 1), job("one", "f:1", "B", 2), job("one", "f:2", "A", 1, solved: false), job("one", "f:2", "B", 4),
                     job("two", "f:1", "C", 1), job("two", "f:1", "B", 3), job("two", "f:2", "C", 2), job("two", "f:2", "B", 6)] {
            scores.add(item)
        }
        scores.finish()
        let rows = scores.rows
        #expect(rows.map { "\($0.batch) \($0.solver)" } == ["one A", "one B", "one VBS", "two C", "two B", "two VBS"])
        // One: A's PAR-2 is (1 + 2x10) / 2 under its 10 s; two has no unsolved puzzle.
        #expect(SolverScoresTests.close(rows[0].par2Seconds, 10.5) && SolverScoresTests.close(rows[3].par2Seconds, 1.5))
        let ratios = scores.ratioRows(order: [(.rushhour, "A"), (.rushhour, "B"), (.rushhour, "C")])
        #expect(ratios.map { "\($0.batch) \($0.solver)/\($0.baseline)" } == ["one B/A", "two C/B"], "\(ratios)")
        #expect(SolverScoresTests.close(ratios[1].estimate.ratio, 1.0 / 3), "\(ratios[1].estimate)")
    }
}
