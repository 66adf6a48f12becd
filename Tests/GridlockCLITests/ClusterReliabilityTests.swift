// What happens when machines misbehave: a sink or coordinator killed and restarted, a job that
// hangs every time, and junk sent to every bound socket. Nothing lost, nothing doubled.

import Foundation
import GridlockWire
import Testing
import ZeroMQ

@Suite("Cluster reliability", .serialized)
struct ClusterReliabilityTests {
    /// Puzzles of 20-30 moves: each takes milliseconds in a debug build, so a batch of a few
    /// hundred is still running when the test pulls the plug.
    static func mediumLines(_ count: Int) throws -> [String] {
        try ClusterHarness.sample(count: count, start: 9_000, step: 7)
    }

    /// Workers that take at least 10 ms a job: 400 jobs on two last 2 s, long enough to kill a
    /// role mid-batch in a release build too (its bfs answers them all in a fraction of that).
    static func pacedWorkers() throws -> [String: String] {
        try ClusterHarness.faults("pace:10")
    }

    @Test("the sink killed and restarted mid-batch: nothing lost, nothing doubled")
    func sinkRestart() throws {
        let cluster = try ClusterHarness()
        let lines = try Self.mediumLines(400)
        try cluster.startSink()
        try cluster.startCoordinator(try cluster.write(lines), extra: ["--store-timeout", "2"])
        try cluster.startWorkers(2, environment: try Self.pacedWorkers())
        try cluster.waitUntilStored(atLeast: 20)
        #expect(cluster.coordinator!.isRunning, "the batch should still be running")
        kill(cluster.sink!.processIdentifier, SIGKILL)
        try GridlockBinary.wait(cluster.sink!, seconds: 5)
        Thread.sleep(forTimeInterval: 0.5)
        try cluster.startSink()
        try cluster.finish()
        try cluster.expectAllStored(lines)
    }

    @Test("a worker that stays after a batch is drained (no --exit-when-drained) takes the next batch's jobs")
    func poolWorkerServesTheNextBatch() throws {
        let cluster = try ClusterHarness()
        try cluster.startSink()
        cluster.workers.append(try GridlockBinary.start(["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--key-file", cluster.keyFile]))
        try cluster.startCoordinator(try cluster.write(try ClusterHarness.sample(count: 30), to: "first.txt"))
        try GridlockBinary.wait(cluster.coordinator!, seconds: 60)
        #expect(cluster.coordinator!.terminationStatus == 0)
        // The next batch at the same address, with no other worker: it ends only if the one
        // that was told the first is drained asks again.
        let next = try cluster.write(try ClusterHarness.sample(count: 30, start: 500), to: "next.txt")
        cluster.coordinator = try GridlockBinary.start([
            "coordinator", next, "--batch", "next", "--bind", cluster.jobs, "--sink", cluster.results,
            "--journal", cluster.directory.appendingPathComponent("next.journal").path, "--key-file", cluster.keyFile,
        ])
        try GridlockBinary.wait(cluster.coordinator!, seconds: 30)
        #expect(cluster.coordinator!.terminationStatus == 0)
        #expect(cluster.workers[0].isRunning, "the worker stays for further batches")
    }

    @Test("the coordinator killed and restarted mid-batch completes without re-solving stored jobs")
    func coordinatorRestart() throws {
        let cluster = try ClusterHarness()
        let lines = try Self.mediumLines(400)
        let file = try cluster.write(lines)
        try cluster.startSink()
        try cluster.startCoordinator(file)
        try cluster.startWorkers(2, environment: try Self.pacedWorkers())
        try cluster.waitUntilStored(atLeast: 20)
        #expect(cluster.coordinator!.isRunning, "the batch should still be running")
        kill(cluster.coordinator!.processIdentifier, SIGKILL)
        try GridlockBinary.wait(cluster.coordinator!, seconds: 5)
        let storedBefore = try cluster.rows()
        try cluster.startCoordinator(file)
        try cluster.finish()
        try cluster.expectAllStored(lines)
        // Jobs stored before the restart keep their first result: attempt 1, same worker.
        let after = try cluster.rows()
        for (job, row) in storedBefore {
            #expect(after[job]?["worker"] as? String == row["worker"] as? String)
            #expect(after[job]?["attempts"] as? Int == row["attempts"] as? Int)
        }
        #expect(storedBefore.count > 0 && storedBefore.count < lines.count)
    }

