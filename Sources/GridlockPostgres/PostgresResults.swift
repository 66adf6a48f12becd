// The results in PostgreSQL: the team store that several sinks write at once and every
// reader reads as it reads SQLite (ResultsBackend). The rows are the ones SQLite would hold,
// value for value (ResultColumn.storedValues); reads come back as SQLite's values, so the one
// decoder, the one verdict rule and every printed figure are the same.
//
// Durability as SQLite's synchronous FULL: a write returns once the server has committed it
// to disk (synchronous_commit on), since the sink acknowledges it next. A server that stops
// or cannot be reached stops the sink with the reason; the batch resumes when it is back.

#if PostgreSQL
import GRDB
import GridlockClusterBase
import GridlockCluster
import GridlockWire
import NIOCore
import PostgresNIO

package final class PostgresResults: ResultsBackend {
    let session: PostgresSession

    /// Connects and checks (or, to write, creates) the schema. A reader's session is
    /// read-only: whatever it runs, it changes nothing.
    package init(_ url: PostgresURL, readOnly: Bool) throws {
        session = try PostgresSession(url)
        try session.run(readOnly ? "SET default_transaction_read_only = on" : "SET synchronous_commit = on")
        try PostgresSchema.prepare(session, readOnly: readOnly)
    }

    package var location: ResultsLocation { .postgres(session.url) }

    package var identity: AnyHashable {
        "\(session.url.socketDirectory ?? session.url.host):\(session.url.port)/\(session.url.database)"
    }

    /// A database dropped under a sink ends its connection, and the next statement says so.
    package func checkStillInPlace() throws {}

    /// At most 65,535 values fit one statement.
    static let rowsPerStatement = 65_535 / ResultColumn.all.count

    package func store(_ results: [JobResult], storedAt: Double) throws -> ResultStore.Stored {
        let values = try ResultColumn.storedValues(of: results, storedAt: storedAt)
        // One statement may not touch a row twice (SQLSTATE 21000), and a re-issued job can
        // come back twice in one group: each job's first result goes in bulk, the others one
        // at a time after it, in the group's order, which is what SQLite's row-by-row insert does.
        var seen: Set<RowKey> = []
        var first: [Int] = []
        var repeats: [Int] = []
        for (index, result) in results.enumerated() {
            if seen.insert(RowKey(batch: result.batch, job: result.job)).inserted { first.append(index) } else { repeats.append(index) }
        }
        // In one order whoever writes, so that two sinks' transactions never wait on each other
        // in a circle.
        first.sort { RowKey(batch: results[$0].batch, job: results[$0].job) < RowKey(batch: results[$1].batch, job: results[$1].job) }
        return try session.transaction {
            var acknowledged: [Int: StoredJob] = [:]
            var statements = stride(from: 0, to: first.count, by: Self.rowsPerStatement).map {
                Array(first[$0..<min($0 + Self.rowsPerStatement, first.count)])
            }
            statements += repeats.map { [$0] }
            for indices in statements {
                let keys = try upsert(indices.map { values[$0] })
                for index in indices {
                    let result = results[index]
                    guard !keys.contains(RowKey(batch: PostgresBindings.storable(result.batch), job: result.job)) else { continue }
                    // Read now, as SQLite reads it after the row's own insert: a later repeat
                    // of the same job in this group may still change the row.
                    guard let row = try acknowledgements(batch: result.batch, job: result.job).first else {
                        throw UndecodableRow(batch: result.batch, job: result.job, reason: "its row was there a moment ago and is gone")
                    }
                    acknowledged[index] = row
                }
            }
            var stored = ResultStore.Stored(rows: [], inserted: 0)
            for (index, result) in results.enumerated() {
                if let row = acknowledged[index] {
                    stored.rows.append(row)
                } else {
                    stored.inserted += 1
                    stored.written.append(index)
                    stored.rows.append(StoredJob(storing: result))
                }
            }
            return stored
        }
    }

    /// Upserts rows; returns the keys of those it wrote (new, or replacing a changed job).
    private func upsert(_ rows: [[DatabaseValue]]) throws -> Set<RowKey> {
        var binds = PostgresBindings(capacity: rows.count * ResultColumn.all.count)
        for row in rows { for value in row { binds.append(cell: value) } }
        let sql = ResultColumn.upsertSQL(rows: rows.count, placeholder: { "$\($0)" }) + " RETURNING batch, job"
        return Set(try session.run(sql, binds).rows.map { row in
            let (batch, job) = try row.decode((String, Int64).self)
            return RowKey(batch: batch, job: Int(job))
        })
    }

    package func acknowledgements(batch: String, from: Int, limit: Int) throws -> [StoredJob] {
        try rows("""
            SELECT \(StoredRow.Reading.acknowledgement.sql) FROM results WHERE batch = $1 AND job >= $2 ORDER BY job LIMIT \(max(0, limit))
            """, [batch.databaseValue, from.databaseValue]).map(StoredRow.acknowledgement)
    }

    private func acknowledgements(batch: String, job: Int) throws -> [StoredJob] {
        try rows("SELECT \(StoredRow.Reading.acknowledgement.sql) FROM results WHERE batch = $1 AND job = $2", [batch.databaseValue, job.databaseValue])
            .map(StoredRow.acknowledgement)
    }

    package func forget(batch: String, from: Int) throws -> Int {
        try session.run("DELETE FROM results WHERE batch = $1 AND job >= $2", binds([batch.databaseValue, from.databaseValue])).metadata.rows ?? 0
    }

    package func record(_ batch: BatchRecord) throws {
        try session.run(BatchRecord.insertSQL(placeholder: { "$\($0)" }), binds(batch.storedValues))
    }

    package func record(_ machine: MachineRecord, batch: String) throws {
        try session.run(MachineRecord.insertSQL(placeholder: { "$\($0)" }), binds(machine.storedValues(batch: batch)))
    }

    package func editRecipe(batch: String, _ edit: (inout BatchRecipe) -> Bool) throws {
        try session.transaction {
            // FOR UPDATE: two sinks of one batch edit it in turn, neither losing the other's edit.
            let text = try rows("SELECT recipe FROM batches WHERE id = $1 FOR UPDATE", [batch.databaseValue]).first?.first.flatMap(String.fromDatabaseValue)
            guard var recipe = text.flatMap(BatchRecord.recipe(json:)), edit(&recipe) else { return }
            try session.run("UPDATE batches SET recipe = $1 WHERE id = $2", binds([BatchRecord.json(recipe).databaseValue, batch.databaseValue]))
        }
    }

    package func recordTotal(batch: String, jobs: Int, solvers known: [String]?) throws {
        let solvers = try known ?? rows("SELECT DISTINCT solver FROM results WHERE batch = $1", [batch.databaseValue]).compactMap {
            $0.first.flatMap(String.fromDatabaseValue)
        }
        try session.run("UPDATE batches SET jobs = $1, solvers = $2 WHERE id = $3",
                        binds([jobs.databaseValue, BatchRecord.solversText(solvers).databaseValue, batch.databaseValue]))
    }

    /// Read through a cursor, a page at a time, decoded on the caller's thread: a batch of
    /// millions of rows is never held whole, and `body` runs as it would over SQLite.
    package func forEachRow(_ query: RowQuery, undecodable: (UndecodableRow) throws -> Void, _ body: (StoredRow) throws -> Void) throws {
        let (sql, arguments) = query.sql(placeholder: { "$\($0)" })
        try session.transaction(readOnly: true) {
            try session.run("DECLARE gridlock_rows NO SCROLL CURSOR FOR \(sql)", binds(arguments))
            while true {
                let page = try session.run("FETCH FORWARD \(Self.rowsPerPage) FROM gridlock_rows").rows
                for row in page {
                    try StoredRow.deliver(row.map(DatabaseValue.init(cell:)), reading: query.reading, undecodable: undecodable, body)
                }
                if page.count < Self.rowsPerPage { break }
            }
        }
    }

    static let rowsPerPage = 5_000

    package func tallyGroups(batch: String) throws -> [(row: StoredRow, count: Int)] {
        try rows(BatchTally.groupsSQL(placeholder: "$1"), [batch.databaseValue]).map { cells in
            (StoredRow.bestEffort(cells.dropLast(), reading: .acknowledgement).row, cells.last.flatMap(Int.fromDatabaseValue) ?? 0)
        }
    }

    package func batchNames() throws -> [String] {
        try rows("SELECT id FROM batches UNION SELECT DISTINCT batch FROM results ORDER BY 1", []).compactMap { $0.first.flatMap(String.fromDatabaseValue) }
    }

    package func batches() throws -> [BatchRecord] {
        try namedRows("SELECT * FROM batches ORDER BY started, id", []).map { row in try BatchRecord(stored: { row[$0] ?? .null }) }
    }

    package func machines(batch: String?) throws -> [(batch: String, machine: MachineRecord)] {
        let filter = batch == nil ? "" : "WHERE batch = $1"
        return try namedRows("SELECT * FROM machines \(filter) ORDER BY batch, host", batch.map { [$0.databaseValue] } ?? []).map { row in
            MachineRecord.stored { row[$0] ?? .null }
        }
    }

    package func jobSeconds(batch: String?, limit: Int) throws -> [Double] {
        let filter = batch == nil ? "" : "WHERE batch = $1"
        return try rows("SELECT seconds FROM results \(filter) ORDER BY batch, job LIMIT \(max(0, limit))", batch.map { [$0.databaseValue] } ?? []).compactMap {
            $0.first.flatMap(Double.fromDatabaseValue)
        }
    }

    /// A statement's rows, each as SQLite's values in the SELECT's order.
    private func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[DatabaseValue]] {
        try session.run(sql, binds(arguments)).rows.map { $0.map(DatabaseValue.init(cell:)) }
    }

    /// A statement's rows, each by column name.
    private func namedRows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [[String: DatabaseValue]] {
        try session.run(sql, binds(arguments)).rows.map { row in
            Dictionary(row.map { ($0.columnName, DatabaseValue(cell: $0)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private func binds(_ values: [DatabaseValue]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: values.count)
        for value in values { binds.append(cell: value) }
        return binds
    }
}

/// A row's key, ordered as a sink locks rows.
struct RowKey: Hashable, Comparable {
    var batch: String
    var job: Int

    static func < (left: RowKey, right: RowKey) -> Bool {
        (left.batch, left.job) < (right.batch, right.job)
    }
}
#endif
