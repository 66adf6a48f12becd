// `--solver analyze` in a batch: the state-space analysis runs on the workers like a solver,
// and its rows agree with the database lines' MOVES and CLUSTER.

import Foundation
import Testing

@Suite("Analysis jobs in a batch", .serialized)
struct AnalysisJobTests {
    @Test("analysis jobs store the best moves, the cluster and the whole analysis")
    func analysisJobs() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = directory.appendingPathComponent("results.sqlite").path
        let fixture = "Tests/Fixtures/rushhour/fogleman_forty.txt"
        let output = try GridlockBinary.run(["batch", fixture, "--solver", "analyze", "--workers", "2", "--db", database])
        #expect(output.status == 0, "\(output.stderr)")
        let clusters = try String(contentsOf: GridlockBinary.repository.appendingPathComponent(fixture), encoding: .utf8)
            .split(separator: "\n").map { Int($0.split(separator: " ")[2])! }
        let rows = try GridlockBinary.run(["export", database, "--format", "jsonl"]).stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == 40)
        for row in rows {
            let job = try #require(row["job"] as? Int)
            #expect(row["solver"] as? String == "analyze")
            #expect(row["moves"] as? Int == row["expectedMoves"] as? Int)
            #expect(row["cluster"] as? Int == clusters[job], "job \(job)")
            let analysis = try #require((row["solution"] as? String).flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            #expect(analysis["hardest"] as? Int == row["expectedMoves"] as? Int)
        }
    }

    @Test("gridlock analyze --format json has every listed key at the top level, null when no goal is reachable")
    func analyzeKeys() throws {
        let output = try GridlockBinary.run(["analyze", "a*a/###", "..a#/b..a/.#../b...", "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let objects = try output.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let keys = ["reachable", "goalStates", "useful", "deadEnds", "bestMoves", "solutions", "hardest", "depthHistogram"]
        for object in objects { for key in keys { #expect(object.keys.contains(key), "\(key)") } }
        #expect(objects[0]["bestMoves"] is NSNull)
        #expect(objects[0]["deadEnds"] as? Int == 1)
        #expect(objects[1]["bestMoves"] as? Int == 1)
    }
}
