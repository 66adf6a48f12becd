// A batch's outcome in counts, and the exit status `batch` and `coordinator` give for it: the
// same rule as `gridlock solve`, worst first.
//
//   3  some answer disagrees with the one the input gave (a wrong answer)
//   2  some job was cut off by a limit, or failed (out of attempts, or its answer did not
//      pass validation)
//   1  some record could not be read (invalid input)
//   0  every job solved or proved unsolvable

import GRDB
import GridlockWire

public struct BatchTally: Sendable, Hashable {
    public var byStatus: [JobStatus: Int] = [:]
    /// Answers that disagree with the input's expected answer.
    public var wrong = 0

    public init() {}

    public var total: Int { byStatus.values.reduce(0, +) }

    /// Counts one stored job.
    public mutating func add(_ stored: StoredJob) {
        add(status: stored.status, wrong: stored.wrong)
    }

    public mutating func add(status: JobStatus, wrong: Bool) {
        byStatus[status, default: 0] += 1
        if wrong { self.wrong += 1 }
    }

    /// A row's answer is wrong (its verdict, JobResult.checkedVerdict): 1 or 0.
    static let wrongAnswer = "CASE WHEN verdict = 'wrong' THEN 1 ELSE 0 END"

    public var exitCode: Int32 {
        if wrong > 0 { return 3 }
        if byStatus[.cutoff, default: 0] > 0 || byStatus[.failed, default: 0] > 0 { return 2 }
        if byStatus[.invalid, default: 0] > 0 { return 1 }
        return 0
    }

    /// "12 solved, 0 unsolvable, 1 cutoff, 0 failed, 2 invalid, 1 WRONG".
    public var summary: String {
        let counts = JobStatus.allCases.map { "\(byStatus[$0, default: 0]) \($0.rawValue)" }
        return (counts + ["\(wrong) wrong"]).joined(separator: ", ")
    }
}

extension ResultStore {
    /// The counts of one batch's stored rows.
    public func tally(batch: String) throws -> BatchTally {
        try queue.read { db in
            var tally = BatchTally()
            let rows = try Row.fetchAll(
                db, sql: """
                    SELECT status, COUNT(*), SUM(\(BatchTally.wrongAnswer))
                    FROM results WHERE batch = ? GROUP BY status
                    """, arguments: [batch])
            for row in rows {
                // A status another program stored as NULL or a number is no status this build knows.
                let name = (try? row.decode(String?.self, atIndex: 0)) ?? nil ?? ""
                let count: Int = try row.decode(atIndex: 1)
                let wrong: Int = try row.decode(Int?.self, atIndex: 2) ?? 0
                // A status this build does not know counts as failed: never as success.
                tally.byStatus[JobStatus(rawValue: name) ?? .failed, default: 0] += count
                tally.wrong += wrong
            }
            return tally
        }
    }
}
