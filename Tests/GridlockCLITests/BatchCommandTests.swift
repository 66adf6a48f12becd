// The cluster end to end: real processes, real ZeroMQ sockets, real SQLite files.

import Foundation
import GridlockCluster
import GridlockWire
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
        #expect(output.stdout.contains("wall vs first"))
        // The tables folded while the rows were stored are the tables the rows give.
        let report = try GridlockBinary.run(["report", database])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(output.stdout == report.stdout)
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

    @Test("batches without --batch, started within one second on one database, get names of their own")
    func defaultNamesDoNotCollide() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("r.sqlite").path
        let puzzle = "00 ooooooooooooooooAAoooooooooooooooooo"
        // Batches named as a default name would be in each of the next 60 seconds, then one of
        // another input, by default: its name is taken already.
        let now = Date()
        let store = try ResultStore(path: db)
        for offset in 0..<60 {
            let name = "batch-" + BatchRecord.timestamp(now.addingTimeInterval(Double(offset)))
            try store.record(BatchRecord.current(batch: name, solvers: ["bfs"], jobs: 0))
        }
        let output = try GridlockBinary.run(["batch", "-", "--workers", "1", "--db", db], stdin: puzzle + "\n")
        #expect(output.status == 0, "the batch named by default: \(output.stderr)")
        #expect(Date().timeIntervalSince(now) < 60, "the run took longer than the names cover: the test proves nothing")
        let report = try GridlockBinary.run(["report", db, "--format", "json"])
        let batches = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])["batches"] as? [[String: Any]]
        #expect(batches?.count == 61, "\(report.stdout.prefix(400))")
    }

    @Test("a batch name with control characters is refused before anything runs; a binary input is refused, named, and a broken picture too")
    func unsafeNamesAndBinaryInputAreRefused() throws {
        let directory = try Self.temporaryDirectory()
        let database = directory.appendingPathComponent("r.sqlite").path
        let named = try GridlockBinary.run(["batch", "data/samples/unblockme.txt", "--batch", "red\u{1B}[31m\rname", "--db", database])
        #expect(named.status == 64)
        #expect(named.stderr.contains("--batch must not hold control characters (it was 'red\\u{1B}[31m\\u{D}name')"))
        #expect(!FileManager.default.fileExists(atPath: database))
        let binary = directory.appendingPathComponent("data.bin")
        try Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0, 0, 0, 0x0D]).write(to: binary)
        let refused = try GridlockBinary.run(["batch", binary.path, "--workers", "1", "--db", database])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(binary.path) is not text: byte 8 is a NUL"), "\(refused.stderr)")
        // A file that starts as a PNG is a picture (gridlock scan): broken, it is named and why.
        let picture = directory.appendingPathComponent("image.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]).write(to: picture)
        let broken = try GridlockBinary.run(["batch", picture.path, "--workers", "1", "--db", database])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("\(picture.path): the picture could not be read as a puzzle: libpng could not read the image"), "\(broken.stderr)")
    }

    @Test("invalid lines are reported with file, line and reason, counted, and the rest runs")
    func invalidLines() throws {
        let directory = try Self.temporaryDirectory()
        let file = directory.appendingPathComponent("mixed.txt")
        try "ooooooooooooAAoooooooooooooooooooooo\nooooooooooooAAoBoooooooooooooooooooo\n01 ooooooooooooooAAoooooooooooooooooooo 5\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        let output = try GridlockBinary.run(["batch", file.path, "--workers", "1", "--db", database])
        #expect(output.status == 1, "invalid input exits 1: \(output.stderr)")
        #expect(output.stderr.contains("1 invalid"), "\(output.stderr)")
        #expect(output.stdout.contains("mixed.txt:2 [bfs] invalid"))
        #expect(output.stdout.contains("line 2, column 16"))
        let rows = try Self.export(database)
        #expect(rows.values.map { $0["status"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["invalid", "solved", "solved"])
    }

    @Test("an answer that disagrees with the input's is counted wrong, shown in the tables, and exits 3")
    func wrongAnswers() throws {
        let directory = try Self.temporaryDirectory()
        let file = directory.appendingPathComponent("wrong.txt")
        // The first line's answer is 1 move; the second claims 2 for the same board.
        try "01 ooooooooooooooAAoooooooooooooooooooo 5\n02 ooooooooooooooAAoooooooooooooooooooo 5\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        let output = try GridlockBinary.run(["batch", file.path, "--workers", "1", "--db", database, "--format", "csv"])
        #expect(output.status == 3, "\(output.stderr)")
        #expect(output.stderr.contains("1 wrong"), "\(output.stderr)")
        let header = try #require(output.stdout.split(separator: "\n").first).split(separator: ",")
        let all = try #require(output.stdout.split(separator: "\n").first { $0.contains(",all,") }).split(separator: ",")
        let wrongColumn = try #require(header.firstIndex(of: "wrong"))
        #expect(all[wrongColumn] == "1")
        let rows = try Self.export(database)
        #expect(rows[1]?["expectedMoves"] as? Int == 2)
        #expect(rows[1]?["moves"] as? Int == 1)
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
        // Each job takes at least 5 ms, so that the batch outlasts the faults in a release build.
        let paced = try ClusterHarness.faults("pace:5")
        try cluster.startWorkers(1, environment: paced)
        try cluster.waitUntilStored(atLeast: 20)
        kill(cluster.workers[0].processIdentifier, SIGKILL)
        try cluster.startWorkers(2, environment: paced)
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

@Suite("gridlock batch when its workers die", .serialized)
struct BatchWorkersGoneTests {
    /// The batch's worker processes: its children that run as `gridlock worker`.
    static func children(of process: Process) throws -> [Int32] {
        try GridlockBinary.runTool("/usr/bin/pgrep", ["-P", "\(process.processIdentifier)"])
            .split(separator: "\n").compactMap { Int32($0) }
            .filter { isWorker($0) }
    }

    static func isWorker(_ pid: Int32) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return data.split(separator: 0).dropFirst().first.map { String(decoding: $0, as: UTF8.self) } == "worker"
    }

    /// The batch's workers once `count` are running (expected by `deadline`).
    static func waitForWorkers(_ count: Int, of process: Process, until deadline: Date) throws -> [Int32] {
        var children: [Int32] = []
        while children.count < count, Date() < deadline {
            usleep(20_000)
            children = try Self.children(of: process)
        }
        #expect(children.count == count)
        return children
    }

    /// SIGKILLs both of the process's 2 workers at once, then waits for two replacements: two
    /// children again, none of them the killed ones.
    static func killWorkersAndWaitForReplacements(of process: Process, until deadline: Date) throws {
        let children = try waitForWorkers(2, of: process, until: deadline)
        for child in children { kill(child, SIGKILL) }
        var replacements: [Int32] = []
        while replacements.count < 2, Date() < deadline, process.isRunning {
            usleep(20_000)
            replacements = try Self.children(of: process).filter { !children.contains($0) }
        }
        #expect(replacements.count == 2, "the killed workers were not replaced")
    }

    @Test("SIGKILLed workers are replaced: the batch finishes with 2 workers and every job stored once")
    func killedWorkersAreReplaced() throws {
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
        let deadline = Date(timeIntervalSinceNow: 30)
        try Self.killWorkersAndWaitForReplacements(of: process, until: deadline)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try GridlockBinary.wait(process, seconds: 120)
        #expect(process.terminationStatus == 0, "\(message)")
        #expect(message.contains("2 worker restarts"), "\(message)")
        let rows = try BatchCommandTests.export(database)
        #expect(rows.count == lines.count)
        for (index, line) in lines.enumerated() {
            #expect(rows[index]?["moves"] as? Int == Int(line.split(separator: " ")[0]), "job \(index)")
        }
    }

    @Test("a worker pool whose workers are all SIGKILLed at once starts them again, and does not exit")
    func poolReplacesWorkersKilledTogether() throws {
        // No coordinator at these addresses: the workers wait for one, doing nothing, until killed.
        let pool = try GridlockBinary.start([
            "worker", "--insecure", "--coordinator", "tcp://127.0.0.1:1", "--sink", "tcp://127.0.0.1:2", "--workers", "2",
            "--exit-when-drained",
        ])
        defer { if pool.isRunning { pool.terminate() }; pool.waitUntilExit() }
        let deadline = Date(timeIntervalSinceNow: 30)
        // Within one of the pool's checks: it once took both for workers that had exited cleanly.
        try Self.killWorkersAndWaitForReplacements(of: pool, until: deadline)
        #expect(pool.isRunning, "the pool exited with its workers killed")
    }

    @Test("a batch killed outright takes its workers with it: none is left retrying its coordinator")
    func workersDieWithTheirBatch() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let file = directory.appendingPathComponent("jobs.txt")
        try (try ClusterHarness.sample(count: 3_000, start: 0, step: 6).joined(separator: "\n") + "\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = GridlockBinary.url
        process.arguments = ["batch", file.path, "--workers", "2", "--db", directory.appendingPathComponent("r.sqlite").path]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let children = try Self.waitForWorkers(2, of: process, until: Date(timeIntervalSinceNow: 30))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Orphans would be re-parented and live on; kill(pid, 0) fails once a pid is gone.
        let gone = Date(timeIntervalSinceNow: 10)
        while children.contains(where: { kill($0, 0) == 0 && !Self.isZombie($0) }), Date() < gone { usleep(20_000) }
        let left = children.filter { kill($0, 0) == 0 && !Self.isZombie($0) }
        for pid in left { kill(pid, SIGKILL) }
        #expect(left.isEmpty, "workers \(left) outlived their batch")
        // Its socket directory stays behind until the next batch removes it (a batch of another
        // test, running beside this one, may be that next batch).
        let killed = "gridlock-\(process.processIdentifier)-"
        let abandoned = { try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { $0.hasPrefix(killed) } }
        #expect(try abandoned().count <= 1)
        let tiny = directory.appendingPathComponent("tiny.txt")
        try "01 ooooooooooooAAoooooooooooooooooooooo 5\n".write(to: tiny, atomically: true, encoding: .utf8)
        let next = try GridlockBinary.run(["batch", tiny.path, "--workers", "1", "--db", directory.appendingPathComponent("next.sqlite").path])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try abandoned().isEmpty)
    }

    /// Whether a process has exited and waits to be reaped (its state letter is Z).
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }

    @Test("workers that crash at start-up stop the batch with the reason within 10 s, instead of looping")
    func crashingWorkersStopTheBatch() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let file = directory.appendingPathComponent("jobs.txt")
        try (try ClusterHarness.sample(count: 50).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let started = Date()
        let output = try GridlockBinary.run(
            ["batch", file.path, "--workers", "2", "--db", directory.appendingPathComponent("r.sqlite").path, "--batch", "crashy"],
            environment: try ClusterHarness.faults("crash-at-start"))
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(output.status != 0)
        #expect(output.stderr.contains("died 5 times in a row"), "\(output.stderr)")
        #expect(output.stderr.contains("--batch crashy resumes"), "\(output.stderr)")
    }
}
