// Issue 48, point 9: small nonsense that used to be accepted, each refused with a clear message
// (exit 64 for options and arguments), before anything runs.

import Foundation
import Testing

@Suite("small nonsense refused", .serialized)
struct SmallNonsenseTests {
    static let line = "00 ooooooooooooooooAAoooooooooooooooooo 5"

    /// Runs gridlock and expects exit 64 with `message` on standard error, within 20 s: what
    /// is accepted by mistake (a coordinator on a wrong port) would otherwise run on.
    static func refused(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let errors = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("refused-\(UUID().uuidString.prefix(8)).txt")
        defer { try? FileManager.default.removeItem(at: errors) }
        let process = try GridlockBinary.start(arguments, errorLog: errors)
        do {
            try GridlockBinary.wait(process, seconds: 20)
        } catch {
            Issue.record("\(arguments) still running after 20 s", sourceLocation: sourceLocation)
            process.waitUntilExit()
            return
        }
        let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 64, "\(arguments): exit \(process.terminationStatus)", sourceLocation: sourceLocation)
        #expect(said.contains(message), "\(arguments): \(said)", sourceLocation: sourceLocation)
    }

    static func configFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "nonsense-\(UUID().uuidString.prefix(8)).conf"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("options: a repeated solver, a huge --repeats, a hexadecimal size, a port past 65535")
    func options() throws {
        try Self.refused(["solve", "--solver", "bfs,bfs", Self.line], "--solver names 'bfs' twice")
        try Self.refused(["bench", "--repeats", "9223372036854775807", "data/samples/unblockme.txt"], "--repeats must be from 1 to 1000")
        try Self.refused(["solve", "--memory-limit", "0x10M", Self.line], "--memory-limit takes a size with its unit")
        try Self.refused(
            ["coordinator", "--batch", "b", "--bind", "tcp://127.0.0.1:99999", "--sink", "tcp://127.0.0.1:5", "data/samples/unblockme.txt"],
            "tcp://127.0.0.1:99999: the port must be from 1 to 65535")
        try Self.refused(
            ["coordinator", "--batch", "b", "--sink", "tcp://127.0.0.1:70000", "data/samples/unblockme.txt"], "tcp://127.0.0.1:70000: the port must be")
        try Self.refused(["sink", "--bind", "tcp://127.0.0.1", "--coordinator", "tcp://127.0.0.1:5", "--db", "/nonexistent/r.sqlite"], "tcp://127.0.0.1 has no port")
    }

    @Test("arguments: help for no such command, a puzzle that starts with a minus sign (and the way to give it)")
    func arguments() throws {
        try Self.refused(["help", "nosuch"], "no command 'nosuch'; the commands are solve, render")
        let unsolvable = "-1 ooooooooooooooooAAoooooooooooooooooo 1"
        try Self.refused(["solve", unsolvable], "starts with '-', so it would be read as an option: put -- before the puzzles")
        let given = try GridlockBinary.run(["solve", "--format", "json", "--", unsolvable])
        #expect(given.stdout.contains("\"source\""), "\(given.stdout) \(given.stderr)")
        #expect(try GridlockBinary.run(["help", "solve"]).status == 0)
        #expect(try GridlockBinary.run(["help", "help"]).status == 0)
    }

    @Test("compare with the same batch of the same file twice (through a link too) is refused")
    func compareWithItself() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("r.sqlite").path
        let batch = try GridlockBinary.run(["batch", "data/samples/unblockme.txt", "--workers", "1", "--batch", "one", "--db", database])
        #expect(batch.status == 0, "\(batch.stderr)")
        let link = directory.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
        for second in [database, link] {
            try Self.refused(["compare", database, second], "are one database, and both batches are one: that compares a batch with itself")
        }
    }

    @Test("config files: a fraction of a millisecond is refused, CRLF line ends are read as LF")
    func configFiles() throws {
        let fraction = try Self.configFile("worker.heartbeat_ms = 0.5\n")
        try Self.refused(["worker", "--config", fraction], "\(fraction):1: `worker.heartbeat_ms` must be a whole number, not `0.5`")
        // Read through: the refusal is of the second line's port, so the first was read whole.
        let crlf = try Self.configFile("worker.heartbeat_ms = 250\r\ncoordinator.endpoint = tcp://127.0.0.1:70000\r\nsink.endpoint = tcp://127.0.0.1:5\r\n")
        try Self.refused(["worker", "--config", crlf], "tcp://127.0.0.1:70000: the port must be from 1 to 65535")
    }

    @Test("a JSON puzzle with a key given twice is refused, naming the key")
    func duplicateJSONKeys() throws {
        let twice = #"{"width":6,"height":6,"width":7,"exit":{"row":2,"side":"right"},"blocks":[]}"#
        let output = try GridlockBinary.run(["solve", "--kind", "rushhour", twice])
        #expect(output.status == 1)
        #expect(output.stdout.contains("the key 'width' is given twice in one object"), "\(output.stdout)")
    }
}
