// What a results database must do, whichever server keeps it: the seam between ResultStore,
// which every command holds, and the SQL that one engine speaks. SQLite (SQLiteResults) is
// the embedded default; PostgreSQL (GridlockPostgres, behind the package trait) is the team
// store that many sinks can write at once.
//
// A backend runs statements and hands back cells; what the cells mean (the one decoder, the
// one verdict rule, the recipe's edits) is ResultStore's and StoredRow's, written once.

import GRDB
import GridlockWire

package protocol ResultsBackend: AnyObject, Sendable {
    /// Where the results are, as messages name it (never with a password).
    var location: ResultsLocation { get }

    /// Stores a group of results in one transaction: a new (batch, job) is inserted, the same
    /// job again (same fingerprint) is left alone, a changed job replaces the row. Returns
    /// each result's row as it then stands, and which results were written.
    func store(_ results: [JobResult], storedAt: Double) throws -> ResultStore.Stored

    /// The acknowledgements of a batch's stored jobs numbered `from` or more, at most `limit`,
    /// in job order.
    func acknowledgements(batch: String, from: Int, limit: Int) throws -> [StoredJob]

    /// Drops the rows of a batch numbered `from` or more; returns how many.
    func forget(batch: String, from: Int) throws -> Int

    /// Records a batch once: a batch recorded before keeps its first record.
    func record(_ batch: BatchRecord) throws

    /// Records a host of a batch once.
    func record(_ machine: MachineRecord, batch: String) throws

    /// Reads a batch's recipe, lets `edit` change it, and writes it back if `edit` says so,
    /// in one transaction (two sinks may share a batch). A batch without a readable recipe is
    /// left alone.
    func editRecipe(batch: String, _ edit: (inout BatchRecipe) -> Bool) throws

    /// Completes a batch's record: its job count, and its solvers (from its rows when nil).
    func recordTotal(batch: String, jobs: Int, solvers: [String]?) throws

    /// The rows `query` picks, in batch and job order, streamed: each through the shared
    /// decoder (StoredRow.deliver), to `body` or, when it does not decode, to `undecodable`.
    func forEachRow(_ query: RowQuery, undecodable: (UndecodableRow) throws -> Void, _ body: (StoredRow) throws -> Void) throws

    /// A batch's rows grouped by what decides their status and verdict (BatchTally.groups):
    /// each group's cells, decoded as well as they can be, and its count.
    func tallyGroups(batch: String) throws -> [(row: StoredRow, count: Int)]

    /// The batches with a record or rows, by name.
    func batchNames() throws -> [String]

    /// Every batch's record, by start time.
    func batches() throws -> [BatchRecord]

    /// The machines of a batch (of every batch when nil), by batch and host.
    func machines(batch: String?) throws -> [(batch: String, machine: MachineRecord)]

    /// Up to `limit` stored wall times of a batch (of every batch when nil).
    func jobSeconds(batch: String?, limit: Int) throws -> [Double]

    /// Throws if the store is no longer where it was opened (a SQLite file deleted or
    /// replaced): checked after each write, before the sink acknowledges it.
    func checkStillInPlace() throws

    /// What makes two opened stores the same database (compare refuses to pair a batch with
    /// itself by another name of the same file).
    var identity: AnyHashable { get }
}

/// Which rows a reader wants: a batch or all, the columns, which jobs, how many.
package struct RowQuery: Sendable {
    package var batch: String?
    package var reading: StoredRow.Reading
    package var filter: RowFilter = .all
    package var limit: Int?

    /// The WHERE clause (empty or starting with WHERE) and its arguments, with the dialect's
    /// placeholder for the nth argument (`?` in SQLite, `$n` in PostgreSQL).
    package func condition(placeholder: (Int) -> String) -> (sql: String, arguments: [DatabaseValue]) {
        var terms: [String] = []
        var arguments: [DatabaseValue] = []
        func argument(_ value: DatabaseValue) -> String {
            arguments.append(value)
            return placeholder(arguments.count)
        }
        if let batch { terms.append("batch = \(argument(batch.databaseValue))") }
        switch filter {
        case .all: break
        case .problems: terms.append("status IN ('\(JobStatus.invalid.rawValue)', '\(JobStatus.failed.rawValue)')")
        case .job(let job): terms.append("job = \(argument(job.databaseValue))")
        }
        return (terms.isEmpty ? "" : "WHERE " + terms.joined(separator: " AND "), arguments)
    }

    /// The whole SELECT, in batch and job order.
    package func sql(placeholder: (Int) -> String) -> (sql: String, arguments: [DatabaseValue]) {
        let (condition, arguments) = condition(placeholder: placeholder)
        let limited = limit.map { " LIMIT \(max(0, $0))" } ?? ""
        return ("SELECT \(reading.sql) FROM results \(condition) ORDER BY batch, job\(limited)", arguments)
    }
}

/// The jobs a reader picks beyond its batch.
package enum RowFilter: Sendable, Hashable {
    case all
    /// The jobs that did not run: invalid or failed.
    case problems
    case job(Int)
}
