// Sliding tiles end to end: `solve`, `generate`, `bench` and `batch` on the real binary.

import Foundation
import Testing

@Suite("Tile commands", .serialized)
struct TileCommandTests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("a solver that falls back says which one ran: solve names both, bench's row and CSV too")
    func fallbackNamesTheSolverThatRan() throws {
        let solve = try GridlockBinary.run(["solve", "8 6 7 2 5 4 3 0 1", "--solver", "idastar-pdb"])
        #expect(solve.stdout.contains("· idastar-pdb (ran idastar-md): solved in 31 moves"), "\(solve.stdout)")
        let json = try Self.objects(try GridlockBinary.run(["solve", "8 6 7 2 5 4 3 0 1", "--solver", "idastar-pdb", "--format", "json"]).stdout)
        #expect(json.first?["solver"] as? String == "idastar-pdb" && json.first?["solvedBy"] as? String == "idastar-md")
        // On 4x4 the tables are its own: no fallback named.
        let own = try GridlockBinary.run(["solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "--solver", "idastar-pdb"])
        #expect(own.stdout.contains("· idastar-pdb: solved in 1 move"), "\(own.stdout)")
        let bench = try GridlockBinary.run(["bench", "-", "--solver", "idastar-pdb,idastar-md"], stdin: "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 0 7 8\n")
        #expect(bench.stdout.contains("idastar-pdb (ran idastar-md)") && bench.stderr.contains("fell back"), "\(bench.stdout)\(bench.stderr)")
        let csv = try GridlockBinary.run(["bench", "-", "--solver", "idastar-pdb,idastar-md", "--format", "csv"], stdin: "8 6 7 2 5 4 3 0 1\n")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("solver,ran_instead,") == true && lines.dropFirst().first?.hasPrefix("idastar-pdb,idastar-md,") == true
                && lines.dropFirst(2).first?.hasPrefix("idastar-md,,") == true, "\(csv.stdout)")
    }

    @Test("a line of numbers is a tile board; JSON has the shared keys and the iterations' bounds")
    func solveJSON() throws {
        let output = try GridlockBinary.run(["solve", "8 6 7 2 5 4 3 0 1", "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try Self.objects(output.stdout).first)
        #expect(object["kind"] as? String == "tiles")
        #expect(object["moves"] as? Int == 31)
        #expect((object["solution"] as? [String])?.count == 31)
        let stats = try #require(object["stats"] as? [String: Any])
        for key in ["examined", "enqueued", "examinedPerLevel", "seconds", "memoryBytes", "bounds"] { #expect(stats[key] != nil, "\(key)") }
    }

    @Test("an unsolvable board says why without searching; a malformed one is invalid with its reason")
    func unsolvableAndMalformed() throws {
        let unsolvable = try GridlockBinary.run(["solve", "2 1 3 4 5 6 7 8 0", "--solver", "bfs"])
        #expect(unsolvable.status == 0)
        #expect(unsolvable.stdout.contains("unsolvable: the parity of the inversions"))
        let malformed = try GridlockBinary.run(["solve", "1 2 3 4 5 6 7 8 8"])
        #expect(malformed.status == 1)
        #expect(malformed.stdout.contains("tile 8 appears twice"))
    }

    @Test("generate is reproducible and bench finds every solver in agreement")
    func generateAndBench() throws {
        let arguments = ["generate", "tiles", "--size", "3x3", "--count", "30", "--seed", "4"]
        let first = try GridlockBinary.run(arguments)
        #expect(first.stdout == (try GridlockBinary.run(arguments)).stdout)
        let bench = try GridlockBinary.run(
            ["bench", "-", "--solver", "idastar,bidirectional,astar,idastar-md", "--warmup", "0"], stdin: first.stdout)
        #expect(bench.status == 0, "\(bench.stdout)\(bench.stderr)")
        #expect(bench.stdout.contains("idastar-md"))
    }

    @Test("tile jobs run through a batch with their own rows")
    func batch() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let puzzles = directory.appendingPathComponent("tiles.txt")
        try "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 0 7 8\n3x2: 1 2 3 4 0 5\n2 1 3 4 5 6 7 8 0\n".write(to: puzzles, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("results.sqlite").path
        let output = try GridlockBinary.run([
            "batch", puzzles.path, "--solver", "idastar,bidirectional", "--workers", "2", "--db", database,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n").contains { $0.contains("tiles") && $0.contains("bidirectional") && $0.contains("all") })
        let rows = try Self.objects(try GridlockBinary.run(["export", database, "--format", "jsonl"]).stdout)
        #expect(rows.count == 8)
        #expect(rows.filter { $0["status"] as? String == "unsolvable" }.count == 2)
        #expect(rows.contains { $0["moves"] as? Int == 31 })
    }
}
