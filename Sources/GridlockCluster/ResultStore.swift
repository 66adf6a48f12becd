// The results database every command holds, whichever engine keeps it: one row per
// (batch, job), whoever sent it and however often, and a record of each batch and its
// machines.
//
// Re-issued jobs can deliver a result twice; the store keeps the first row of a (batch, job)
// and the sink counts the rest as duplicates. A result for the same number but another
// fingerprint answers a changed job (a batch resumed with --resume-changed) and replaces the
// row. Every write is durable before it returns, since the sink acknowledges it next: a result
// the coordinator was told is stored is never issued again.
//
// The engine's SQL is a ResultsBackend's (SQLiteResults, or PostgreSQL's behind the trait);
// what is decided once for both lives here: when a write counts as done, the recipe's edits,
// how a tally judges its groups, which rows are problems.

import Foundation
import GridlockWire

public final class ResultStore: Sendable {
    package let backend: any ResultsBackend

    package init(backend: any ResultsBackend) {
        self.backend = backend
    }

    /// Opens the SQLite database at `path`, creating it if need be. `readOnly` (for reports,
    /// exports, comparisons and plots) never writes to the file: it is opened read-only, and a
    /// database an older build wrote is migrated in a copy, so the file is byte-identical
    /// afterwards.
    public convenience init(path: String, readOnly: Bool = false) throws {
        self.init(backend: try SQLiteResults(path: path, readOnly: readOnly))
    }

    /// Where the results are, as messages name it: a path, or a URL without its password.
    public var location: ResultsLocation { backend.location }

    /// What makes two opened stores the same database, whatever name each was opened by.
    public var identity: AnyHashable { backend.identity }

    /// Records a batch's environment (once; a resumed batch keeps the first record).
    public func record(_ batch: BatchRecord) throws {
        try backend.record(batch)
    }

    /// Keeps the first description of a host for a batch: its workers say the same, give or
    /// take the load.
    public func record(_ machine: MachineRecord, batch: String) throws {
        try backend.record(machine, batch: batch)
    }

    /// Writes down the load when a batch's last job was stored, in its recipe (a batch
    /// recorded without one has nowhere to keep it).
    public func recordLoadAtEnd(batch: String, _ load: Double) throws {
        try backend.editRecipe(batch: batch) { recipe in
            recipe.loadAtEnd = load
            return true
        }
    }

    /// Adds the workers a batch's coordinator quarantined to its recipe (a resumed batch's
    /// list keeps those of its earlier runs), at most `BatchRecipe.maximumQuarantined`.
    public func recordQuarantined(batch: String, _ workers: [String]) throws {
        try backend.editRecipe(batch: batch) { recipe in
            let known = recipe.quarantined ?? []
            let added = workers.filter { !known.contains($0) }
            guard !added.isEmpty else { return false }
            recipe.quarantined = Array((known + added).prefix(BatchRecipe.maximumQuarantined))
            return true
        }
    }

    /// Completes a batch's record once its input has been read: how many jobs, which solvers.
    /// `solvers`, when the caller knows them all (its fold of the results held every row),
    /// saves reading the whole batch back for them: 0.4 s of a million-job batch.
    public func recordTotal(batch: String, jobs: Int, solvers known: [String]? = nil) throws {
        try backend.recordTotal(batch: batch, jobs: jobs, solvers: known)
    }

    /// What storing a group did: each result's row as it now stands (a duplicate's is the row
    /// stored before it, which may have ended otherwise), and how many rows were new.
    public struct Stored: Sendable, Hashable {
        public var rows: [StoredJob]
        public var inserted: Int
        /// The indices of the results whose rows this write made (new, or replacing a changed
        /// job's): what a fold of the stored rows adds.
        public var written: [Int] = []

        public init(rows: [StoredJob], inserted: Int, written: [Int] = []) {
            self.rows = rows
            self.inserted = inserted
            self.written = written
        }
    }

    /// Stores results in one transaction, and checks the store is still where it was opened
    /// before anyone is told: a SQLite file deleted or replaced mid-batch takes writes without
    /// an error, and a batch would report every result stored in a file nobody can open.
    public func store(_ results: [JobResult]) throws -> Stored {
        let stored = try backend.store(results, storedAt: Date().timeIntervalSince1970)
        try backend.checkStillInPlace()
        return stored
    }

    /// The stored jobs of a batch numbered `from` or more, at most `limit`, in order.
    public func storedJobs(batch: String, from: Int, limit: Int) throws -> [StoredJob] {
        try backend.acknowledgements(batch: batch, from: from, limit: limit)
    }

    /// Drops the rows of a batch numbered `from` or more; returns how many.
    public func forget(batch: String, from: Int) throws -> Int {
        try backend.forget(batch: batch, from: from)
    }

    /// The rows of a batch (or of every batch) in batch and job order, with the columns
    /// `reading` asks for, streamed: a database of millions of jobs is read without loading
    /// it. A row that does not decode (a kind or status this build does not know, text where
    /// a number belongs: another program wrote it) goes to `undecodable`, named by batch and
    /// job, never to `body`, never trapped on.
    public func forEachRow(
        batch: String?, reading: StoredRow.Reading, limit: Int? = nil,
        undecodable: (UndecodableRow) throws -> Void, _ body: (StoredRow) throws -> Void
    ) throws {
        try backend.forEachRow(RowQuery(batch: batch, reading: reading, limit: limit), undecodable: undecodable, body)
    }

    /// The jobs that did not run (invalid or failed), the first `limit` of them; throws the
    /// first that does not decode.
    public func problems(batch: String?, limit: Int) throws -> [StoredRow] {
        var rows: [StoredRow] = []
        let query = RowQuery(batch: batch, reading: .everything, filter: .problems, limit: limit)
        try backend.forEachRow(query, undecodable: { throw $0 }) { rows.append($0) }
        return rows
    }

    /// The rows of these jobs of `batch`, in job order: the problems a streamed report kept.
    public func problems(batch: String, jobs: [Int]) throws -> [StoredRow] {
        var rows: [StoredRow] = []
        for job in jobs.sorted() {
            try backend.forEachRow(RowQuery(batch: batch, reading: .everything, filter: .job(job)), undecodable: { throw $0 }) { rows.append($0) }
        }
        return rows
    }

    /// The names of the batches the database holds rows or a record of, in order.
    public func batchNames() throws -> [String] {
        try backend.batchNames()
    }

    /// Every batch's record, by start time. A value another program stored that a field
    /// cannot hold throws, naming the column.
    public func batches() throws -> [BatchRecord] {
        try backend.batches()
    }

    /// The machines of a batch (or of every batch), by batch and host. A row another program
    /// wrote with values no record holds is read as well as it can be, never trapped on.
    public func machines(batch: String? = nil) throws -> [(batch: String, machine: MachineRecord)] {
        try backend.machines(batch: batch)
    }
}
