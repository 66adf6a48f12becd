// Limits on every job (issue 19), with outside solvers that misbehave for real: one that spins,
// one that allocates without end, one whose children spin (one of them escaping its process
// group). Each under control groups where this machine lets the worker make them (root), and
// under the /proc fallback (GRIDLOCK_MEASURE=proc) everywhere.

import Foundation
import Testing

@Suite("job limits: CPU time, memory, whole trees", .serialized)
struct LimitCommandTests {
    /// The ways a worker may measure here: cgroups only where they can be made (v1 where its
    /// memory hierarchy is writable, v2 where its hierarchy is), the /proc fallback everywhere.
    static let methods: [String] = {
        let mounts = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        let v2 = mounts.split(separator: "\n").first { $0.contains(" - cgroup2 ") }?.split(separator: " ")[4]
        let root = getuid() == 0
        let v1Writable = root && access("/sys/fs/cgroup/memory", W_OK) == 0
        let v2Writable = root && v2.map { access(String($0), W_OK) == 0 } == true
        if !v2Writable { print("SKIP: job limits under cgroup v2: no writable v2 hierarchy here") }
        return (v1Writable ? ["cgroup"] : []) + (v2Writable ? ["cgroup2"] : []) + ["proc"]
    }()

    static func environment(_ method: String) -> [String: String] {
        switch method {
        case "proc": ["GRIDLOCK_MEASURE": "proc"]
        case "cgroup2": ["GRIDLOCK_MEASURE": "cgroup2"]
        default: ["GRIDLOCK_MEASURE": "cgroup1"]
        }
    }

    /// What the machine record says of a method.
    static func recorded(_ method: String) -> String {
        switch method {
        case "proc": "outside: /proc samples"
        case "cgroup2": "outside: cgroup v2 cpu"
        default: "outside: cgroup v1"
        }
    }

