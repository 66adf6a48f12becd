// One figure, one meaning (issue 43): a batch with a CPU limit, repeats and a timeout gives the
// same ratio, PAR-2 and VBS in `report`'s text, CSV, JSON and HTML, each labelled with its
// time, and the figures are what the exported rows say, computed here from them alone.

import Foundation
import Testing

@Suite("one figure, one meaning", .serialized)
struct OneFigureTests {
    static let limit = 0.1

    /// Boards of 1 to 46 moves: bfs answers each well within the limit (33 ms at most in a
    /// debug build), reference runs out of time on the deepest (300 ms).
    static func batch() throws -> (directory: URL, database: String) {
        let directory = try BatchCommandTests.temporaryDirectory()
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 7, step: 3_000).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("r.sqlite").path
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "2", "--db", database, "--solver", "bfs,reference", "--time-limit", "\(limit)", "--repeats", "2",
        ])
        #expect(batch.status == 2, "a timeout: \(batch.stderr)")
        return (directory, database)
    }

    /// The exported rows: (source, solver, right, CPU seconds), in job order.
    static func rows(_ database: String) throws -> [(source: String, solver: String, right: Bool, cpu: Double, repetition: Int)] {
        let export = try GridlockBinary.run(["export", database])
        var seen: [String: Int] = [:]
        return try export.stdout.split(separator: "\n").map { line in
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let source = try #require(row["source"] as? String), solver = try #require(row["solver"] as? String)
            let status = try #require(row["status"] as? String)
            let key = source + " " + solver
            defer { seen[key, default: 0] += 1 }
            return (source, solver, status == "solved" || status == "unsolvable", try #require(row["cpuSeconds"] as? Double), seen[key, default: 0])
        }
    }

    /// PAR-2 per solver and the VBS's, and reference's ratio over bfs, from the rows alone.
    static func figures(_ rows: [(source: String, solver: String, right: Bool, cpu: Double, repetition: Int)])
        -> (par2: [String: Double], ratio: Double, timeouts: Int) {
        let puzzles = Array(Set(rows.map(\.source)))
        var par2: [String: Double] = [:]
        var logMeans: [Double] = []
        for puzzle in puzzles {
            var combined: [String: Double?] = [:]
            for solver in ["bfs", "reference"] {
                let runs = rows.filter { $0.source == puzzle && $0.solver == solver }
                combined[solver] = runs.allSatisfy(\.right) ? runs.map(\.cpu).reduce(0, +) / Double(runs.count) : nil
                par2[solver, default: 0] += (combined[solver] ?? nil) ?? 2 * limit
            }
            par2["VBS", default: 0] += combined.values.compactMap { $0 }.min() ?? 2 * limit
            // The ratio pairs each repetition both answered right.
            var logs: [Double] = []
            for repetition in 0..<2 {
                let pair = ["bfs", "reference"].map { solver in rows.first { $0.source == puzzle && $0.solver == solver && $0.repetition == repetition } }
                guard let base = pair[0], let other = pair[1], base.right, other.right, base.cpu > 0, other.cpu > 0 else { continue }
                logs.append(log(other.cpu) - log(base.cpu))
            }
            if !logs.isEmpty { logMeans.append(logs.reduce(0, +) / Double(logs.count)) }
        }
        let timeouts = puzzles.filter { puzzle in rows.contains { $0.source == puzzle && $0.solver == "reference" && !$0.right } }.count
        return (par2.mapValues { $0 / Double(puzzles.count) }, exp(logMeans.reduce(0, +) / Double(logMeans.count)), timeouts)
    }

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return false }
        return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12)
    }

    @Test("ratio, PAR-2 and VBS agree in text, CSV, JSON and HTML, each says CPU, and each is what the exported rows give")
    func sameFiguresEverywhere() throws {
        let (directory, database) = try Self.batch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected = Self.figures(try Self.rows(database))
        #expect(expected.timeouts >= 1, "the deepest board must time out for reference")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(try GridlockBinary.run(["report", database, "--format", "json"]).stdout.utf8)) as? [String: Any])
        let scores = try #require(json["scores"] as? [[String: Any]]), ratios = try #require(json["ratios"] as? [[String: Any]])
        #expect(scores.allSatisfy { $0["time"] as? String == "cpu" } && ratios.allSatisfy { $0["time"] as? String == "cpu" })
        for row in scores {
            let solver = try #require(row["solver"] as? String)
            #expect(Self.close(row["par2_seconds"] as? Double, expected.par2[solver]), "\(solver): \(row) against \(expected.par2)")
        }
        let ratio = try #require(ratios.first?["ratio"] as? Double)
        #expect(ratios.count == 1 && Self.close(ratio, expected.ratio), "\(ratios) against \(expected.ratio)")

        // CSV: the same numbers, as written.
        let csv = try GridlockBinary.run(["report", database, "--format", "csv", "--table", "ratios"]).stdout.split(separator: "\n")
        #expect(csv.first?.hasPrefix("batch,time,kind,solver,baseline,puzzles,pairs,ratio,") == true, "\(csv)")
        let ratioFields = try #require(csv.last?.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        let csvRatio = try #require(Double(ratioFields[7]))
        #expect(Self.close(csvRatio, ratio))
        let csvScores = try GridlockBinary.run(["report", database, "--format", "csv", "--table", "scores"]).stdout.split(separator: "\n").dropFirst()
        for line in csvScores {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(Self.close(Double(fields[9]), expected.par2[fields[3]]), "\(line)")
        }

        // Text and HTML: the same cells, the ratio to three decimals, and the basis named.
        let text = try GridlockBinary.run(["report", database]).stdout
        let shown = String(format: "%.3fx", ratio)
        #expect(text.contains("ratio (CPU)") && text.contains("PAR-2 (CPU)") && text.contains(shown), "\(text)")
        let page = directory.appendingPathComponent("r.html").path
        #expect(try GridlockBinary.run(["report", database, "--format", "html", "-o", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("reference / bfs: \(shown)"), "the chart's mark says the table's ratio")
        #expect(html.contains("<th>ratio (CPU)</th>") && html.contains("<th>PAR-2 (CPU)</th>") && html.contains("<td>\(shown)</td>"))
        for line in text.split(separator: "\n") where line.contains(" VBS ") || line.hasSuffix("%") {
            // Each score row's cells, in the page's table as in the text's.
            let cells = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let par2 = cells.firstIndex(where: { $0 == "ms" || $0 == "s" || $0 == "µs" }).map({ cells[$0 - 1] + " " + cells[$0] }) else { continue }
            #expect(html.contains("<td>\(par2)</td>"), "\(par2) of \(line)")
        }

        // Wall time, where asked: every figure of the other basis, and said so.
        let wall = try GridlockBinary.run(["report", database, "--time", "wall"]).stdout
        #expect(wall.contains("ratio (wall)") && wall.contains("PAR-2 (wall)") && !wall.contains("(CPU)"), "\(wall)")
    }
}
