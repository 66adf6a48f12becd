// Sliding tiles end to end: `solve`, `generate`, `bench` and `batch` on the real binary.

import Foundation
import GridlockCore
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

    /// The checksum of 6-6-3's 33,558,528 bytes, all zero.
    static let zeroTablesChecksum = PatternTableChecksum.of([UInt8](repeating: 0, count: 33_558_528))

    /// A cache folder holding 6-6-3 tables for the blank-last goal that are all zeros (a sparse
    /// file: a bound of 0 is admissible, so solves stay exact, only slow), and the files given.
    static func zeroTableCache(_ extra: [String: [UInt8]] = [:]) throws -> URL {
        let directory = try BatchCommandTests.temporaryDirectory()
        let tables = directory.appendingPathComponent("pdb-6-6-3-blank-last.bin")
        let header = Array("GLPDB2 6-6-3 blank-last \(PatternTableChecksum.text(zeroTablesChecksum))\n".utf8)
        try Data(header).write(to: tables)
        let handle = try FileHandle(forWritingTo: tables)
        try handle.truncate(atOffset: UInt64(header.count + 33_558_528))
        try handle.close()
        for (name, bytes) in extra { try Data(bytes).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    @Test("a wait for another process's tables is said on standard error and is setup: not in solve's or a batch job's time")
    func setupApartFromSolving() throws {
        let cache = try Self.zeroTableCache()
        defer { try? FileManager.default.removeItem(at: cache) }
        let lockPath = cache.appendingPathComponent("pdb-6-6-3-blank-last.bin.lock").path
        /// Holds the tables' lock as a process building them would, for 3 s (time for a loaded
        /// machine to start the batch's worker while it is held).
        func holdLock() {
            let lock = open(lockPath, O_CREAT | O_RDWR, 0o644)
            flock(lock, LOCK_EX)
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) { close(lock) }
        }
        holdLock()
        let solve = try GridlockBinary.run(
            ["solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15", "--solver", "idastar-pdb", "--format", "json"], environment: ["GRIDLOCK_CACHE": cache.path])
        #expect(solve.status == 0, "\(solve.stderr)")
        #expect(solve.stderr.contains("pdb: waiting for another process building the 6-6-3 pattern databases of the blank-last goal since 0 s"), "\(solve.stderr)")
        #expect(solve.stderr.contains("pdb: the other process finished") && solve.stderr.contains("solve: setup: idastar-pdb's tables ready in"), "\(solve.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(solve.stdout.utf8)) as? [String: Any])
        let seconds = try #require((report["stats"] as? [String: Any])?["seconds"] as? Double)
        #expect(seconds < 1, "the 3 s wait was booked as the solve's time: \(seconds) s")

        // A batch's workers ready their tables before they ask for jobs: no job's time holds the wait.
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tiles.txt")
        try "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15\n".write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("r.sqlite").path
        holdLock()
        let batch = try GridlockBinary.run(
            ["batch", file.path, "--solver", "idastar-pdb", "--goal", "blank-last", "--workers", "1", "--db", database, "--format", "json"],
            environment: ["GRIDLOCK_CACHE": cache.path])
        #expect(batch.status == 0 && batch.stderr.contains("pdb: waiting for another process building"), "\(batch.stderr)")
        let slowest = try NumericReportTests.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT MAX(seconds) < 1, COUNT(*) FROM results WHERE status = 'solved'").fetchone())
            """, database: database)
        #expect(slowest == "(1, 2)", "a job's time holds the wait for the tables: \(slowest)")
    }

    @Test("cached tables are mapped from their file, so a batch's workers share one copy, not read into each")
    func cachedTablesAreMapped() throws {
        let cache = try Self.zeroTableCache()
        defer { try? FileManager.default.removeItem(at: cache) }
        // 80 random moves from the goal: with all-zero bounds the search runs until stopped.
        let solve = try GridlockBinary.start(
            ["solve", "9 6 0 7 5 3 2 8 11 12 4 1 10 13 15 14", "--solver", "idastar-pdb", "--timeout", "60"],
            environment: ["GRIDLOCK_CACHE": cache.path])
        defer {
            // Only while it runs: once reaped, its number may be another process's.
            if solve.isRunning { kill(solve.processIdentifier, SIGKILL) }
            solve.waitUntilExit()
        }
        // /proc names the file by its real path: a temporary folder behind a symlink is resolved.
        let tables = cache.appendingPathComponent("pdb-6-6-3-blank-last.bin").resolvingSymlinksInPath().path
        var mapped = false
        for _ in 0..<200 where !mapped && solve.isRunning {
            let maps = (try? String(contentsOfFile: "/proc/\(solve.processIdentifier)/maps", encoding: .utf8)) ?? ""
            mapped = maps.split(separator: "\n").contains { $0.hasSuffix(tables) && $0.split(separator: " ")[1].hasPrefix("r--s") }
            if !mapped { usleep(50_000) }
        }
        #expect(mapped || !solve.isRunning, "the tables' file is not mapped shared and read-only by the solving process")
        #expect(solve.isRunning, "the solve ended before it was looked at (status \(solve.isRunning ? 0 : solve.terminationStatus))")
    }

    @Test("SIGTERM stops a solve even when the parent that started it blocks SIGTERM (the mask is inherited)")
    func stopsOnSIGTERMWhateverTheInheritedMask() throws {
        let cache = try Self.zeroTableCache()
        defer { try? FileManager.default.removeItem(at: cache) }
        // Blocked in this thread while it starts the child, which inherits the mask.
        var term = sigset_t(), previous = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &term, &previous)
        let solve: Process
        do {
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            solve = try GridlockBinary.start(
                ["solve", "9 6 0 7 5 3 2 8 11 12 4 1 10 13 15 14", "--solver", "idastar-pdb", "--timeout", "60"],
                environment: ["GRIDLOCK_CACHE": cache.path])
        }
        defer {
            // Only while it runs: once reaped, its number may be another process's.
            if solve.isRunning { kill(solve.processIdentifier, SIGKILL) }
            solve.waitUntilExit()
        }
        usleep(300_000)
        kill(solve.processIdentifier, SIGTERM)
        for _ in 0..<100 where solve.isRunning { usleep(50_000) }
        #expect(!solve.isRunning && solve.terminationReason == .uncaughtSignal && solve.terminationStatus == SIGTERM,
                "still running 5 s after SIGTERM, or ended otherwise")
    }

    @Test("the cached tables read through their mapping bound exactly: idastar-pdb finds idastar-md's lengths with fewer nodes")
    func mappedTablesAreTheTables() throws {
        // Three blank-last boards of 32 to 44 moves. Tables read at a wrong offset (the file's
        // header line is not page-aligned) would bound wrongly: longer solutions, or as many nodes.
        let boards = "2 5 6 4 3 7 1 8 0 10 11 12 9 14 13 15\n7 4 12 15 3 1 11 14 0 5 9 8 2 13 10 6\n2 5 10 7 1 0 12 4 11 15 3 6 9 13 8 14\n"
        func solved(_ solver: String) throws -> [(moves: Int, examined: Int)] {
            let output = try GridlockBinary.run(["solve", "-", "--solver", solver, "--format", "json"], stdin: boards)
            #expect(output.status == 0, "\(output.stderr)")
            return try Self.objects(output.stdout).map { object in
                let stats = try #require(object["stats"] as? [String: Any])
                return (try #require(object["moves"] as? Int), try #require(stats["examined"] as? Int))
            }
        }
        let tables = try solved("idastar-pdb"), manhattan = try solved("idastar-md")
        #expect(tables.map(\.moves) == manhattan.map(\.moves) && tables.count == 3, "\(tables) \(manhattan)")
        for (pdb, md) in zip(tables, manhattan) { #expect(pdb.examined * 5 < md.examined, "\(pdb) \(md)") }
    }

    @Test("a 7-8 file of the wrong size is refused with its size, and the solve goes on with the 6-6-3 tables")
    func wrongSizedTablesFallBack() throws {
        let cache = try Self.zeroTableCache(["pdb-7-8-blank-last.bin": Array("GLPDB2 7-8 blank-last 0000000000000000\n0123".utf8)])
        defer { try? FileManager.default.removeItem(at: cache) }
        let solve = try GridlockBinary.run(
            ["solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "--solver", "idastar-pdb"], environment: ["GRIDLOCK_CACHE": cache.path])
        #expect(solve.status == 0 && solve.stdout.contains("solved in 1 move"), "\(solve.stdout)\(solve.stderr)")
        #expect(solve.stderr.contains("is 43 bytes") && solve.stderr.contains("using the 6-6-3 tables"), "\(solve.stderr)")
        // `pdb list` says the same: the 7-8 file refused and why, the 6-6-3 tables in use.
        let list = try GridlockBinary.run(["pdb", "list"], environment: ["GRIDLOCK_CACHE": cache.path])
        let lines = list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(list.status == 0 && lines.contains("blank-last 7-8 43 B refused") && lines.contains("blank-last 6-6-3 32 MiB in use")
                && lines.contains("blank-first 6-6-3 - built on first use"), "\(list.stdout)")
        #expect(lines.contains { $0.hasPrefix("refused, blank-last 7-8:") && $0.contains("is 43 bytes") }, "\(list.stdout)")
        // A file under another goal's name, through a symlink: its size is the file's, and the
        // 6-6-3 tables it stands for are refused, so a solve builds them again.
        try FileManager.default.createSymbolicLink(
            atPath: cache.appendingPathComponent("pdb-6-6-3-blank-first.bin").path,
            withDestinationPath: cache.appendingPathComponent("pdb-6-6-3-blank-last.bin").path)
        let linked = try GridlockBinary.run(["pdb", "list"], environment: ["GRIDLOCK_CACHE": cache.path]).stdout
        #expect(linked.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
            .contains("blank-first 6-6-3 32 MiB refused, rebuilt on use"), "\(linked)")
    }

    @Test("cached tables with one byte raised, or of an older build with no checksum, are refused by their checksum and never used")
    func damagedTablesAreRefused() throws {
        let cache = try Self.zeroTableCache()
        defer { try? FileManager.default.removeItem(at: cache) }
        let path = cache.appendingPathComponent("pdb-6-6-3-blank-last.bin").path
        func listed() throws -> [String] {
            let list = try GridlockBinary.run(["pdb", "list"], environment: ["GRIDLOCK_CACHE": cache.path])
            #expect(list.status == 0)
            return list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        }
        #expect(try listed().contains("blank-last 6-6-3 32 MiB in use"))
        // One byte of the tables raised, in place: the size and the header still right.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let header = Array("GLPDB2 6-6-3 blank-last \(PatternTableChecksum.text(Self.zeroTablesChecksum))\n".utf8).count
        try handle.seek(toOffset: UInt64(header + 12_345_678))
        handle.write(Data([1]))
        try handle.close()
        let damaged = try listed()
        #expect(damaged.contains("blank-last 6-6-3 32 MiB refused, rebuilt on use"), "\(damaged)")
        #expect(damaged.contains { $0.hasPrefix("refused, blank-last 6-6-3:") && $0.contains("is damaged: its tables' checksum is") }, "\(damaged)")
        // The first form of the file had no checksum: refused too.
        let old = "GLPDB1 6-6-3 blank-last\n"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(0..<header, with: Data(old.utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try listed().contains { $0.hasPrefix("refused, blank-last 6-6-3:") && $0.contains("an older build's file, with no checksum") })
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
