// The puzzle collection end to end: generated puzzles added with their analysis, each once,
// listed, and exported in forms that read back.

import Foundation
import Testing

@Suite("Puzzle collection", .serialized)
struct CollectionCommandTests {
    @Test("generated tilt puzzles go in once each, with their analysis, and come back out solvable")
    func roundTrip() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = directory.appendingPathComponent("puzzles.sqlite").path
        let generated = try GridlockBinary.run([
            "generate", "tilt", "--size", "4x4", "--colours", "2", "--blocks", "4", "--moves", "3", "--count", "3", "--seed", "2",
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let first = try GridlockBinary.run(["collection", "add", database, "-"], stdin: generated.stdout)
        #expect(first.stderr.contains("3 added, 0 already there"), "\(first.stderr)")
        let again = try GridlockBinary.run(["collection", "add", database, "-"], stdin: generated.stdout)
        #expect(again.stderr.contains("0 added, 3 already there"))
        let list = try GridlockBinary.run(["collection", "list", database])
        #expect(list.stdout.split(separator: "\n").count == 4)
        let json = try GridlockBinary.run(["collection", "export", database, "--format", "json"])
        let objects = try json.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.allSatisfy { (($0["analysis"] as? [String: Any])?["bestMoves"] as? Int) == 3 })
        for format in ["line", "grid", "puzzle-json"] {
            let exported = try GridlockBinary.run(["collection", "export", database, "--format", format])
            let solved = try GridlockBinary.run(["solve", "-", "--kind", "tilt", "--format", "json"], stdin: exported.stdout)
            #expect(solved.status == 0, "\(format): \(solved.stdout)")
            #expect(solved.stdout.split(separator: "\n").count == 3, "\(format)")
            #expect(solved.stdout.components(separatedBy: "\"moves\":3").count == 4, "\(format)")
        }
    }
}
