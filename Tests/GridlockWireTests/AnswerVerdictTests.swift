// A result's verdict (issue 19): judged by the worker, and checked again where it is stored, so
// that no worker can make a contradicted or missing answer count as correct.

import GridlockWire
import Testing

@Suite("answer verdicts")
struct AnswerVerdictTests {
    static func result(_ status: JobStatus, moves: Int? = nil, expected: Int? = nil) -> JobResult {
        var result = JobResult(batch: "b", job: 1, attempt: 1, worker: WorkerIdentity(host: "h", pid: 1), status: status)
        result.moves = moves
        result.expectedMoves = expected
        return result
    }

    @Test("the worker's judgement", arguments: [
        // (status, moves, expected, refuted, unchecked, verdict)
        (JobStatus.solved, 23, 23, false, false, AnswerVerdict.correct),
        (.solved, 25, 23, false, false, .wrong),         // another length than the expected
        (.solved, 23, nil, false, false, .correct),      // replayed, nothing expected
        (.solved, 23, nil, true, false, .wrong),         // refuted by the validator
        (.failed, nil, 23, true, false, .wrong),         // a refuted outside answer is failed and wrong
        (.unsolvable, nil, 23, false, false, .wrong),    // a false claim of no solution
        (.unsolvable, nil, -1, false, true, .correct),   // an outside claim the input confirms
        (.unsolvable, nil, nil, false, true, .unknown),  // an outside claim nothing checks
        (.unsolvable, nil, nil, false, false, .correct), // a built-in search's proof
        (.cutoff, nil, 23, false, false, .unknown),
        (.invalid, nil, nil, false, false, .unknown),
    ] as [(JobStatus, Int?, Int?, Bool, Bool, AnswerVerdict)])
    func judged(status: JobStatus, moves: Int?, expected: Int?, refuted: Bool, unchecked: Bool, verdict: AnswerVerdict) {
        var result = Self.result(status, moves: moves, expected: expected)
        result.judge(refutation: refuted ? "the validator refused it" : nil, unchecked: unchecked)
        #expect(result.verdict == verdict)
        #expect(result.checkedVerdict == verdict && result.isWrong == (verdict == .wrong))
    }

    @Test("a cluster that differs from the input's CLUSTER is wrong, and the error names both")
    func clusterDiffers() {
        var result = Self.result(.unsolvable, expected: -1)
        result.cluster = 120
        result.judge(expectedCluster: 119)
        #expect(result.verdict == .wrong)
        #expect(result.error == "wrong answer: a cluster of 120 boards, where the input's CLUSTER says 119")
        var agreeing = Self.result(.unsolvable, expected: -1)
        agreeing.cluster = 119
        agreeing.judge(expectedCluster: 119)
        #expect(agreeing.verdict == .correct && agreeing.error == nil)
    }

    @Test("a worker cannot call a contradicted answer, or no answer, correct")
    func storedVerdictIsChecked() {
        var contradicted = Self.result(.solved, moves: 25, expected: 23)
        contradicted.verdict = .correct
        #expect(contradicted.checkedVerdict == .wrong && contradicted.isWrong)
        var cutOff = Self.result(.cutoff, expected: 23)
        cutOff.verdict = .correct
        #expect(cutOff.checkedVerdict == .unknown)
        var noMoves = Self.result(.solved, expected: 23)
        noMoves.verdict = .correct
        #expect(noMoves.checkedVerdict == .wrong, "a solved answer with no move count, where MOVES gives one")
        var refuted = Self.result(.failed, expected: 23)
        refuted.verdict = .wrong
        #expect(refuted.checkedVerdict == .wrong)
    }
}
