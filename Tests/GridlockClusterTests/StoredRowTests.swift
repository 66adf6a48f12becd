// One stored result, one type: what the sink writes comes back field for field, whatever
// columns a reader asks for, and every reader judges a wrong answer by the one rule.

import Foundation
import GRDB
import GridlockCore
import GridlockWire
import Testing
@testable import GridlockCluster

@Suite struct StoredRowTests {
    /// A result with a value of its own in every column.
    static func distinctResult() -> JobResult {
        let job = Job(
            batch: "batch-x", id: 41, attempt: 2, kind: .tiles, puzzle: "1 2 3 4 5 6 0 7 8", solver: "astar", maxStates: 99,
            timeoutSeconds: nil, source: "tiles.txt:7", repetition: 3)
        var result = JobResult(answering: job, worker: WorkerIdentity(host: "host-y", pid: 555), status: .solved)
        result.moves = 2
        result.expectedMoves = 2
        result.solution = "7 left, 8 left"
        result.cluster = 13
        result.error = "a note"
        result.examined = 17
        result.enqueued = 19
        result.maxQueue = 23
        result.statesStored = 29
        result.memoryBytes = 31
        result.seconds = 0.37
        result.cpuSeconds = 0.41
        result.peakRSSBytes = 43
        result.verdict = .correct
        result.termination = .crashed
        result.solverStats = "{\"nodes\":47}"
        result.workerIdleRSSBytes = 53
        return result
    }

    @Test("every column reads back into its own field: a result stored and read with every column is the row it makes")
    func everyColumnReadsBack() throws {
        let store = try ResultStore(path: ResultColumnTests.temporaryPath())
        let result = Self.distinctResult()
        let before = Date().timeIntervalSince1970
        _ = try store.store([result])
        var rows: [StoredRow] = []
        try store.forEachRow(batch: nil, reading: .everything, undecodable: { Issue.record("\($0)") }) { rows.append($0) }
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row.storedAt >= before.rounded(.down) && row.storedAt <= Date().timeIntervalSince1970 + 1)
        var expected = StoredRow(
            batch: "batch-x", job: 41, kind: .tiles, puzzle: "1 2 3 4 5 6 0 7 8", solver: "astar", source: "tiles.txt:7", status: .solved,
            moves: 2, expectedMoves: 2, error: "a note", worker: "host-y:555", host: "host-y", seconds: 0.37, cpuSeconds: 0.41, examined: 17,
            statesStored: 29, memoryBytes: 31, peakRSSBytes: 43, workerIdleRSSBytes: 53, storedAt: row.storedAt, verdict: .correct,
            termination: .crashed, repetition: 3)
        expected.solution = "7 left, 8 left"
        expected.cluster = 13
        expected.attempts = 2
        expected.enqueued = 19
        expected.maxQueue = 23
        expected.fingerprint = result.fingerprint
        expected.solverStats = "{\"nodes\":47}"
        #expect(row == expected)
    }

    @Test("each reader's columns decode to the same values as every column does")
    func readingsAgree() throws {
        let store = try ResultStore(path: ResultColumnTests.temporaryPath())
        _ = try store.store([Self.distinctResult()])
        var full: StoredRow?
        try store.forEachRow(batch: "batch-x", reading: .everything, undecodable: { Issue.record("\($0)") }) { full = $0 }
        let whole = try #require(full)
        for (name, reading) in [("tables", StoredRow.Reading.tables), ("htmlReport", .htmlReport), ("timing", .timing)] {
            var read: StoredRow?
            try store.forEachRow(batch: "batch-x", reading: reading, undecodable: { Issue.record("\($0)") }) { read = $0 }
            let part = try #require(read)
            for column in reading.columns {
                #expect(JSONLine.encode(column.exported(part)) == JSONLine.encode(column.exported(whole)), "\(name): \(column.name)")
            }
        }
    }

    /// Rows whose answers differ in how they are wrong: stored wrong by the sink, right, and
    /// one stored before verdicts were (or edited since): its verdict says correct, its moves
    /// contradict the input's.
    static func judgedStore() throws -> ResultStore {
        let path = ResultColumnTests.temporaryPath()
        let store = try ResultStore(path: path)
        let results = (0..<4).map { number in
            let job = Job(batch: "b", id: number, attempt: 1, kind: .rushhour, puzzle: "p\(number)", solver: "bfs", maxStates: 9, timeoutSeconds: nil)
            var result = JobResult(answering: job, worker: WorkerIdentity(host: "h", pid: 1), status: .solved)
            result.moves = 5
            result.expectedMoves = number == 1 ? 6 : 5
            result.verdict = .correct
            result.seconds = 0.01
            result.cpuSeconds = 0.01
            return result
        }
        _ = try store.store(results)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE results SET expected_moves = 4 WHERE job = 2")
        }
        return store
    }

    @Test("one rule for wrong: the tally, the tables, the acknowledgements and compare count the same rows")
    func oneVerdictRule() throws {
        let store = try Self.judgedStore()
        var wrongRows: Set<Int> = []
        var report = BatchReport()
        try store.forEachRow(batch: "b", reading: .everything, undecodable: { Issue.record("\($0)") }) { row in
            if row.isWrong { wrongRows.insert(row.job) }
            report.add(row)
        }
        // Job 1: the sink judged it wrong; job 2: its verdict says correct, its moves do not.
        #expect(wrongRows == [1, 2])
        #expect(try store.tally(batch: "b").wrong == 2)
        #expect(Set(try store.storedJobs(batch: "b", from: 0, limit: 10).filter(\.wrong).map(\.job)) == wrongRows)
        let all = try #require(report.statistics.first { $0.band == "all" })
        #expect(all.wrong == 2)
        var timed: [Int] = []
        try store.forEachTimedRow(batch: "b", basis: .wall) { timed.append($0.job) }
        #expect(timed == [0, 3])
    }

    @Test("a tally groups rows by what decides them: counts past one a group, an unknown status as failed")
    func tallyGroups() throws {
        let path = ResultColumnTests.temporaryPath()
        let store = try ResultStore(path: path)
        _ = try store.store(StreamedReportTests.results(batch: "b"))
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "UPDATE results SET status = 'weird' WHERE job = 3") }
        var expected = BatchTally()
        try store.forEachRow(batch: "b", reading: .everything, undecodable: { _ in expected.add(status: .failed, wrong: false) }) {
            expected.add(status: $0.status, wrong: $0.isWrong)
        }
        #expect(try store.tally(batch: "b") == expected)
        #expect(expected.byStatus[.failed, default: 0] >= 1 && expected.wrong > 0 && expected.total == 120)
    }
}

extension StoredRowTests {
    @Test("no reader picks a results column by its position: every SELECT and decode come from ResultColumn's list")
    func noColumnReadByIndex() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 100, "the sources were not found at \(sources.path)")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("atIndex:"), "\(file.lastPathComponent) reads a column by its index")
        }
    }
}
