// The roles' log lines: time, level and role on every line; one JSON object a line with
// --log-format json.

import Foundation
import GridlockObservability
import Logging
import Testing

@Suite("Role logs")
struct RoleLogTests {
    @Test("a line carries its time, level and role, as text or as one JSON object; control characters are escaped in text")
    func lines() throws {
        let time = Date(timeIntervalSince1970: 1_795_000_000.25)
        let text = RoleLogHandler.line(time: time, level: .warning, role: "sink", message: "refused \u{1B}[2J", metadata: [:], format: .text)
        #expect(text == "2026-11-18T11:06:40.250Z warning sink: refused \\u{1b}[2J\n")
        let json = RoleLogHandler.line(
            time: time, level: .info, role: "coordinator", message: "bound \"x\"\nnext", metadata: ["jobs": "12", "host": "h"], format: .json)
        #expect(json.hasSuffix("\n") && json.dropLast().contains("\n") == false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2026-11-18T11:06:40.250Z")
        #expect(object["level"] as? String == "info" && object["role"] as? String == "coordinator")
        #expect(object["message"] as? String == "bound \"x\"\nnext")
        #expect(object["host"] as? String == "h")
    }

    @Test("--log-format json: every line a role writes to standard error is a JSON object with time, level, role and message")
    func jsonFromARole() throws {
        let worker = try GridlockBinary.run([
            "worker", "--coordinator", "tcp://10.255.255.1:5555", "--sink", "tcp://10.255.255.1:5556", "--coordinator-silence-limit", "1",
            "--log-format", "json", "--insecure",
        ])
        #expect(worker.status == 0)
        let workerLines = worker.stderr.split(separator: "\n")
        #expect(workerLines.count >= 2, "the open endpoint's warning and the exit: \(worker.stderr)")
        for line in workerLines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(Set(object.keys).isSuperset(of: ["time", "level", "role", "message"]), "\(line)")
            #expect(object["role"] as? String == "worker")
        }
        #expect(worker.stderr.contains("\"level\":\"warning\"") && worker.stderr.contains("nothing heard from the coordinator"))
        // A failure after start-up is logged as a JSON error line too.
        let sink = try GridlockBinary.run(["sink", "--coordinator", "ipc:///nonexistent/x", "--metrics", "10.255.255.1:9", "--log-format", "json", "--insecure"])
        #expect(sink.status == 1)
        let last = try #require(sink.stderr.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(sink.stderr)")
        #expect(object["level"] as? String == "error" && (object["message"] as? String)?.contains("cannot serve metrics") == true)
        // So is a bad value found at start-up (a key directory that does not exist), with 64.
        let keys = try GridlockBinary.run(["worker", "--coordinator", "ipc:///x/a", "--sink", "ipc:///x/b", "--keys", "/nonexistent", "--log-format", "json"])
        #expect(keys.status == 64, "\(keys.stderr)")
        let lines = keys.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "\(keys.stderr)")
    }
}
