// The cluster end to end: real processes, real ZeroMQ sockets, real SQLite files.

import Foundation
import Testing

@Suite("gridlock batch and the cluster roles", .serialized)
struct BatchCommandTests {
    static func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every exported row, by job number.
    static func export(_ database: String) throws -> [Int: [String: Any]] {
        let output = try GridlockBinary.run(["export", database, "--format", "jsonl"])
        #expect(output.status == 0, "\(output.stderr)")
        var rows: [Int: [String: Any]] = [:]
        for line in output.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let job = try #require(object["job"] as? Int)
            #expect(rows[job] == nil, "job \(job) stored twice")
            rows[job] = object
        }
        return rows
    }

    @Test("a batch on the fixtures stores every job once, with the listed answers, and prints the tables")
    func fixtures() throws {
        let directory = try Self.temporaryDirectory()
        let database = directory.appendingPathComponent("results.sqlite").path
        let output = try GridlockBinary.run([
            "batch", "Tests/Fixtures/rushhour/fogleman_forty.txt", "Tests/Fixtures/rushhour/edge_cases.txt",
            "--solver", "bfs,bidirectional", "--workers", "2", "--db", database,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Beginner 15-20"))
        #expect(output.stdout.contains("time vs first"))
        let rows = try Self.export(database)
        #expect(rows.count == 94)
        for (_, row) in rows {
            for key in ["job", "puzzle", "solver", "status", "attempts", "worker", "seconds", "peakRSSBytes"] {
                #expect(row[key] != nil, "\(key)")
            }
            let expected = try #require(row["expectedMoves"] as? Int)
            #expect((row["moves"] as? Int ?? -1) == expected, "\(row)")
            #expect((row["peakRSSBytes"] as? Int ?? 0) > 0)
        }
    }

    @Test("invalid lines are reported with file, line and reason, counted, and the rest runs")
    func invalidLines() throws {
        let directory = try Self.temporaryDirectory()
        let file = directory.appendingPathComponent("mixed.txt")
        try "ooooooooooooAAoooooooooooooooooooooo\nooooooooooooAAoBoooooooooooooooooooo\n02 ooooooooooooooAAoooooooooooooooooooo 5\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        let output = try GridlockBinary.run(["batch", file.path, "--workers", "1", "--db", database])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("mixed.txt:2 [bfs] invalid"))
        #expect(output.stdout.contains("line 2, column 16"))
        let rows = try Self.export(database)
        #expect(rows.values.map { $0["status"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["invalid", "solved", "solved"])
    }

    @Test("2,000 jobs, 3 workers, one SIGKILLed and one stopped and resumed: every job stored once, right")
    func workersMisbehave() throws {
        let cluster = try ClusterHarness()
        // Every ninth board of the sample, 1 to 50 moves: a batch of seconds, not milliseconds.
        let lines = try ClusterHarness.sample(count: 2_000, start: 0, step: 9)
        let coordinatorLog = cluster.directory.appendingPathComponent("coordinator.log")
        try cluster.startSink()
        try cluster.startCoordinator(try cluster.write(lines), errorLog: coordinatorLog)
        // One worker alone first: once results arrive it surely holds a window of unsolved jobs.
        try cluster.startWorkers(1)
        try cluster.waitUntilStored(atLeast: 20)
        kill(cluster.workers[0].processIdentifier, SIGKILL)
        try cluster.startWorkers(2)
        try cluster.waitUntilStored(atLeast: 200)
        #expect(cluster.coordinator!.isRunning, "the batch should still be running")
        kill(cluster.workers[1].processIdentifier, SIGSTOP)
        Thread.sleep(forTimeInterval: 4.0)
        kill(cluster.workers[1].processIdentifier, SIGCONT)
        // The coordinator finishes only once the sink has acknowledged every job as stored.
        try cluster.finish()
        #expect(cluster.sink!.terminationStatus == 0)
        // The killed worker held jobs: they were re-issued, so the test really saw a loss.
        let summary = try String(contentsOf: coordinatorLog, encoding: .utf8)
        let reissued = summary.firstMatch(of: /(\d+) re-issued/).flatMap { Int($0.1) }
        #expect((reissued ?? 0) > 0, "\(summary)")
        try cluster.expectAllStored(lines)
    }
}

@Suite("gridlock batch when its workers die")
struct BatchWorkersGoneTests {
    @Test("if every worker process exits, the batch stops with the reason instead of waiting forever")
    func allWorkersKilled() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        // Every sixth board of the sample, from 1 to 50 moves: seconds of work, so the kill lands mid-batch.
        let lines = try ClusterHarness.sample(count: 3_000, start: 0, step: 6)
        let file = directory.appendingPathComponent("jobs.txt")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        let process = Process()
        process.executableURL = GridlockBinary.url
        process.arguments = ["batch", file.path, "--workers", "2", "--db", database]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The batch's children are its workers: kill them as soon as both are there.
        var children: [Int32] = []
        let deadline = Date(timeIntervalSinceNow: 30)
        while children.count < 2, Date() < deadline {
            usleep(20_000)
            children = try GridlockBinary.runTool("/usr/bin/pgrep", ["-P", "\(process.processIdentifier)"])
                .split(separator: "\n").compactMap { Int32($0) }
        }
        #expect(children.count == 2)
        for child in children { kill(child, SIGKILL) }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try GridlockBinary.wait(process, seconds: 30)
        #expect(process.terminationStatus != 0)
        #expect(message.contains("every worker process exited"), "\(message)")
        #expect(message.contains("--batch batch-"), "it says how to resume: \(message)")
    }
}