    @Test("the coordinator exits 3 when a stored answer disagrees with the input's, and says so")
    func coordinatorCountsWrongAnswers() throws {
        let cluster = try ClusterHarness()
        var lines = try ClusterHarness.sample(count: 20, start: 3_000, step: 3)
        // One line claims one move more than its board needs.
        let parts = lines[7].split(separator: " ", maxSplits: 1)
        lines[7] = String(format: "%02d", Int(parts[0])! + 1) + " " + parts[1]
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("coordinator-\(UUID().uuidString).log")
        try cluster.startSink()
        try cluster.startCoordinator(try cluster.write(lines), errorLog: log)
        try cluster.startWorkers(1)
        try cluster.finish(status: 3)
        let stderr = try String(contentsOf: log, encoding: .utf8)
        #expect(stderr.contains("1 wrong"), "\(stderr)")
    }

    @Test("a job that hangs every time ends as failed after its attempts, with the reason; the rest completes")
    func poisonJob() throws {
        let cluster = try ClusterHarness()
        var lines = try ClusterHarness.sample(count: 60, start: 3_000, step: 3)
        let poisonIndex = 10
        lines[poisonIndex] += " POISON"
        try cluster.startSink()
        try cluster.startCoordinator(try cluster.write(lines), extra: ["--timeout", "0.5", "--attempts", "2"])
        try cluster.startWorkers(3, environment: try ClusterHarness.faults("hang-on-poison"))
        // The failed job makes the coordinator exit 2, as `batch` would: it learns how every
        // stored job ended from the sink's acknowledgements.
        try cluster.finish(seconds: 60, status: 2)
        let rows = try cluster.rows()
        #expect(rows.count == lines.count)
        let poison = try #require(rows[poisonIndex])
        #expect(poison["status"] as? String == "failed")
        #expect((poison["error"] as? String)?.contains("overran its time limit of 0.5 s") == true)
        #expect((poison["error"] as? String)?.contains("2 attempts") == true)
        for (job, row) in rows where job != poisonIndex {
            #expect(row["status"] as? String == "solved", "job \(job): \(row)")
        }
    }

