// Real roles as real processes on ipc:// endpoints in a private directory, for the reliability
// tests: start, kill, restart, and read what the sink stored.

import Foundation
import GridlockCluster
import Testing

final class ClusterHarness {
    let directory: URL
    let jobs: String
    let results: String
    let database: String
    let journal: String
    /// A shared cluster key every role is given unless a test gives its own (--keys,
    /// --key-file) or --insecure: the roles refuse to start with no keys.
    let keyFile: String
    var sink: Process?
    var coordinator: Process?
    var workers: [Process] = []

    init() throws {
        directory = try BatchCommandTests.temporaryDirectory()
        jobs = "ipc://\(directory.path)/jobs"
        results = "ipc://\(directory.path)/results"
        database = directory.appendingPathComponent("results.sqlite").path
        journal = directory.appendingPathComponent("coordinator.journal").path
        keyFile = directory.appendingPathComponent("harness.key").path
        let digits = (0..<32).map { _ in String(Int.random(in: 0..<16), radix: 16) }.joined()
        _ = FileManager.default.createFile(atPath: keyFile, contents: Data(digits.utf8), attributes: [.posixPermissions: 0o600])
    }

    /// The key flags for a role: the harness's shared key unless `extra` chooses.
    func keyFlags(_ extra: [String]) -> [String] {
        extra.contains { ["--keys", "--key-file", "--insecure"].contains($0) } ? [] : ["--key-file", keyFile]
    }

    deinit {
        for process in workers + [sink, coordinator].compactMap({ $0 }) where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// Writes `lines` to a puzzle file and returns its path.
    func write(_ lines: [String], to name: String = "jobs.txt") throws -> String {
        let file = directory.appendingPathComponent(name)
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Lines of the bundled database sample, every `step`-th from `start`.
    static func sample(count: Int, start: Int = 0, step: Int = 1) throws -> [String] {
        let text = try String(
            contentsOfFile: GridlockBinary.repository.appendingPathComponent("data/rushhour/rush_18k.txt").path, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        return stride(from: start, to: lines.count, by: step).prefix(count).map { lines[$0] }
    }

    func startSink(extra: [String] = [], errorLog: URL? = nil) throws {
        sink = try GridlockBinary.start(["sink", "--bind", results, "--coordinator", jobs, "--db", database] + keyFlags(extra) + extra, errorLog: errorLog)
    }

    func startCoordinator(_ file: String, extra: [String] = [], errorLog: URL? = nil) throws {
        coordinator = try GridlockBinary.start([
            "coordinator", file, "--batch", "test", "--bind", jobs, "--sink", results, "--journal", journal,
        ] + keyFlags(extra) + extra, errorLog: errorLog)
    }

    func startWorkers(_ count: Int, extra: [String] = [], environment: [String: String] = [:], errorLog: URL? = nil) throws {
        for _ in 0..<count {
            workers.append(try GridlockBinary.start(
                ["worker", "--coordinator", jobs, "--sink", results, "--exit-when-drained"] + keyFlags(extra) + extra, environment: environment,
                errorLog: errorLog))
        }
    }

    /// Waits for the coordinator to finish the batch (with `status`: 2 when a job failed), then
    /// stops the sink cleanly.
    func finish(seconds: Double = 120, status: Int32 = 0) throws {
        try GridlockBinary.wait(coordinator!, seconds: seconds)
        #expect(coordinator!.terminationStatus == status)
        kill(sink!.processIdentifier, SIGTERM)
        try GridlockBinary.wait(sink!, seconds: 10)
    }

    /// Waits until the sink has stored at least `count` rows, so a test acts mid-batch by what
    /// has happened rather than by how long it slept.
    func waitUntilStored(atLeast count: Int, seconds: Double = 60) throws {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while try GridlockBinary.run(["export", database, "--format", "jsonl"]).stdout.count(where: { $0 == "\n" }) < count {
            if Date() > deadline { throw GridlockBinary.Timeout() }
            usleep(20_000)
        }
    }

    /// Every stored row by job, checking that none is stored twice.
    func rows() throws -> [Int: [String: Any]] {
        try BatchCommandTests.export(database)
    }

    /// Checks every job of `lines` was stored once with the file's move count.
    func expectAllStored(_ lines: [String]) throws {
        let rows = try rows()
        #expect(rows.count == lines.count)
        for (index, line) in lines.enumerated() {
            #expect(rows[index]?["moves"] as? Int == Int(line.split(separator: " ")[0]), "job \(index)")
        }
    }
}

extension ClusterHarness {
    /// The environment that turns one fault hook on (Sources/GridlockCluster/FaultInjection.swift),
    /// once this build is known to have the hooks: without them a test would pass or fail for
    /// the wrong reason.
    static func faults(_ mode: String) throws -> [String: String] {
        try #require(FaultInjection.compiledIn, "this build has no fault hooks: build with -Xswiftc -DGRIDLOCK_FAULT_INJECTION, as scripts/test does")
        return ["GRIDLOCK_FAULT_INJECTION": mode]
    }
}
