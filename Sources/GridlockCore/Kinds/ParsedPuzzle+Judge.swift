// A built-in solver's result judged by the one rule (`AnswerRule`): the kind's validator
// replays it, and its moves and cluster are held against the input's MOVES and CLUSTER.

extension ParsedPuzzle {
    /// The rule's judgement of `result` on this puzzle.
    public func judge(_ result: SolveResult) -> AnswerJudgement {
        AnswerRule.judge(evidence(for: result, validationFailure: validationFailure(of: result)))
    }

    /// What is known of `result`: its claim, its cluster, the validator's refusal
    /// (`validationFailure(of: result)`, taken once by the caller) and what the input expects.
    public func evidence(for result: SolveResult, validationFailure: String?) -> AnswerEvidence {
        let claim: AnswerEvidence.Claim = switch result.status {
        case .solved: .solved(moves: result.moves)
        case .unsolvable: .unsolvable
        case .cutoff: .none
        }
        return AnswerEvidence(
            claim: claim, cluster: result.status == .cutoff ? nil : result.cluster, expectedMoves: expectedMoves,
            expectedCluster: expectedCluster, refutation: validationFailure.map { "the validator refused it: \($0)" })
    }
}
