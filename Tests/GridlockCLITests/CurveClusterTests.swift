// CURVE across the roles, as real processes: `keys generate`, then a batch that only listed
// keys may take part in. The insider here holds a real worker key and real leases, and still
// cannot store a result for a job that was never leased to it.

import Foundation
import GridlockWire
import Testing
import ZeroMQ

@Suite("CURVE cluster", .serialized)
struct CurveClusterTests {
    /// A key pair file as `keys generate` writes it.
    static func keyPair(_ path: String) throws -> CurveKeyPair {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let secret = text.split(separator: "\n").first { $0.hasPrefix("secret = ") }.flatMap { CurveKey(z85: $0.dropFirst("secret = ".count)) }
        return try #require(secret.flatMap(CurveKeyPair.init(secretKey:)))
    }

    static func serverKey(_ role: String, in allowlist: String) throws -> CurveKey {
        let text = try String(contentsOfFile: allowlist, encoding: .utf8)
        let line = text.split(separator: "\n").first { $0.hasPrefix("\(role) ") }
        return try #require(line.flatMap { CurveKey(z85: $0.dropFirst(role.count + 1)) })
    }

    @Test("keys generate writes a pair per role (mode 600), the lease key and the allowlist, and never overwrites")
    func generate() throws {
        let directory = try BatchCommandTests.temporaryDirectory().appendingPathComponent("keys").path
        let made = try GridlockBinary.run(["keys", "generate", directory])
        #expect(made.status == 0, "\(made.stderr)")
        for name in ["coordinator.key", "sink.key", "worker.key", "lease.key"] {
            let mode = try FileManager.default.attributesOfItem(atPath: "\(directory)/\(name)")[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
        let pairs = try ["coordinator", "sink", "worker"].map { try Self.keyPair("\(directory)/\($0).key") }
        for (role, pair) in zip(["coordinator", "sink", "worker"], pairs) {
            #expect(try Self.serverKey(role, in: "\(directory)/allowed") == pair.publicKey)
        }
        let again = try GridlockBinary.run(["keys", "generate", directory])
        #expect(again.status != 0 && again.stderr.contains("not empty"), "\(again.stderr)")
        // A worker given a directory without its key says which file is missing and why.
        try FileManager.default.removeItem(atPath: "\(directory)/worker.key")
        let missing = try GridlockBinary.run(["worker", "--keys", directory, "--coordinator", "ipc:///nonexistent/a", "--sink", "ipc:///nonexistent/b"])
        #expect(missing.status == 64 && missing.stderr.contains("worker.key") && missing.stderr.contains("does not exist"), "\(missing.stderr)")
        let both = try GridlockBinary.run(["sink", "--keys", directory, "--key-file", "x", "--coordinator", "ipc:///nonexistent/a"])
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
    }

    @Test("a role bound off this machine with --insecure warns at start-up, naming the endpoint; with keys it does not")
    func warnsWhenOpenWithoutKeys() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let keys = directory.appendingPathComponent("keys").path
        #expect(try GridlockBinary.run(["keys", "generate", keys]).status == 0)
        for (extra, warned) in [(["--insecure"], true), (["--keys", keys], false)] {
            let log = directory.appendingPathComponent("sink-\(warned).log")
            let sink = try GridlockBinary.start(
                ["sink", "--bind", "tcp://*:*", "--coordinator", "ipc://\(directory.path)/none", "--db", directory.appendingPathComponent("r\(warned).sqlite").path]
                    + extra, errorLog: log)
            let deadline = Date(timeIntervalSinceNow: 20)
            var text = ""
            while !text.contains("bound"), Date() < deadline {
                usleep(20_000)
                text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            }
            kill(sink.processIdentifier, SIGTERM)
            try GridlockBinary.wait(sink, seconds: 10)
            #expect(text.contains("WARNING: --insecure, no keys: tcp://*:* is open to other machines") == warned, "\(text)")
        }
    }

    @Test("with --keys, an allowed worker completes the batch; an unknown key and a plain socket get no job; forged results are refused and counted")
    func onlyListedKeysTakePart() throws {
        let cluster = try ClusterHarness()
        let keys = cluster.directory.appendingPathComponent("keys").path
        #expect(try GridlockBinary.run(["keys", "generate", keys]).status == 0)
        // A stranger that knows the servers' public keys (they are no secret) but holds a key
        // pair of its own: listed only in its own copy of the allowlist.
        let stranger = cluster.directory.appendingPathComponent("stranger").path
        #expect(try GridlockBinary.run(["keys", "generate", stranger]).status == 0)
        let strangerPublic = try Self.keyPair("\(stranger)/worker.key").publicKey
        try FileManager.default.removeItem(atPath: "\(stranger)/allowed")
        let realAllowlist = try String(contentsOfFile: "\(keys)/allowed", encoding: .utf8)
        try (realAllowlist + "worker \(strangerPublic.z85)\n").write(toFile: "\(stranger)/allowed", atomically: true, encoding: .utf8)

        let lines = try ClusterHarness.sample(count: 30)
        let sinkLog = cluster.directory.appendingPathComponent("sink.log")
        let coordinatorLog = cluster.directory.appendingPathComponent("coordinator.log")
        try cluster.startSink(extra: ["--keys", keys], errorLog: sinkLog)
        try cluster.startCoordinator(try cluster.write(lines), extra: ["--keys", keys, "--silence-limit", "1"], errorLog: coordinatorLog)

        var outsiders: [(Process, URL)] = []
        for (name, extra) in [("stranger", ["--keys", stranger]), ("plain", ["--insecure"])] {
            let log = cluster.directory.appendingPathComponent("\(name).log")
            outsiders.append((try GridlockBinary.start(
                ["worker", "--coordinator", cluster.jobs, "--sink", cluster.results, "--coordinator-silence-limit", "3"] + extra,
                errorLog: log), log))
        }
        let forged = try Self.insiderForges(cluster: cluster, keys: keys)
        for (process, log) in outsiders {
            try GridlockBinary.wait(process, seconds: 20)
            #expect(process.terminationStatus == 0)
            let said = try String(contentsOf: log, encoding: .utf8)
            #expect(said.contains("nothing heard from the coordinator"), "\(said)")
        }
        #expect(try cluster.rows().isEmpty)

        try cluster.startWorkers(1, extra: ["--keys", keys])
        try cluster.finish()
        try cluster.expectAllStored(lines)
        let rows = try cluster.rows()
        #expect(rows.values.allSatisfy { ($0["worker"] as? String)?.hasPrefix("insider") == false })
        let sinkSaid = try String(contentsOf: sinkLog, encoding: .utf8)
        #expect(sinkSaid.contains("\(forged) forged frames or results dropped"), "\(sinkSaid)")
        #expect(sinkSaid.contains("without its lease"), "\(sinkSaid)")
        // The stranger reached the sink's handshake with a key that is not listed: refused, and said.
        #expect(sinkSaid.contains("refused a connection") && sinkSaid.contains("not in the allowlist"), "\(sinkSaid)")
    }

    /// An insider with the real worker key takes jobs under one name, then pushes results for
    /// them under another name, and for jobs it never held; returns how many it pushed.
    static func insiderForges(cluster: ClusterHarness, keys: String) throws -> Int {
        let own = try keyPair("\(keys)/worker.key")
        let context = try ZMQContext()
        defer { context.terminate() }
        let dealer = try ZMQSocket(context, .dealer)
        try dealer.set(.lingerMilliseconds(0))
        try dealer.set(.routingID(Array("insider:1".utf8)))
        try dealer.secure(.client(own: own, server: try serverKey("coordinator", in: "\(keys)/allowed")))
        try dealer.connect(cluster.jobs)
        let push = try ZMQSocket(context, .push)
        try push.set(.lingerMilliseconds(2_000))
        try push.secure(.client(own: own, server: try serverKey("sink", in: "\(keys)/allowed")))
        try push.connect(cluster.results)
        defer {
            dealer.close()
            push.close()
        }
        let insider = WorkerIdentity(host: "insider", pid: 1)
        var taken: [Job] = []
        let deadline = Date(timeIntervalSinceNow: 20)
        while taken.isEmpty, Date() < deadline {
            _ = try dealer.send([WireMessage.ready(insider, credit: 4).encoded()], dontWait: true)
            if try ZMQPoller.readable([dealer], timeout: .milliseconds(200))[0] {
                while let frames = try dealer.receive() {
                    if frames.count == 1, case .jobs(let chunks)? = try? WireMessage.decode(frames[0]) { taken += chunks.flatMap(\.jobs) }
                }
            }
        }
        try #require(!taken.isEmpty, "the insider, holding a listed key, was handed jobs")
        var results: [JobResult] = []
        for job in taken {
            // Its own lease, answered in another worker's name.
            results.append(JobResult(answering: job, worker: WorkerIdentity(host: "insider-as-other", pid: 2), status: .solved))
            // Its own lease, pasted onto a job it never held.
            var other = job
            other.id += 10
            other.lease = job.lease
            results.append(JobResult(answering: other, worker: insider, status: .solved))
        }
        for index in results.indices {
            results[index].moves = 1
            results[index].solution = "A+1"
        }
        #expect(try push.send([WireMessage.results(results).encoded()]))
        // It never answers its own jobs honestly: they are re-issued once it falls silent.
        return results.count
    }
}
