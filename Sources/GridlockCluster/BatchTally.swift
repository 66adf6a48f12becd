// A batch's outcome in counts, and the exit status `batch` and `coordinator` give for it: the
// same rule as `gridlock solve`, worst first.
//
//   3  some answer disagrees with the one the input gave (a wrong answer)
//   2  some job was cut off by a limit, or failed (out of attempts, or its answer did not
//      pass validation)
//   1  some record could not be read (invalid input)
//   0  every job solved or proved unsolvable

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

    public mutating func add(status: JobStatus, wrong: Bool, count: Int = 1) {
        byStatus[status, default: 0] += count
        if wrong { self.wrong += count }
    }

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
    /// The counts of one batch's stored rows. The store groups the rows by what decides their
    /// status and verdict (BatchTally.groupsSQL), and each group is judged by the one rule
    /// (StoredRow.isWrong): a batch of millions is a few hundred groups. A status this build
    /// does not know counts as failed: never as success.
    public func tally(batch: String) throws -> BatchTally {
        var tally = BatchTally()
        for (row, count) in try backend.tallyGroups(batch: batch) {
            tally.add(status: row.status, wrong: row.isWrong, count: count)
        }
        return tally
    }
}

extension BatchTally {
    /// One batch's rows (the batch its one argument) grouped by the columns that decide the
    /// verdict: each group's cells in `Reading.acknowledgement`'s order, which the decoder
    /// follows (its identity is any of its rows'), then its count. Legal in both dialects
    /// but for the placeholder; COUNT is a 64-bit integer in both.
    package static func groupsSQL(placeholder: String) -> String {
        let reading = StoredRow.Reading.acknowledgement
        let identity: [String: String] = ["batch": "MIN(batch)", "job": "MIN(job)", "fingerprint": "0"]
        let selected = reading.columns.map { identity[$0.name] ?? $0.name }.joined(separator: ", ")
        let judged = reading.columns.map(\.name).filter { identity[$0] == nil }.joined(separator: ", ")
        return "SELECT \(selected), COUNT(*) AS rows FROM results WHERE batch = \(placeholder) GROUP BY \(judged)"
    }
}
