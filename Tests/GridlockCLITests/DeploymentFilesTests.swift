// No Docker engine runs here, so the compose file is checked for what can be checked: it
// parses, names the three roles, keeps workers scalable, and every command it runs is a real
// gridlock subcommand with flags that subcommand accepts (the same commands the scripts run
// as plain processes). The config file parses with every documented key.

import Foundation
import Testing

@Suite("Deployment files")
struct DeploymentFilesTests {
    /// docker-compose.yml as JSON, through PyYAML (python3 is on every machine of this kind).
    static func compose() throws -> [String: Any] {
        let data = try python(
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", "docker-compose.yml")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// What a Python script prints about a path of the repository, which must parse.
    static func python(_ script: String, _ path: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, GridlockBinary.repository.appendingPathComponent(path).path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(path) must parse as YAML")
        return data
    }

    @Test("the compose file parses and names coordinator, sink and a scalable worker")
    func services() throws {
        let services = try #require(try Self.compose()["services"] as? [String: [String: Any]])
        #expect(Set(services.keys).isSuperset(of: ["coordinator", "sink", "worker"]))
        let worker = try #require(services["worker"])
        #expect(worker["container_name"] == nil && worker["ports"] == nil, "a scaled service cannot pin a name or a host port")
        // Workers on other hosts reach the stable roles through their published ports.
        #expect((services["coordinator"]?["ports"] as? [String]) == ["5555:5555"])
        #expect((services["sink"]?["ports"] as? [String]) == ["5556:5556"])
        // Every role holds the cluster's CURVE keys.
        for role in ["coordinator", "sink", "worker"] {
            #expect((services[role]?["command"] as? [String])?.contains("--keys") == true, "\(role) takes the cluster's keys")
        }
    }

    @Test("every compose command is a gridlock subcommand with flags it accepts")
    func commands() throws {
        let services = try #require(try Self.compose()["services"] as? [String: [String: Any]])
        for (name, service) in services {
            let command = try #require(service["command"] as? [String], "\(name) has a command")
            let help = try GridlockBinary.run([command[0], "--help"])
            #expect(help.status == 0, "\(name): `gridlock \(command[0])` exists")
            for flag in command.dropFirst() where flag.hasPrefix("--") {
                #expect(help.stdout.contains(flag), "\(name): `gridlock \(command[0])` accepts \(flag)")
            }
        }
    }

    /// Every document of the Kubernetes manifests the kustomization lists, and the
    /// kustomization itself (last), as JSON through PyYAML.
    static func kubernetes() throws -> [[String: Any]] {
        let script = """
            import json, sys, yaml, os
            root = sys.argv[1]
            kustomization = yaml.safe_load(open(os.path.join(root, "kustomization.yaml")))
            documents = [d for r in kustomization["resources"] for d in yaml.safe_load_all(open(os.path.join(root, r))) if d]
            print(json.dumps(documents + [kustomization]))
            """
        let data = try python(script, "deploy/kubernetes")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    @Test("the Kubernetes manifests run real gridlock commands, with a config file the roles accept and the key files keys generate writes")
    func kubernetesManifests() throws {
        let documents = try Self.kubernetes()
        let kustomization = try #require(documents.last)
        var kinds: [String: Int] = [:]
        var configText: String?
        for document in documents.dropLast() {
            kinds[document["kind"] as? String ?? "?", default: 0] += 1
            if let data = document["data"] as? [String: String], let text = data["gridlock.conf"] { configText = text }
            let spec = (document["spec"] as? [String: Any])?["template"] as? [String: Any]
            let containers = ((spec?["spec"] as? [String: Any])?["containers"] as? [[String: Any]]) ?? []
            for container in containers {
                let args = try #require(container["args"] as? [String])
                let help = try GridlockBinary.run([args[0], "--help"])
                #expect(help.status == 0, "`gridlock \(args[0])` exists")
                for flag in args.dropFirst() where flag.hasPrefix("--") {
                    #expect(help.stdout.contains(flag), "`gridlock \(args[0])` accepts \(flag)")
                }
            }
        }
        #expect(kinds["StatefulSet"] == 1 && kinds["Job"] == 1 && kinds["Deployment"] == 1 && kinds["Service"] == 3)
        // The roles' config: parsed as every role parses it (--window 0 is refused only after).
        let config = try BatchCommandTests.temporaryDirectory().appendingPathComponent("k8s.conf")
        try #require(configText).write(to: config, atomically: true, encoding: .utf8)
        let worker = try GridlockBinary.run(["worker", "--config", config.path, "--window", "0"])
        #expect(worker.stderr.contains("--workers and --window must be at least 1"), "\(worker.stderr)")
        // The secrets hold the files `keys generate` writes, each role only its own.
        let keys = try BatchCommandTests.temporaryDirectory().appendingPathComponent("keys").path
        let written = Set(try GridlockBinary.run(["keys", "generate", keys]).stdout.split(separator: "\n").map { ($0 as NSString).lastPathComponent })
        let secrets = try #require(kustomization["secretGenerator"] as? [[String: Any]])
        for secret in secrets {
            let files = Set(try #require(secret["files"] as? [String]).map { ($0 as NSString).lastPathComponent })
            #expect(files.isSubset(of: written), "\(secret["name"] ?? "?")")
            if (secret["name"] as? String)?.contains("worker") == true { #expect(files == ["worker.key", "allowed"]) }
        }
        // The roles need keys (issue 48): the config names the mounted directory, and a worker
        // given it, with the directory where the secret would be mounted, starts without
        // --insecure or a refusal.
        let mounted = try #require(configText).replacingOccurrences(of: "/etc/gridlock/keys", with: keys)
        #expect(mounted.contains("cluster.keys = \(keys)") && !mounted.contains("cluster.insecure"), "\(mounted)")
        try mounted.write(to: config, atomically: true, encoding: .utf8)
        let keyed = try GridlockBinary.run([
            "worker", "--config", config.path, "--coordinator", "ipc:///nonexistent/j", "--sink", "ipc:///nonexistent/r", "--coordinator-silence-limit", "1",
        ])
        #expect(keyed.status == 0 && !keyed.stderr.contains("needs keys") && !keyed.stderr.contains("--insecure"), "\(keyed.stderr)")
    }

    @Test("the documented config file parses, and the roles accept it")
    func configFile() throws {
        // --window 0 is refused only after the config file has been read without a complaint.
        let good = try GridlockBinary.run(["worker", "--config", "config/gridlock.conf", "--window", "0"])
        #expect(good.status != 0)
        #expect(good.stderr.contains("--workers and --window must be at least 1"), "\(good.stderr)")
        let bad = try GridlockBinary.run(["sink", "--config", "Package.swift"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("Package.swift:"), "a bad config names its file and line: \(bad.stderr)")
        let text = try String(contentsOf: GridlockBinary.repository.appendingPathComponent("config/gridlock.conf"), encoding: .utf8)
        for key in ["coordinator.bind", "sink.endpoint", "worker.heartbeat_ms", "coordinator.silence_limit_s", "coordinator.attempts", "sink.database"] {
            #expect(text.contains(key + " ="), "\(key) is documented")
        }
    }
}
