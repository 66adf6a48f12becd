// SQLiteResults' statements: the writes the sink makes and the reads every report makes, in
// SQLite's dialect. What the rows mean is decoded by StoredRow, the same for every backend.

import GRDB
import GridlockWire

extension SQLiteResults {
    func store(_ results: [JobResult], storedAt: Double) throws -> ResultStore.Stored {
        try queue.write { db in
            var stored = ResultStore.Stored(rows: [], inserted: 0)
            var insert = try SQLiteInsert(db, sql: ResultColumn.insertSQL)
            for (index, result) in results.enumerated() {
                ResultColumn.bind(result, storedAt: storedAt, to: &insert)
                if try insert.run() == 1 {
                    stored.inserted += 1
                    stored.written.append(index)
                    stored.rows.append(StoredJob(storing: result))
                } else {
                    // The insert found it there; another connection could have deleted it since.
                    guard let row = try Self.acknowledgements(db, batch: result.batch, job: result.job, from: nil, limit: 1).first else {
                        throw UndecodableRow(batch: result.batch, job: result.job, reason: "its row was there a moment ago and is gone")
                    }
                    stored.rows.append(row)
                }
            }
            return stored
        }
    }

    func acknowledgements(batch: String, from: Int, limit: Int) throws -> [StoredJob] {
        try queue.read { db in try Self.acknowledgements(db, batch: batch, job: nil, from: from, limit: limit) }
    }

    /// The acknowledgements of one job, or of the jobs numbered `from` or more.
    private static func acknowledgements(_ db: Database, batch: String, job: Int?, from: Int?, limit: Int) throws -> [StoredJob] {
        let (filter, argument) = job.map { ("job = ?", $0) } ?? ("job >= ?", from ?? 0)
        return try Row.fetchAll(
            db, sql: "SELECT \(StoredRow.Reading.acknowledgement.sql) FROM results WHERE batch = ? AND \(filter) ORDER BY job LIMIT \(max(0, limit))",
            arguments: [batch, argument]
        ).map { try StoredRow.acknowledgement($0.databaseValues) }
    }

    func forget(batch: String, from: Int) throws -> Int {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM results WHERE batch = ? AND job >= ?", arguments: [batch, from])
            return db.changesCount
        }
    }

    func record(_ batch: BatchRecord) throws {
        try queue.write { db in
            try db.execute(sql: BatchRecord.insertSQL(placeholder: { _ in "?" }), arguments: StatementArguments(batch.storedValues))
        }
    }

    func record(_ machine: MachineRecord, batch: String) throws {
        try queue.write { db in
            try db.execute(sql: MachineRecord.insertSQL(placeholder: { _ in "?" }), arguments: StatementArguments(machine.storedValues(batch: batch)))
        }
    }

    func editRecipe(batch: String, _ edit: (inout BatchRecipe) -> Bool) throws {
        try queue.write { db in
            let text = try String.fetchOne(db, sql: "SELECT recipe FROM batches WHERE id = ?", arguments: [batch])
            guard var recipe = text.flatMap(BatchRecord.recipe(json:)), edit(&recipe) else { return }
            try db.execute(sql: "UPDATE batches SET recipe = ? WHERE id = ?", arguments: [BatchRecord.json(recipe), batch])
        }
    }

    func recordTotal(batch: String, jobs: Int, solvers known: [String]?) throws {
        try queue.write { db in
            let solvers = try known
                ?? String.fetchAll(db, sql: "SELECT DISTINCT solver FROM results WHERE batch = ? ORDER BY solver", arguments: [batch])
            try db.execute(
                sql: "UPDATE batches SET jobs = ?, solvers = ? WHERE id = ?", arguments: [jobs, BatchRecord.solversText(solvers), batch])
        }
    }

    func forEachRow(_ query: RowQuery, undecodable: (UndecodableRow) throws -> Void, _ body: (StoredRow) throws -> Void) throws {
        try queue.read { db in
            let (sql, arguments) = query.sql(placeholder: { _ in "?" })
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try cursor.next() {
                try StoredRow.deliver(row.databaseValues, reading: query.reading, undecodable: undecodable, body)
            }
        }
    }

    func tallyGroups(batch: String) throws -> [(row: StoredRow, count: Int)] {
        try queue.read { db in
            try Row.fetchAll(db, sql: BatchTally.groupsSQL(placeholder: "?"), arguments: [batch]).map { row in
                let cells = Array(row.databaseValues)
                let count = Int.fromDatabaseValue(cells.last ?? .null) ?? 0
                return (StoredRow.bestEffort(cells.dropLast(), reading: .acknowledgement).row, count)
            }
        }
    }

    func batchNames() throws -> [String] {
        try queue.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM batches UNION SELECT DISTINCT batch FROM results ORDER BY 1")
        }
    }

    func batches() throws -> [BatchRecord] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM batches ORDER BY started, id").map { row in
                try BatchRecord(stored: { row[$0] ?? .null })
            }
        }
    }

    func machines(batch: String?) throws -> [(batch: String, machine: MachineRecord)] {
        try queue.read { db in
            let filter = batch == nil ? "" : "WHERE batch = ?"
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM machines \(filter) ORDER BY batch, host", arguments: StatementArguments(batch.map { [$0] } ?? []))
            return rows.map { row in MachineRecord.stored { row[$0] ?? .null } }
        }
    }

    func jobSeconds(batch: String?, limit: Int) throws -> [Double] {
        try queue.read { db in
            if let batch {
                return try Double.fetchAll(db, sql: "SELECT seconds FROM results WHERE batch = ? ORDER BY job LIMIT ?", arguments: [batch, limit])
            }
            return try Double.fetchAll(db, sql: "SELECT seconds FROM results ORDER BY batch, job LIMIT ?", arguments: [limit])
        }
    }
}
