// The one rule that says whether an answer is wrong (issue 43). `check`, `solve`, `batch`,
// `bench`, the worker and the sink each used to hold a definition of their own, and they
// disagreed: `check` passed a 25-move answer to a line whose MOVES said 23, which `solve` and
// `batch` called wrong. Every one of them now gathers what it knows into `AnswerEvidence` and
// asks `AnswerRule.judge`, whose reason names what differs.

/// What is known of one answer: what it claims, what the validator said, what the input expects.
public struct AnswerEvidence: Sendable, Hashable {
    public enum Claim: Sendable, Hashable {
        /// Solved in this many moves; nil for an answer that is a position (a Sudoku's grid).
        case solved(moves: Int?)
        case unsolvable
        /// No answer: cut off, crashed, unreadable.
        case none

        /// What a job of this status claims, with its moves.
        public init(_ status: JobStatus, moves: Int?) {
            switch status {
            case .solved: self = .solved(moves: moves)
            case .unsolvable: self = .unsolvable
            case .cutoff, .invalid, .failed: self = .none
            }
        }
    }

    public var claim: Claim
    /// The reachable states the answer reports (`--full`), where it reports them.
    public var cluster: Int?
    /// The input's MOVES: the optimal move count, -1 for "no solution".
    public var expectedMoves: Int?
    /// The input's CLUSTER.
    public var expectedCluster: Int?
    /// The validator's refusal, in its words: an illegal move, an unsolved end, a broken grid.
    public var refutation: String?
    /// A claim of no solution that nothing checked: an outside solver's, which no built-in
    /// search confirmed. Without an expected answer it is unknown, not correct.
    public var unchecked: Bool

    public init(
        claim: Claim, cluster: Int? = nil, expectedMoves: Int? = nil, expectedCluster: Int? = nil,
        refutation: String? = nil, unchecked: Bool = false
    ) {
        self.claim = claim
        self.cluster = cluster
        self.expectedMoves = expectedMoves
        self.expectedCluster = expectedCluster
        self.refutation = refutation
        self.unchecked = unchecked
    }
}

/// A verdict and, unless it is plainly correct, the words that say why.
public struct AnswerJudgement: Sendable, Hashable {
    public var verdict: AnswerVerdict
    /// What differs (wrong), or why nothing can be said (unknown); nil when correct.
    public var reason: String?

    public init(_ verdict: AnswerVerdict, _ reason: String? = nil) {
        self.verdict = verdict
        self.reason = reason
    }

    public var isWrong: Bool { verdict == .wrong }
}

public enum AnswerRule {
    /// Wrong when the validator refuted the answer, when its move count differs from the
    /// input's MOVES (longer, shorter, or a false claim of no solution), or when its cluster
    /// differs from the input's CLUSTER. Unknown when there is no answer, or an unchecked claim
    /// of no solution with nothing expected. Correct otherwise.
    public static func judge(_ evidence: AnswerEvidence) -> AnswerJudgement {
        if let refutation = evidence.refutation { return AnswerJudgement(.wrong, refutation) }
        if let difference = movesDifference(evidence) { return AnswerJudgement(.wrong, difference) }
        if let difference = clusterDifference(evidence) { return AnswerJudgement(.wrong, difference) }
        switch evidence.claim {
        case .none:
            return AnswerJudgement(.unknown, "no answer")
        case .unsolvable where evidence.unchecked && evidence.expectedMoves == nil:
            return AnswerJudgement(.unknown, "a claim of no solution that nothing checked")
        case .solved, .unsolvable:
            return AnswerJudgement(.correct)
        }
    }

    /// How the answer's length differs from the input's MOVES, if it does.
    public static func movesDifference(_ evidence: AnswerEvidence) -> String? {
        guard let expected = evidence.expectedMoves else { return nil }
        switch evidence.claim {
        case .none:
            return nil
        case .unsolvable:
            guard expected >= 0 else { return nil }
            return "a false claim of no solution: the input's MOVES is \(expected)"
        case .solved(nil):
            // Only puzzles answered by moves have a MOVES (a Sudoku's grid has none): a solved
            // answer to one with no move count is malformed, and the sink must catch it.
            if expected < 0 { return "solved, but the input's MOVES says it has no solution" }
            return "solved with no move count, where the input's MOVES is \(expected)"
        case .solved(let moves?):
            if expected < 0 { return "solved in \(count(moves)), but the input's MOVES says it has no solution" }
            if moves > expected { return "\(count(moves)), longer than the input's MOVES of \(expected)" }
            if moves < expected { return "\(count(moves)), shorter than the input's MOVES of \(expected) (is MOVES wrong?)" }
            return nil
        }
    }

    /// How the reported cluster differs from the input's CLUSTER, if it does.
    public static func clusterDifference(_ evidence: AnswerEvidence) -> String? {
        guard let expected = evidence.expectedCluster, let cluster = evidence.cluster, cluster != expected else { return nil }
        return "a cluster of \(cluster) boards, where the input's CLUSTER says \(expected)"
    }

    private static func count(_ moves: Int) -> String { moves == 1 ? "1 move" : "\(moves) moves" }
}

extension AnswerRule {
    /// A stored row's answer is wrong: its stored verdict says so (the sink stores the rule's
    /// verdict, `JobResult.checkedVerdict`), or its moves contradict its expected ones (a row
    /// stored before verdicts were, or edited since). What the tables' `wrong` counts.
    public static func storedRowIsWrong(verdict: AnswerVerdict, status: JobStatus, moves: Int?, expectedMoves: Int?) -> Bool {
        if verdict == .wrong { return true }
        return movesDifference(AnswerEvidence(claim: .init(status, moves: moves), expectedMoves: expectedMoves)) != nil
    }
}
