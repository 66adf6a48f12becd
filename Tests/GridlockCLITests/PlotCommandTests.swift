// `gridlock plot cactus|scatter`: SVG files whose marks are the data's, and clear refusals.

import Foundation
import Testing

@Suite("plot: cactus and scatter")
struct PlotCommandTests {
    /// The value of `attribute` on the root element of an SVG.
    static func rootAttribute(_ svg: String, _ attribute: String) -> String? {
        guard let range = svg.range(of: "\(attribute)=\"") else { return nil }
        return String(svg[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("a cactus line per solver and a scatter dot per puzzle, unsolved ones past the limit; refusals say why")
    func plots() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 12, step: 700).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("r.sqlite").path
        // The reference solver cut off by a CPU limit on some: red dots past the limit line.
        _ = try GridlockBinary.run(["batch", input.path, "--workers", "2", "--db", database, "--solver", "bfs,reference", "--time-limit", "0.005"])
        let cactus = directory.appendingPathComponent("cactus.svg").path
        let drawn = try GridlockBinary.run(["plot", "cactus", database, "-o", cactus])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let cactusSVG = try String(contentsOfFile: cactus, encoding: .utf8)
        #expect(Self.rootAttribute(cactusSVG, "data-marks") == "2" && cactusSVG.contains("limit 5 ms"), "\(cactusSVG.prefix(300))")
        // Well-formed XML, as a paper's toolchain reads it.
        #expect(try NumericReportTests.python("import sys, xml.etree.ElementTree as T; print(T.parse(sys.argv[1]).getroot().tag)", database: cactus)
            == "{http://www.w3.org/2000/svg}svg")

        let scatter = directory.appendingPathComponent("scatter.svg").path
        #expect(try GridlockBinary.run(["plot", "scatter", database, "--solvers", "bfs,reference", "-o", scatter]).status == 0)
        let scatterSVG = try String(contentsOfFile: scatter, encoding: .utf8)
        #expect(Self.rootAttribute(scatterSVG, "data-marks") == "12")
        let rows = try NumericReportTests.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM results WHERE solver = 'reference' AND status != 'solved'").fetchone()[0])
            """, database: database)
        // Each puzzle reference did not solve is a red dot.
        #expect(scatterSVG.components(separatedBy: "r=\"2.5\" fill=\"#c62828\"").count - 1 == Int(rows), "\(rows) unsolved")

        for (arguments, status, message) in [
            (["plot", "scatter", database, "--solvers", "bfs", "-o", scatter], Int32(64), "two solvers"),
            (["plot", "cactus", database, "--solvers", "bfs,reference", "-o", cactus], 64, "for scatter"),
            (["plot", "scatter", database, "--solvers", "bfs,nosuch", "-o", scatter], 1, "needs two rushhour solvers"),
            (["plot", "cactus", database, "--kind", "sudoku", "-o", cactus], 1, "no job to draw of kind sudoku"),
            (["plot", "cactus", directory.appendingPathComponent("none.sqlite").path, "-o", cactus], 64, "no such database"),
            (["plot", "cactus", database, "-o", directory.path], 1, "cannot write"),
        ] {
            let refused = try GridlockBinary.run(arguments)
            #expect(refused.status == status && refused.stderr.contains(message), "\(arguments): \(refused.status) \(refused.stderr)")
        }
    }
}
