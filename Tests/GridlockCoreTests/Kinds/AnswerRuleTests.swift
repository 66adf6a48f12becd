// The one verdict rule (issue 43): `check`, `solve`, `bench`, the worker and the sink all ask
// `AnswerRule`, so a longer answer, a wrong cluster or a false claim of no solution is wrong
// wherever it is judged, and the reason names what differs.

import Testing
@testable import GridlockCore

@Suite("the one verdict rule")
struct AnswerRuleTests {
    /// Unblock Me I-4: 23 moves, a cluster of 58,419 boards.
    static let board = "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo"
    static let line = "23 \(board) 58419"

    @Test("each fact judged, with the words that name what differs", arguments: [
        (AnswerEvidence(claim: .solved(moves: 23), expectedMoves: 23), AnswerVerdict.correct, nil),
        (AnswerEvidence(claim: .solved(moves: 25), expectedMoves: 23), .wrong, "25 moves, longer than the input's MOVES of 23"),
        (AnswerEvidence(claim: .solved(moves: 1), expectedMoves: 2), .wrong, "1 move, shorter than the input's MOVES of 2 (is MOVES wrong?)"),
        (AnswerEvidence(claim: .solved(moves: 4), expectedMoves: -1), .wrong, "solved in 4 moves, but the input's MOVES says it has no solution"),
        (AnswerEvidence(claim: .unsolvable, expectedMoves: 23), .wrong, "a false claim of no solution: the input's MOVES is 23"),
        (AnswerEvidence(claim: .unsolvable, expectedMoves: -1, unchecked: true), .correct, nil),
        (AnswerEvidence(claim: .unsolvable, unchecked: true), .unknown, "a claim of no solution that nothing checked"),
        (AnswerEvidence(claim: .unsolvable), .correct, nil),
        (AnswerEvidence(claim: .solved(moves: 23), cluster: 58_420, expectedMoves: 23, expectedCluster: 58_419), .wrong,
         "a cluster of 58420 boards, where the input's CLUSTER says 58419"),
        (AnswerEvidence(claim: .solved(moves: 23), cluster: nil, expectedMoves: 23, expectedCluster: 58_419), .correct, nil),
        (AnswerEvidence(claim: .solved(moves: 23), refutation: "move 3 is blocked"), .wrong, "move 3 is blocked"),
        (AnswerEvidence(claim: .none, expectedMoves: 23), .unknown, "no answer"),
        (AnswerEvidence(claim: .solved(moves: nil), expectedMoves: nil), .correct, nil),
        (AnswerEvidence(claim: .solved(moves: nil), expectedMoves: 23), .wrong, "solved with no move count, where the input's MOVES is 23"),
    ] as [(AnswerEvidence, AnswerVerdict, String?)])
    func judged(evidence: AnswerEvidence, verdict: AnswerVerdict, reason: String?) {
        #expect(AnswerRule.judge(evidence) == AnswerJudgement(verdict, reason))
    }

    @Test("a stored row is wrong by its verdict, or by moves that contradict its expected ones")
    func storedRows() {
        #expect(AnswerRule.storedRowIsWrong(verdict: .wrong, status: .failed, moves: nil, expectedMoves: nil))
        #expect(AnswerRule.storedRowIsWrong(verdict: .unknown, status: .solved, moves: 25, expectedMoves: 23))
        #expect(AnswerRule.storedRowIsWrong(verdict: .unknown, status: .unsolvable, moves: nil, expectedMoves: 23))
        #expect(!AnswerRule.storedRowIsWrong(verdict: .correct, status: .solved, moves: 23, expectedMoves: 23))
        #expect(!AnswerRule.storedRowIsWrong(verdict: .unknown, status: .cutoff, moves: nil, expectedMoves: 23))
    }

    /// bfs's answer to I-4, with `extra` legal moves first: the first move and its undoing.
    static func answer(extra: Bool) throws -> [String] {
        let puzzle = try ParsedPuzzle.parse(board)
        let moves = try #require(puzzle.solve(with: "bfs", options: SolveOptions())).solution.map(\.text)
        guard extra else { return moves }
        let words = moves[0].split(separator: " ")
        let back = ["up": "down", "down": "up", "left": "right", "right": "left"][String(words[1])]!
        return [moves[0], "\(words[0]) \(back) \(words[2])"] + moves
    }

    @Test("check calls a legal answer longer than the line's MOVES wrong, as solve and batch do")
    func checkHoldsTheExpectedLength() throws {
        let longer = try Self.answer(extra: true)
        #expect(longer.count == 25)
        let verdict = AnswerCheck.verdict(of: .solved(moves: longer), for: try ParsedPuzzle.parse(Self.line))
        #expect(verdict == .wrong("25 moves, longer than the input's MOVES of 23"))
        // The same answer to the bare board, with nothing expected, is right: it is legal.
        guard case .correct = AnswerCheck.verdict(of: .solved(moves: longer), for: try ParsedPuzzle.parse(Self.board)) else {
            Issue.record("a legal answer with nothing expected was not correct")
            return
        }
        guard case .correct = AnswerCheck.verdict(of: .solved(moves: try Self.answer(extra: false)), for: try ParsedPuzzle.parse(Self.line)) else {
            Issue.record("the optimal answer was not correct")
            return
        }
    }

    @Test("check judges a claim of no solution by the line's MOVES")
    func checkHoldsExpectedUnsolvable() throws {
        #expect(AnswerCheck.verdict(of: .unsolvable, for: try ParsedPuzzle.parse(Self.line))
            == .wrong("a false claim of no solution: the input's MOVES is 23"))
    }

    @Test("a wrong CLUSTER is named in solve's words, not the moves", arguments: ["bfs", "bidirectional", "reference"])
    func wrongClusterNamed(solver: String) throws {
        let puzzle = try ParsedPuzzle.parse("23 \(Self.board) 58420")
        let result = try #require(puzzle.solve(with: solver, options: SolveOptions(exploreWholeCluster: true)))
        #expect(result.cluster == 58_419, "\(solver) --full counts the cluster")
        let report = SolveReport.solved(Self.line, source: nil, solver: solver, result: result, puzzle: puzzle)
        #expect(report.matchesExpected == false)
        #expect(report.text().contains("(WRONG: a cluster of 58419 boards, where the input's CLUSTER says 58420)"), "\(report.text())")
        let right = SolveReport.solved(Self.line, source: nil, solver: solver, result: result, puzzle: try ParsedPuzzle.parse(Self.line))
        #expect(right.matchesExpected == true && right.text().contains("(as expected)"))
    }

    @Test("reference --full explores the whole cluster, as bfs does, on every sample board")
    func referenceHonoursFull() throws {
        for line in ["17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJGH 5911", "51 BCCoDoBEFoDGBEFAAGHHHIoGooJIKKLLJMMo 4780",
                     "-1 oBCDDDEBCoFGEBAAFGHHHooGoooooIJJoooI 3899"] {
            let puzzle = try ParsedPuzzle.parse(line)
            let full = SolveOptions(exploreWholeCluster: true)
            let reference = try #require(puzzle.solve(with: "reference", options: full))
            let bfs = try #require(puzzle.solve(with: "bfs", options: full))
            #expect(reference.cluster == puzzle.expectedCluster && reference.cluster == bfs.cluster, "\(line)")
            #expect(reference.moves == bfs.moves && reference.status == bfs.status, "\(line)")
            #expect(puzzle.judge(reference).verdict == .correct, "\(line)")
        }
    }
}
