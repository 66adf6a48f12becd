// The C seam: every libzmq call that can fail goes through `check` (ZMQError.swift), so no
// failure is read from errno late, or not at all. Read from this module's own sources.

import Foundation
import Testing

@Suite("The libzmq seam")
struct ZeroMQSeamTests {
    /// Calls that cannot fail, made directly.
    static let infallible: Set<String> = ["zmq_errno", "zmq_strerror", "zmq_version", "zmq_msg_size", "zmq_msg_data", "zmq_msg_more"]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ZeroMQ")
    }

    /// Each call of a libzmq function outside `check(...)` on its line, as "file:line: name".
    static func bypasses(in text: String, file: String) -> [String] {
        let call = try! NSRegularExpression(pattern: #"\bzmq_[a-z0-9_]+(?=\()"#)
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            let range = NSRange(code.startIndex..., in: code)
            for match in call.matches(in: code, range: range) {
                let name = (code as NSString).substring(with: match.range)
                // Types (zmq_pollitem_t, zmq_msg_t) are not calls.
                if name.hasSuffix("_t") || infallible.contains(name) { continue }
                let before = (code as NSString).substring(to: match.range.location)
                if !before.contains("check(") { found.append("\(file):\(number + 1): \(name)") }
            }
        }
        return found
    }

    @Test("no libzmq call that can fail bypasses check")
    func everyCallIsChecked() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count >= 5, "the ZeroMQ module's sources, read from \(Self.sources.path)")
        var bypasses: [String] = []
        var calls = 0
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            calls += text.components(separatedBy: "zmq_").count - 1
            bypasses += Self.bypasses(in: text, file: file)
        }
        #expect(calls > 20)
        #expect(bypasses.isEmpty, "\(bypasses.joined(separator: "; "))")
    }

    @Test("the scan finds a call outside check, and passes one inside it or a comment")
    func scanFindsBypasses() {
        #expect(Self.bypasses(in: "        _ = zmq_close(handle)", file: "f") == ["f:1: zmq_close"])
        #expect(Self.bypasses(in: "        _ = try? check(zmq_close(handle), \"close\")", file: "f").isEmpty)
        #expect(Self.bypasses(in: "// zmq_close(handle) is checked", file: "f").isEmpty)
        #expect(Self.bypasses(in: "let size = zmq_msg_size(message)", file: "f").isEmpty)
    }
}