    @Test("a worker whose coordinator never speaks exits cleanly after its silence limit, saying why")
    func workerLeavesASilentCoordinator() throws {
        let cluster = try ClusterHarness()
        let started = Date()
        let log = cluster.directory.appendingPathComponent("worker.log")
        let worker = try GridlockBinary.start(
            ["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "1", "--insecure"], errorLog: log)
        // Without the rule the worker waits for ever: killed after 15 s, and the test fails.
        try GridlockBinary.wait(worker, seconds: 15)
        let stderr = try String(contentsOf: log, encoding: .utf8)
        #expect(worker.terminationStatus == 0)
        #expect(stderr.contains("nothing heard from the coordinator at \(cluster.jobs) for 1.0 s"), "\(stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
        let refused = try GridlockBinary.run(["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "-1", "--insecure"])
        #expect(refused.status == 64)
    }

    @Test("a worker that hears nothing from its coordinator says so, with the address, every 5 s while it keeps trying")
    func workerSaysItHearsNothing() throws {
        let cluster = try ClusterHarness()
        let log = cluster.directory.appendingPathComponent("worker.log")
        let worker = try GridlockBinary.start(
            ["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "6", "--insecure"], errorLog: log)
        try GridlockBinary.wait(worker, seconds: 20)
        let stderr = try String(contentsOf: log, encoding: .utf8)
        // Without the notice the first line about the coordinator is the one it leaves with, at 6 s.
        #expect(stderr.contains("nothing heard from the coordinator at \(cluster.jobs) for 5 s; still trying (is it running"), "\(stderr)")
        #expect(stderr.contains("for 6.0 s; it is gone"), "\(stderr)")
    }

    @Test("a supervised worker exits when its supervisor's end of its standard input closes, with no parent-death signal")
    func workerWatchesItsLifeline() throws {
        let cluster = try ClusterHarness()
        let worker = Process()
        worker.executableURL = GridlockBinary.url
        worker.arguments = ["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--insecure"]
        // This test process poses as the supervisor; it stays alive, so only the pipe can tell.
        worker.environment = ProcessInfo.processInfo.environment.merging(["GRIDLOCK_SUPERVISOR_PID": "\(getpid())"]) { $1 }
        worker.standardError = FileHandle.nullDevice
        let lifeline = Pipe()
        worker.standardInput = lifeline
        try worker.run()
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        usleep(1_000_000)
        #expect(worker.isRunning)
        try lifeline.fileHandleForWriting.close()
        // Without the pipe check it runs until its 120 s silence limit: killed after 10 s, and
        // the test fails.
        try GridlockBinary.wait(worker, seconds: 10)
    }

    @Test("with a key file, a worker without it is handed no job and says why it leaves; one with it completes the batch")
    func workersNeedTheKey() throws {
        let cluster = try ClusterHarness()
        let key = cluster.directory.appendingPathComponent("cluster.key").path
        #expect(try GridlockBinary.run(["key", key]).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try GridlockBinary.run(["key", key])
        #expect(again.status != 0 && again.stderr.contains("it exists"), "\(again.stderr)")
        // An endless device, or a FIFO that no one writes, is refused at once, not read.
        let endless = try GridlockBinary.run(["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--key-file", "/dev/zero"])
        #expect(endless.status == 64 && endless.stderr.contains("/dev/zero: it is a device, not a file"), "\(endless.stderr)")
        let fifo = cluster.directory.appendingPathComponent("fifo.key").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let blocked = try GridlockBinary.run(["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--key-file", fifo])
        #expect(blocked.status == 64 && blocked.stderr.contains("it is a FIFO, not a file"), "\(blocked.stderr)")
        let emptyKey = cluster.directory.appendingPathComponent("empty.key").path
        _ = FileManager.default.createFile(atPath: emptyKey, contents: Data())
        let empty = try GridlockBinary.run(["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--key-file", emptyKey])
        #expect(empty.status == 64 && empty.stderr.contains("must hold one key"), "\(empty.stderr)")
        let lines = try ClusterHarness.sample(count: 40)
        try cluster.startSink(extra: ["--key-file", key])
        try cluster.startCoordinator(try cluster.write(lines), extra: ["--key-file", key])
        let outsiderLog = cluster.directory.appendingPathComponent("outsider.log")
        let outsider = try GridlockBinary.start(
            ["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "2", "--insecure"], errorLog: outsiderLog)
        try GridlockBinary.wait(outsider, seconds: 15)
        #expect(try cluster.rows().isEmpty)
        let said = try String(contentsOf: outsiderLog, encoding: .utf8)
        #expect(said.contains("does the coordinator need --keys or a --key-file"), "\(said)")
        // A key others can read still works, with a warning.
        chmod(key, 0o644)
        let insiderLog = cluster.directory.appendingPathComponent("insider.log")
        try cluster.startWorkers(1, extra: ["--key-file", key], errorLog: insiderLog)
        try cluster.finish()
        try cluster.expectAllStored(lines)
        #expect(try String(contentsOf: insiderLog, encoding: .utf8).contains("can be read by other users (mode 644)"))
    }

    @Test("a coordinator stopped by SIGTERM before the end exits 143, told apart from cut-off jobs (2), and says how to resume")
    func coordinatorStoppedBySignal() throws {
        let cluster = try ClusterHarness()
        let log = cluster.directory.appendingPathComponent("coordinator.log")
        try cluster.startCoordinator(try cluster.write(try ClusterHarness.sample(count: 5)), errorLog: log)
        let deadline = Date(timeIntervalSinceNow: 20)
        while !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("bound"), Date() < deadline { usleep(20_000) }
        kill(cluster.coordinator!.processIdentifier, SIGTERM)
        try GridlockBinary.wait(cluster.coordinator!, seconds: 10)
        #expect(cluster.coordinator!.terminationStatus == 143)
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(said.contains("stopped before the end by SIGTERM") && said.contains("--batch test to resume"), "\(said)")
    }

    @Test("a coordinator whose sink never speaks stops with exit 1 at --sink-silence-limit, naming both endpoints; a bad limit is refused")
    func silentSinkStopsTheCoordinator() throws {
        let cluster = try ClusterHarness()
        let input = try cluster.write(["00 ooooooooooooooooAAoooooooooooooooooo 5"])
        let started = Date()
        let run = try GridlockBinary.run([
            "coordinator", input, "--batch", "nosink", "--bind", cluster.jobs, "--sink", cluster.results, "--sink-silence-limit", "2", "--insecure",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(run.stderr.contains("no sink has said anything in 2 s") && run.stderr.contains(cluster.jobs) && run.stderr.contains(cluster.results), "\(run.stderr)")
        let refused = try GridlockBinary.run(["coordinator", input, "--batch", "nosink", "--sink", cluster.results, "--sink-silence-limit", "-1", "--insecure"])
        #expect(refused.status == 64 && refused.stderr.contains("--sink-silence-limit"), "\(refused.stderr)")
        for (flag, value) in [("--lease-limit", "0.5"), ("--lease-limit", "-1"), ("--lease-limit", "604801"), ("--quarantine-after", "-1"), ("--quarantine-after", "1001"),
                              ("--max-peers", "-1"), ("--max-peers", "1000001"), ("--max-peers", "lots")] {
            let bad = try GridlockBinary.run(["coordinator", input, "--batch", "nosink", "--sink", cluster.results, flag, value, "--insecure"])
            #expect(bad.status == 64 && bad.stderr.contains(flag), "\(flag) \(value): \(bad.stderr)")
        }
    }

    @Test("a worker without a connection to its sink warns, naming it, and exits at --sink-silence-limit; one whose keys the sink refuses says so")
    func workerWithoutItsSinkExits() throws {
        let cluster = try ClusterHarness()
        let started = Date()
        let alone = try GridlockBinary.run([
            "worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "0", "--sink-silence-limit", "6", "--insecure",
        ])
        #expect(alone.status == 0 && Date().timeIntervalSince(started) < 20, "\(alone.stderr)")
        #expect(alone.stderr.contains("no connection to the sink at \(cluster.results) for 5 s, so results wait here"), "\(alone.stderr)")
        #expect(alone.stderr.contains("so this worker exits (--sink-silence-limit)"), "\(alone.stderr)")
        // A sink of other keys: the handshake fails, and the worker says why.
        let keys = cluster.directory.appendingPathComponent("keys").path
        let strangers = cluster.directory.appendingPathComponent("strangers").path
        #expect(try GridlockBinary.run(["keys", "generate", keys]).status == 0)
        #expect(try GridlockBinary.run(["keys", "generate", strangers]).status == 0)
        try cluster.startSink(extra: ["--keys", keys])
        let refused = try GridlockBinary.run([
            "worker", "--keys", strangers, "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "0",
            "--sink-silence-limit", "6",
        ])
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("no connection to the sink") && refused.stderr.contains("--keys"), "\(refused.stderr)")
        // The sink's own public key but a worker key it does not list: its ZAP handler refuses
        // the handshake, and the worker says that it was refused (libzmq then stops trying).
        let outsider = cluster.directory.appendingPathComponent("outsider").path
        try FileManager.default.copyItem(atPath: keys, toPath: outsider)
        try FileManager.default.removeItem(atPath: "\(outsider)/worker.key")
        try FileManager.default.copyItem(atPath: "\(strangers)/worker.key", toPath: "\(outsider)/worker.key")
        let allowed = try String(contentsOfFile: "\(outsider)/allowed", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("worker ") }
        let strangerLine = try String(contentsOfFile: "\(strangers)/allowed", encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("worker ") }
        try (allowed + strangerLine).joined(separator: "\n").appending("\n").write(toFile: "\(outsider)/allowed", atomically: true, encoding: .utf8)
        let unlisted = try GridlockBinary.run([
            "worker", "--keys", outsider, "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "0",
            "--sink-silence-limit", "6",
        ])
        #expect(unlisted.status == 0 && unlisted.stderr.contains("refused this worker's handshake"), "\(unlisted.stderr)")
        let bad = try GridlockBinary.run(["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--sink-silence-limit=-1", "--insecure"])
        #expect(bad.status == 64 && bad.stderr.contains("--sink-silence-limit"), "\(bad.stderr)")
    }

    @Test("the coordinator binds loopback by default, not every interface")
    func bindsLoopbackByDefault() throws {
        let cluster = try ClusterHarness()
        let log = cluster.directory.appendingPathComponent("coordinator.log")
        let coordinator = try GridlockBinary.start(
            ["coordinator", try cluster.write(["00 ooooooooooooooooAAoooooooooooooooooo 5"]), "--batch", "loopback", "--sink", cluster.results, "--insecure"],
            errorLog: log)
        defer { kill(coordinator.processIdentifier, SIGKILL) }
        let deadline = Date(timeIntervalSinceNow: 20)
        var text = ""
        while !text.contains("bound"), Date() < deadline {
            usleep(20_000)
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        #expect(text.contains("coordinator: bound tcp://127.0.0.1:5555"), "\(text)")
    }

    @Test("10,000 random and truncated frames to every bound socket: no crash, and the batch goes on")
    func junkFrames() throws {
        let cluster = try ClusterHarness()
        let lines = try ClusterHarness.sample(count: 300, start: 500, step: 5)
        try cluster.startSink()
        try cluster.startCoordinator(try cluster.write(lines))
        try cluster.startWorkers(1)
        let context = try ZMQContext()
        let coordinator = try ZMQSocket(context, .dealer)
        try coordinator.set(.lingerMilliseconds(0))
        try coordinator.connect(cluster.jobs)
        let sink = try ZMQSocket(context, .push)
        try sink.set(.lingerMilliseconds(0))
        try sink.connect(cluster.results)
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let valid = WireMessage.stored(batch: "test", jobs: [1, 2, 3].map { StoredJob(job: $0, fingerprint: JobFingerprint(7)) }).encoded()
        for round in 0..<10_000 {
            var frames: [[UInt8]] = (0..<Int(1 + next() % 3)).map { _ in (0..<Int(next() % 48)).map { _ in UInt8(truncatingIfNeeded: next()) } }
            if round % 3 == 0 { frames = [Array(valid.prefix(Int(next() % UInt64(valid.count))))] }
            if round % 5 == 0, !frames[0].isEmpty { frames[0].replaceSubrange(0..<min(4, frames[0].count), with: [0x47, 0x4C, WireProtocol.version, UInt8(next() % 13)].prefix(min(4, frames[0].count))) }
            _ = try coordinator.send(frames, dontWait: true)
            _ = try sink.send(frames, dontWait: true)
        }
        coordinator.close()
        sink.close()
        context.terminate()
        try cluster.finish()
        #expect(cluster.sink!.terminationStatus == 0)
        try cluster.expectAllStored(lines)
    }
}