    static func rows(_ database: String) throws -> [[String: Any]] {
        let output = try GridlockBinary.run(["export", database, "--format", "jsonl"])
        return try output.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test("spinning past --time-limit 1 is a timeout at 1-2 s of CPU; allocating past --memory-limit 256M a memout within 2 s; the worker lives on", arguments: methods)
    func spinAndAllocate(method: String) throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 2, step: 500).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let allocate = directory.appendingPathComponent("allocate.py")
        // Bytes multiplied are written, so every page is touched (a bytearray's zeros would not be).
        try "import sys\nsys.stdin.read()\nheld = []\nwhile True:\n    held.append(b'x' * 10_000_000)\n".write(to: allocate, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("r.sqlite").path
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "1", "--db", database, "--time-limit", "1", "--memory-limit", "256M", "--timeout", "20",
            "--external", "rushhour:spin=while :; do :; done", "--external", "rushhour:allocate=python3 \(allocate.path)",
            "--solver", "spin,allocate,bfs",
        ], environment: Self.environment(method))
        #expect(batch.status == 2, "cut-offs exit 2: \(batch.stderr)")
        #expect(batch.stderr.contains("0 worker restarts"), "\(batch.stderr)")
        let rows = try Self.rows(database)
        #expect(rows.count == 6)
        for row in rows {
            let cpu = row["cpuSeconds"] as? Double ?? -1, wall = row["seconds"] as? Double ?? -1
            switch row["solver"] as? String {
            case "spin":
                #expect(row["termination"] as? String == "timeout" && row["status"] as? String == "cutoff", "\(row)")
                #expect(cpu >= 1 && cpu <= 2, "\(row)")
            case "allocate":
                #expect(row["termination"] as? String == "memout" && row["status"] as? String == "cutoff", "\(row)")
                #expect(wall < 2, "\(row)")
                #expect((row["memoryBytes"] as? Int ?? 0) >= 200 << 20, "its peak, near the limit: \(row)")
            default:
                #expect(row["status"] as? String == "solved" && row["termination"] is NSNull, "\(row)")
            }
        }
        // One worker process answered every job: a memout killed the solver, not the worker.
        #expect(Set(rows.compactMap { $0["worker"] as? String }).count == 1)
        let report = try GridlockBinary.run(["report", database, "--format", "json"])
        let batches = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["batches"] as? [[String: Any]])
        #expect(batches.first?["time_limit_seconds"] as? Double == 1 && batches.first?["memory_limit_bytes"] as? Int == 256 << 20, "\(batches)")
        let machines = try GridlockBinary.run(["report", database, "--format", "csv", "--table", "machines"])
        #expect(machines.stdout.contains(Self.recorded(method)), "\(machines.stdout)")
    }

    @Test("a solver whose children spin, one escaped into a session of its own, is killed whole: nothing of it outlives the batch", arguments: methods)
    func wholeTreeKilled(method: String) throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 1).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let marker = "gridlock-tree-\(UUID().uuidString.prefix(8))"
        let command = "sh -c 'while :; do :; done' & setsid sh -c 'while :; do :; done; : \(marker)' & wait"
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "1", "--db", directory.appendingPathComponent("r.sqlite").path, "--time-limit", "1", "--timeout", "20",
            "--external", "rushhour:tree=\(command)", "--solver", "tree",
        ], environment: Self.environment(method))
        #expect(batch.status == 2 && batch.stderr.contains("1 cutoff"), "\(batch.stderr)")
        let left = try GridlockBinary.runTool("/usr/bin/pgrep", ["-f", marker])
        #expect(left.isEmpty, "still running: \(left)")
    }

    @Test("built-in solvers are held to the same limits: the solving thread's CPU time, and their tables under the memory limit")
    func builtInLimits() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        // Unblock Me I-4: 58,419 states, which no 4 KiB table holds, and which takes the
        // reference solver far more than 2 ms.
        try "23 \(ExternalSolverCommandTests.puzzle) 58419\n".write(to: input, atomically: true, encoding: .utf8)
        for (flags, solver, termination) in [(["--memory-limit", "4K"], "bfs", "memout"), (["--time-limit", "0.002"], "reference", "timeout")] {
            let database = directory.appendingPathComponent("\(solver).sqlite").path
            let batch = try GridlockBinary.run(["batch", input.path, "--workers", "1", "--db", database, "--solver", solver] + flags)
            #expect(batch.status == 2, "\(batch.stderr)")
            let row = try #require(try Self.rows(database).first)
            #expect(row["status"] as? String == "cutoff" && row["termination"] as? String == termination, "\(row)")
        }
        // The same limits without a batch.
        let solved = try GridlockBinary.run(["solve", ExternalSolverCommandTests.puzzle, "--memory-limit", "4K"])
        #expect(solved.status == 2 && solved.stdout.contains("memory-budget"), "\(solved.stdout)")
        for bad in [["--memory-limit", "256"], ["--memory-limit", "0M"], ["--time-limit", "inf"], ["--time-limit", "-1"]] {
            let refused = try GridlockBinary.run(["batch", input.path, "--db", directory.appendingPathComponent("x.sqlite").path] + bad)
            #expect(refused.status == 64 && refused.stderr.contains(bad[0]), "\(bad): \(refused.stderr)")
        }
    }

    @Test("groups a killed worker left behind are removed by the next worker", arguments: methods.filter { $0 != "proc" })
    func abandonedGroupsRemoved(method: String) throws {
        let cgroups = try String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)
        let mounts = try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
        let line = try #require(cgroups.split(separator: "\n").first { method == "cgroup2" ? $0.hasPrefix("0::") : $0.contains(":memory:") })
        let path = try #require(line.split(separator: ":", omittingEmptySubsequences: false).last)
        let mount = method == "cgroup2" ? String(try #require(mounts.split(separator: "\n").first { $0.contains(" - cgroup2 ") }?.split(separator: " ")[4])) : "/sys/fs/cgroup/memory"
        // A pid that was, and is no more.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let abandoned = "\(mount)\(path == "/" ? "" : String(path))/gridlock-\(gone.processIdentifier)-7"
        try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: false)
        defer { rmdir(abandoned) }
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try "23 \(ExternalSolverCommandTests.puzzle) 58419\n".write(to: input, atomically: true, encoding: .utf8)
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "1", "--db", directory.appendingPathComponent("r.sqlite").path,
            "--external", "rushhour:nothing=true", "--solver", "nothing",
        ], environment: Self.environment(method))
        #expect(batch.status == 2, "\(batch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: abandoned))
    }

    @Test("the scores: PAR-2 counts an unsolved puzzle as twice the limit, the VBS takes the fastest right answer; the batch's tables are report's")
    func scores() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 3, step: 400).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("r.sqlite").path
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "2", "--db", database, "--time-limit", "5",
            "--external", "rushhour:garbled=echo nonsense", "--solver", "bfs,garbled",
        ])
        #expect(batch.status == 2, "\(batch.stderr)")
        #expect(batch.stdout.contains("PAR-2") && batch.stdout.contains("VBS"), "\(batch.stdout)")
        // Folded as the rows were stored, in any order: the same tables as read back in job order.
        let report = try GridlockBinary.run(["report", database])
        #expect(report.stdout == batch.stdout)
        let json = try GridlockBinary.run(["report", database, "--format", "json"])
        let scores = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["scores"] as? [[String: Any]])
        #expect(scores.map { $0["solver"] as? String } == ["bfs", "garbled", "VBS"], "\(scores)")
        let bfs = scores[0], garbled = scores[1], vbs = scores[2]
        #expect(bfs["solved"] as? Int == 3 && (bfs["par2_seconds"] as? Double ?? 10) < 1 && bfs["vbs_share"] as? Double == 1)
        // Each unsolved puzzle counts 2 x 5 s.
        #expect(garbled["solved"] as? Int == 0 && garbled["par2_seconds"] as? Double == 10 && garbled["vbs_share"] as? Double == 0, "\(garbled)")
        #expect(vbs["solved"] as? Int == 3 && vbs["par2_seconds"] as? Double == bfs["par2_seconds"] as? Double, "\(vbs)")
        let csv = try GridlockBinary.run(["report", database, "--format", "csv", "--table", "scores"])
        #expect(csv.stdout.hasPrefix("batch,time,kind,solver,puzzles,solved,wrong,timeouts,memouts,par2_seconds,fastest,vbs_share\n"), "\(csv.stdout)")
    }

    @Test("what an attack found: setsid does not leave the tree, the watchdog is not the solver, a run over its limit between looks is cut off, an OOM kill ends the tree", arguments: methods)
    func evasions(method: String) throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try "23 \(ExternalSolverCommandTests.puzzle) 58419\n".write(to: input, atomically: true, encoding: .utf8)
        let answer = directory.appendingPathComponent("answer.json")
        try ExternalSolverCommandTests.rightAnswer().write(to: answer, atomically: true, encoding: .utf8)
        let hog = directory.appendingPathComponent("hog.py")
        try "import time\nheld = b'x' * 12_000_000\ntime.sleep(3)\n".write(to: hog, atomically: true, encoding: .utf8)
        let cases: [(name: String, command: String, flags: [String], termination: String?)] = [
            // A spinner in a session of its own is still the solver's: its CPU time counts.
            ("escaped", "setsid sh -c 'while :; do :; done'", ["--time-limit", "1", "--timeout", "10"], "timeout"),
            // A right answer, but past a CPU limit far below what starting a shell costs, before any look.
            ("quick", "cat \(answer.path)", ["--time-limit", "0.00001"], "timeout"),
            // Eight children of 12 MB and more each, the parent answering: over 64M in all.
            ("forks", "for i in 1 2 3 4 5 6 7 8; do python3 \(hog.path) & done; sleep 1; cat \(answer.path); wait", ["--memory-limit", "64M", "--timeout", "20"], "memout"),
            // The right answer, held to the limit by what it used: a cat, not the watchdog's copy
            // of the worker (with control groups, its figure is its own; sampled, it may include
            // the pages the shell had as a fork before exec, so only the verdict is asked).
            ("small", "cat \(answer.path)", ["--memory-limit", "6M"], nil),
        ]
        for (name, command, flags, termination) in cases {
            let database = directory.appendingPathComponent("\(name).sqlite").path
            let batch = try GridlockBinary.run(
                ["batch", input.path, "--workers", "1", "--db", database, "--external", "rushhour:\(name)=\(command)", "--solver", name] + flags,
                environment: Self.environment(method))
            let row = try #require(try Self.rows(database).first, "\(name): \(batch.stderr)")
            #expect(row["termination"] as? String == termination, "\(name) (\(method)): \(row)")
            if name == "escaped" { #expect((row["cpuSeconds"] as? Double ?? 0) < 2.5, "\(row)") }
            if name == "small" {
                #expect(row["status"] as? String == "solved", "\(row)")
                if method == "cgroup" { #expect((row["memoryBytes"] as? Int ?? .max) < 6 << 20, "\(row)") }
            }
        }
    }

    @Test("--pin puts each worker, and so its solvers, on one CPU; without it they may run anywhere; --no-smt needs --pin")
    func pinned() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 6).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let answer = directory.appendingPathComponent("answer.json")
        try ExternalSolverCommandTests.rightAnswer().write(to: answer, atomically: true, encoding: .utf8)
        let allowed = try String(contentsOfFile: "/proc/self/status", encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("Cpus_allowed_list:") }?.split(separator: "\t").last.map(String.init) ?? ""
        for pin in [true, false] {
            let seen = directory.appendingPathComponent("seen-\(pin)").path
            // The batch asks the solver its --version (in a process of its own): not a solve.
            let script = directory.appendingPathComponent("where-\(pin).sh").path
            try "[ \"$1\" = --version ] && exit 1\ngrep Cpus_allowed_list /proc/self/status | cut -f2 >> \(seen); cat \(answer.path)\n"
                .write(toFile: script, atomically: true, encoding: .utf8)
            let batch = try GridlockBinary.run([
                "batch", input.path, "--workers", "2", "--db", directory.appendingPathComponent("r\(pin).sqlite").path,
                "--external", "rushhour:where=sh \(script)", "--solver", "where",
            ] + (pin ? ["--pin"] : []))
            // The stored answer is another board's: every row is wrong (exit 3); only where each ran matters.
            #expect(batch.status == 3, "\(batch.stderr)")
            let lists = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lists.count == 6)
            if pin {
                #expect(lists.allSatisfy { Int($0) != nil }, "each solver ran on one CPU: \(lists)")
            } else {
                #expect(lists.allSatisfy { $0 == allowed }, "\(lists) against \(allowed)")
            }
        }
        let refused = try GridlockBinary.run(["batch", input.path, "--no-smt"])
        #expect(refused.status == 64 && refused.stderr.contains("--no-smt goes with --pin"), "\(refused.stderr)")
    }

    @Test("--paired: a puzzle's solvers run on one worker, back to back, their order rotating from puzzle to puzzle")
    func paired() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 300, step: 50).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("r.sqlite").path
        let batch = try GridlockBinary.run(["batch", input.path, "--workers", "2", "--db", database, "--solver", "bfs,bidirectional", "--paired"])
        #expect(batch.status == 0, "\(batch.stderr)")
        var bySource: [String: [(job: Int, solver: String, worker: String)]] = [:]
        for row in try Self.rows(database) {
            let source = try #require(row["source"] as? String)
            bySource[source, default: []].append((try #require(row["job"] as? Int), try #require(row["solver"] as? String), try #require(row["worker"] as? String)))
        }
        #expect(bySource.count == 300)
        let records = bySource.values.map { $0.sorted { $0.job < $1.job } }.sorted { $0[0].job < $1[0].job }
        for (index, jobs) in records.enumerated() {
            #expect(jobs.count == 2 && jobs[0].worker == jobs[1].worker, "split: \(jobs)")
            #expect(jobs[0].solver == (index % 2 == 0 ? "bfs" : "bidirectional"), "record \(index): \(jobs)")
        }
        // Both workers had puzzles: pairing is per puzzle, not one worker for all.
        #expect(Set(records.map { $0[0].worker }).count == 2)
    }

    @Test("--repeats 3 --paired: every run a row, on the puzzle's one worker, solvers interleaved and rotating; the scores count each puzzle once")
    func repeats() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 20, step: 90).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("r.sqlite").path
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "2", "--db", database, "--solver", "bfs,bidirectional", "--paired", "--repeats", "3",
        ])
        #expect(batch.status == 0, "\(batch.stderr)")
        var bySource: [String: [(job: Int, solver: String, worker: String, repetition: Int)]] = [:]
        for row in try Self.rows(database) {
            bySource[try #require(row["source"] as? String), default: []].append((
                try #require(row["job"] as? Int), try #require(row["solver"] as? String), try #require(row["worker"] as? String),
                try #require(row["repetition"] as? Int)))
        }
        #expect(bySource.count == 20)
        let records = bySource.values.map { $0.sorted { $0.job < $1.job } }.sorted { $0[0].job < $1[0].job }
        for (index, jobs) in records.enumerated() {
            #expect(jobs.count == 6 && Set(jobs.map(\.worker)).count == 1, "\(jobs)")
            #expect(jobs.map(\.repetition) == [0, 0, 1, 1, 2, 2])
            // Every solver once per run, the first one rotating from run to run and puzzle to puzzle.
            let firsts = stride(from: 0, to: 6, by: 2).map { jobs[$0].solver }
            let expected = (0..<3).map { (index + $0) % 2 == 0 ? "bfs" : "bidirectional" }
            #expect(firsts == expected, "record \(index): \(jobs.map(\.solver))")
        }
        let json = try GridlockBinary.run(["report", database, "--format", "json"])
        let scores = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["scores"] as? [[String: Any]])
        #expect(scores.allSatisfy { $0["puzzles"] as? Int == 20 }, "\(scores)")
        #expect(batch.stdout.contains("   60 ") || batch.stdout.contains(" 60 "), "each solver's 60 runs in the tables")
        let refused = try GridlockBinary.run(["batch", input.path, "--repeats", "0"])
        #expect(refused.status == 64 && refused.stderr.contains("--repeats"), "\(refused.stderr)")
    }

    @Test("a coordinator's batch is recorded by its sink with its limits and its number of jobs, so its report has PAR-2")
    func coordinatorRecordsItsBatch() throws {
        let cluster = try ClusterHarness()
        let input = try cluster.write(try ClusterHarness.sample(count: 4, step: 300))
        try cluster.startSink()
        try cluster.startCoordinator(input, extra: ["--time-limit", "5", "--memory-limit", "1G", "--timeout", "30", "--solver", "bfs,bidirectional"])
        try cluster.startWorkers(1)
        try cluster.finish()
        let report = try GridlockBinary.run(["report", cluster.database, "--format", "json"])
        let tables = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let batches = try #require(tables["batches"] as? [[String: Any]])
        #expect(batches.count == 1 && batches[0]["id"] as? String == "test", "\(batches)")
        #expect(batches[0]["time_limit_seconds"] as? Double == 5 && batches[0]["memory_limit_bytes"] as? Int == 1 << 30, "\(batches)")
        #expect(batches[0]["wall_limit_seconds"] as? Double == 30 && batches[0]["jobs"] as? Int == 8, "\(batches)")
        let scores = try #require(tables["scores"] as? [[String: Any]])
        #expect(scores.count == 3 && scores.allSatisfy { ($0["par2_seconds"] as? Double ?? 0) > 0 }, "\(scores)")
    }
}
