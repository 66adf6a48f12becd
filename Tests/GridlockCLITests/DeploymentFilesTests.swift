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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
                             GridlockBinary.repository.appendingPathComponent("docker-compose.yml").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "docker-compose.yml must parse as YAML")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
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

    @Test("the documented config file parses, and the roles accept it")
    func configFile() throws {
        // --window 0 is refused only after the config file has been read without a complaint.
        let good = try GridlockBinary.run(["worker", "--config", "config/gridlock.conf", "--window", "0"])
        #expect(good.status != 0)
        #expect(good.stderr.contains("--processes and --window must be at least 1"), "\(good.stderr)")
        let bad = try GridlockBinary.run(["sink", "--config", "Package.swift"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("Package.swift:"), "a bad config names its file and line: \(bad.stderr)")
        let text = try String(contentsOf: GridlockBinary.repository.appendingPathComponent("config/gridlock.conf"), encoding: .utf8)
        for key in ["coordinator.bind", "sink.endpoint", "worker.heartbeat_ms", "coordinator.silence_limit_s", "coordinator.attempts", "sink.database"] {
            #expect(text.contains(key + " ="), "\(key) is documented")
        }
    }
}
