// The key directory's files as a role reads them, the allowlist's policy, and which endpoints
// count as this machine's.

import Foundation
import GridlockClusterBase
import Testing
import ZeroMQ
@testable import GridlockCluster

@Suite("Key directory")
struct KeyDirectoryTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
        try KeyDirectory.generate(at: path)
        return path
    }

    @Test("each role loads its pair and the servers' keys; only the coordinator and the sink hold the lease key")
    func rolesLoad() throws {
        let path = try Self.directory()
        let coordinator = try KeyDirectory.load(path, as: .coordinator)
        let sink = try KeyDirectory.load(path, as: .sink)
        let worker = try KeyDirectory.load(path, as: .worker)
        #expect(coordinator.lease != nil && coordinator.lease == sink.lease && worker.lease == nil)
        #expect(worker.coordinator == coordinator.own.publicKey && worker.sink == sink.own.publicKey)
        #expect(coordinator.warnings.isEmpty)
        // A worker host with only its own two files loads.
        for name in ["coordinator.key", "sink.key", "lease.key"] { try FileManager.default.removeItem(atPath: "\(path)/\(name)") }
        #expect(throws: Never.self) { try KeyDirectory.load(path, as: .worker) }
        #expect(throws: ClusterError.self) { try KeyDirectory.load(path, as: .sink) }
    }

    @Test("a damaged allowlist or key file is refused with its file and line; a secret is never echoed")
    func damagedFiles() throws {
        let path = try Self.directory()
        let allowlist = "\(path)/allowed"
        let original = try String(contentsOfFile: allowlist, encoding: .utf8)
        func refusal(_ text: String, file: String? = nil) throws -> String {
            let target = file ?? allowlist
            let saved = try String(contentsOfFile: target, encoding: .utf8)
            try text.write(toFile: target, atomically: true, encoding: .utf8)
            defer { try? saved.write(toFile: target, atomically: true, encoding: .utf8) }
            do {
                _ = try KeyDirectory.load(path, as: .worker)
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        let firstKey = original.split(separator: "\n").first { $0.hasPrefix("coordinator ") }!.dropFirst(12)
        #expect(try refusal(original + "visitor \(firstKey)\n").contains("allowed:7: expected `ROLE KEY`"))
        #expect(try refusal(original + "worker tooShort\n").contains("allowed:7: `tooShort` is not 40 characters of Z85"))
        #expect(try refusal(original + "worker \(firstKey)\n").contains("listed as coordinator already"))
        #expect(try refusal(original.replacingOccurrences(of: "sink ", with: "# sink ")).contains("one `sink KEY` line"))
        let pair = "\(path)/worker.key"
        let pairText = try String(contentsOfFile: pair, encoding: .utf8)
        let secret = String(pairText.split(separator: "\n").first { $0.hasPrefix("secret = ") }!.dropFirst(9))
        let damaged = pairText.replacingOccurrences(of: secret, with: String(secret.dropLast()) + "\u{7f}")
        let said = try refusal(damaged, file: pair)
        #expect(said.contains("worker.key:3: the secret key is not 40 characters of Z85") && !said.contains(secret.prefix(20)), "\(said)")
        // A pair whose public half is another key's.
        let otherPublic = String(original.split(separator: "\n").first { $0.hasPrefix("sink ") }!.dropFirst(5))
        let mixed = pairText.split(separator: "\n").map { $0.hasPrefix("public = ") ? "public = \(otherPublic)" : String($0) }.joined(separator: "\n")
        #expect(try refusal(mixed, file: pair).contains("the public key is not the secret key's"))
        // A worker whose key the allowlist does not list would be refused by every server: said now.
        let unlisted = original.split(separator: "\n").filter { !$0.hasPrefix("worker ") }.joined(separator: "\n")
        #expect(try refusal(unlisted).contains("does not list"))
        // Loose modes are said, not refused.
        chmod(pair, 0o644)
        #expect(try KeyDirectory.load(path, as: .worker).warnings.first?.contains("mode 644") == true)
    }

    @Test("a FIFO in place of the allowlist is refused at once; keys are generated only into a directory no one else can write")
    func hostileFiles() throws {
        let path = try Self.directory()
        try FileManager.default.removeItem(atPath: "\(path)/allowed")
        #expect(mkfifo("\(path)/allowed", 0o644) == 0)
        #expect(throws: ClusterError.self) { try KeyDirectory.load(path, as: .worker) }
        do {
            _ = try KeyDirectory.load(path, as: .worker)
        } catch {
            #expect("\(error)".contains("it is a FIFO, not a file"), "\(error)")
        }
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)").path
        #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o777) == 0)
        #expect(throws: ClusterError.self) { try KeyDirectory.generate(at: shared) }
        chmod(shared, 0o700)
        #expect(throws: Never.self) { try KeyDirectory.generate(at: shared) }
    }

    @Test("the allowlist admits a listed key only where its role connects, and nothing that is not CURVE")
    func policy() throws {
        let worker = try CurveKeyPair.generate().publicKey
        let sink = try CurveKeyPair.generate().publicKey
        let coordinator = try CurveKeyPair.generate().publicKey
        let allowlist = CurveAllowlist(entries: [worker: .worker, sink: .sink, coordinator: .coordinator])
        func decide(_ key: CurveKey?, _ domain: String, mechanism: String = "CURVE") -> ZAPDecision {
            allowlist.decide(ZAPRequest(domain: domain, address: "10.0.0.9", mechanism: mechanism, publicKey: key))
        }
        #expect(decide(worker, CurveAllowlist.jobsDomain) == .allow(user: "worker"))
        #expect(decide(worker, CurveAllowlist.resultsDomain) == .allow(user: "worker"))
        #expect(decide(sink, CurveAllowlist.jobsDomain) == .allow(user: "sink"))
        #expect(decide(coordinator, CurveAllowlist.resultsDomain) == .allow(user: "coordinator"))
        for refused in [decide(sink, CurveAllowlist.resultsDomain), decide(coordinator, CurveAllowlist.jobsDomain),
                        decide(try CurveKeyPair.generate().publicKey, CurveAllowlist.jobsDomain), decide(worker, "elsewhere"),
                        decide(nil, CurveAllowlist.jobsDomain, mechanism: "NULL")] {
            guard case .deny = refused else {
                Issue.record("\(refused) should be a refusal")
                continue
            }
        }
    }

    @Test("loopback, ipc and inproc endpoints are this machine's; wildcards, names and other addresses are not")
    func endpoints() {
        for local in ["ipc:///tmp/x", "inproc://a", "tcp://127.0.0.1:5555", "tcp://127.77.0.2:1", "tcp://localhost:5555", "tcp://[::1]:5555",
                      "tcp://eth0;127.0.0.1:5555"] {
            #expect(Endpoint.isOnThisMachine(local), "\(local)")
        }
        for remote in ["tcp://*:5555", "tcp://0.0.0.0:5555", "tcp://10.1.2.3:5555", "tcp://coordinator:5555", "tcp://[::]:5555",
                       "tcp://1270.0.0.1:5", "tcp://127.0.0.1", "udp://127.0.0.1:5", "tcp://127.0.0.1.evil.com:5"] {
            #expect(!Endpoint.isOnThisMachine(remote), "\(remote)")
        }
    }

    @Test("a TCP endpoint's port is 1 to 65535 or *; libzmq would bind port 99999 as 34463")
    func endpointPorts() {
        for good in ["tcp://127.0.0.1:5555", "tcp://*:*", "tcp://*:1", "tcp://[::1]:65535", "tcp://eth0;10.0.0.1:5", "ipc:///tmp/x", "inproc://a"] {
            #expect(Endpoint.problem(good) == nil, "\(good)")
        }
        for bad in ["tcp://127.0.0.1:99999", "tcp://127.0.0.1:0", "tcp://127.0.0.1", "tcp://[::1]", "tcp://h:", "tcp://h:5x", "tcp://h:+5", "tcp://h:-1"] {
            #expect(Endpoint.problem(bad) != nil, "\(bad)")
        }
    }
}
