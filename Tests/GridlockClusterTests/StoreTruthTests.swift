// The store tells the truth: a write to a database that is no longer the file at its path
// fails, so the sink acknowledges nothing that went to a deleted or replaced file.

import Foundation
import GridlockClusterBase
import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct StoreTruthTests {
    static func result(_ job: Int) -> JobResult {
        let job = Job(batch: "b", id: job, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil)
        return JobResult(answering: job, worker: WorkerIdentity(host: "h", pid: 1), status: .solved)
    }

    @Test("a write after the database file was deleted throws, naming the file")
    func deletedDatabaseFails() throws {
        let path = ResultColumnTests.temporaryPath()
        let store = try ResultStore(path: path)
        #expect(try store.store([Self.result(0)]).inserted == 1)
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let error = #expect(throws: ClusterError.self) { try store.store([Self.result(1)]) }
        #expect(error?.description.contains("\(path) was deleted") == true)
    }

    @Test("a write after another file took the database's path throws")
    func replacedDatabaseFails() throws {
        let path = ResultColumnTests.temporaryPath()
        let store = try ResultStore(path: path)
        let other = ResultColumnTests.temporaryPath()
        _ = try ResultStore(path: other)
        #expect(rename(other, path) == 0)
        let error = #expect(throws: ClusterError.self) { try store.store([Self.result(0)]) }
        #expect(error?.description.contains("was replaced") == true)
    }
}
