// Serving outside solvers for real (issue 19, `--external-serve`): one long-lived process per
// worker, a puzzle a line, an answer a line. Shell servers that keep a log beside their answers
// (their pid and how many puzzles they have read) show which process answered what: one
// process for a whole run, and a new one after each that died, overran or went out of step.

import Foundation
import Testing

@Suite("serving outside solvers: one process, restarted when it fails", .serialized)
struct ServedSolverCommandTests {
    static let puzzle = ExternalSolverCommandTests.puzzle

    /// A shell server that logs "PID N LINE" for each line it reads (N: the lines all servers
    /// of the run have read, from 1), then runs `act` (with N in $n) and, unless `act` answered,
    /// prints `answer`.
    static func server(log: String, answer: String, act: String = "") -> String {
        "while read -r line; do n=$(($(cat '\(log)' 2>/dev/null | wc -l) + 1)); echo \"$$ $n $line\" >> '\(log)'; \(act) echo '\(answer)'; done"
    }

    static func logged(_ log: String) throws -> [(pid: Int32, count: Int, line: String)] {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { entry in
            let parts = entry.split(separator: " ", maxSplits: 2)
            return (Int32(parts[0])!, Int(parts[1])!, parts.count > 2 ? String(parts[2]) : "")
        }
    }

    /// `solve` over `count` copies of the puzzle, one process serving them.
    static func solve(
        _ command: String, count: Int = 3, _ extra: [String] = [], timeout: Int = 5, environment: [String: String] = [:]
    ) throws -> CommandOutput {
        let directory = try BatchCommandTests.temporaryDirectory()
        let input = directory.appendingPathComponent("p.txt")
        try String(repeating: "23 \(puzzle) 1234\n", count: count).write(to: input, atomically: true, encoding: .utf8)
        return try GridlockBinary.run(
            ["solve", input.path, "--external-serve", "rushhour:outside=\(command)", "--solver", "outside", "--timeout", "\(timeout)"] + extra,
            environment: environment)
    }

    static func outcomes(_ output: CommandOutput) -> [String] {
        output.stdout.split(separator: "\n").filter { $0.contains(" · ") }.map(String.init)
    }

    @Test("one process answers every puzzle, each handed over as one line; it is gone when the run ends")
    func oneProcess() throws {
        let log = try BatchCommandTests.temporaryDirectory().appendingPathComponent("log").path
        let result = try Self.solve(Self.server(log: log, answer: try ExternalSolverCommandTests.rightAnswer()))
        #expect(result.status == 0 && Self.outcomes(result).count == 3, "\(result.stdout)\(result.stderr)")
        #expect(Self.outcomes(result).allSatisfy { $0.contains("solved in 23 moves (as expected)") }, "\(result.stdout)")
        let entries = try Self.logged(log)
        #expect(entries.map(\.count) == [1, 2, 3] && Set(entries.map(\.pid)).count == 1, "\(entries)")
        #expect(entries.allSatisfy { $0.line == Self.puzzle }, "the board alone: \(entries)")
        #expect(ExternalSolverCommandTests.isGone(entries[0].pid))
    }

    @Test("a server that dies mid-puzzle: that puzzle crashed, with its code; the next puzzle starts a new one")
    func diedRestarted() throws {
        let log = try BatchCommandTests.temporaryDirectory().appendingPathComponent("log").path
        let result = try Self.solve(Self.server(log: log, answer: try ExternalSolverCommandTests.rightAnswer(), act: "[ $n = 2 ] && exit 4;"))
        let outcomes = Self.outcomes(result)
        #expect(result.status == 2 && outcomes.count == 3, "\(result.stdout)\(result.stderr)")
        #expect(outcomes[0].contains("solved") && outcomes[1].contains("crashed: outside exited with code 4") && outcomes[2].contains("solved"), "\(outcomes)")
        let entries = try Self.logged(log)
        #expect(entries.map(\.count) == [1, 2, 3] && entries[0].pid == entries[1].pid && entries[2].pid != entries[0].pid, "\(entries)")
    }

    @Test("a server past the deadline is killed, and the next puzzle starts a new one")
    func overrunRestarted() throws {
        let log = try BatchCommandTests.temporaryDirectory().appendingPathComponent("log").path
        let result = try Self.solve(
            Self.server(log: log, answer: try ExternalSolverCommandTests.rightAnswer(), act: "[ $n = 1 ] && sleep 30;"), count: 2, ["--timeout", "1"])
        let outcomes = Self.outcomes(result)
        #expect(outcomes.count == 2 && outcomes[0].contains("cut off") && outcomes[1].contains("solved"), "\(result.stdout)\(result.stderr)")
        let entries = try Self.logged(log)
        #expect(entries.count == 2 && entries[0].pid != entries[1].pid, "\(entries)")
        #expect(ExternalSolverCommandTests.isGone(entries[0].pid))
    }

    @Test("an answer that is not JSON is an error, escaped, and so is a line past 1 MiB; either way the server is replaced")
    func garbageAndOverlong() throws {
        let log = try BatchCommandTests.temporaryDirectory().appendingPathComponent("log").path
        let answer = try ExternalSolverCommandTests.rightAnswer()
        let act = #"[ $n = 1 ] && { printf '\033[2Jnot json\n'; continue; }; [ $n = 2 ] && { head -c 1200000 /dev/zero | tr '\0' a; echo; continue; };"#
        let result = try Self.solve(Self.server(log: log, answer: answer, act: act), count: 4)
        let outcomes = Self.outcomes(result)
        #expect(outcomes.count == 4, "\(result.stdout)\(result.stderr)")
        #expect(outcomes[0].contains(#"error: the answer is not JSON: '\u{1B}[2Jnot json'"#), "\(outcomes)")
        #expect(outcomes[1].contains("printed over 1024 KiB"), "\(outcomes)")
        #expect(outcomes[2].contains("solved") && outcomes[3].contains("solved"), "\(outcomes)")
        let entries = try Self.logged(log)
        // Out of step after each: three servers, the last answering twice.
        #expect(entries.map(\.count) == [1, 2, 3, 4] && Set(entries.map(\.pid)).count == 3 && entries[2].pid == entries[3].pid, "\(entries)")
    }

    @Test("a server that prints two lines for one puzzle is replaced before its next puzzle")
    func twoLinesReplaced() throws {
        let log = try BatchCommandTests.temporaryDirectory().appendingPathComponent("log").path
        let answer = try ExternalSolverCommandTests.rightAnswer()
        let act = "[ $n = 1 ] && { printf '%s\\n%s\\n' '\(answer)' '\(answer)'; continue; };"
        let result = try Self.solve(Self.server(log: log, answer: answer, act: act), count: 3)
        let outcomes = Self.outcomes(result)
        #expect(result.status == 0 && outcomes.count == 3 && outcomes.allSatisfy { $0.contains("solved") }, "\(result.stdout)\(result.stderr)")
        let entries = try Self.logged(log)
        #expect(entries.map(\.count) == [1, 2, 3] && entries[0].pid != entries[1].pid && entries[1].pid == entries[2].pid, "\(entries)")
    }

    @Test("a late second line is taken for the next puzzle, which the validator refutes; the server is then replaced")
    func lateLineRefuted() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 3, step: 400).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let example = GridlockBinary.repository.appendingPathComponent("examples/external/rushhour_bfs.py").path
        let doubled = "python3 \(example) --serve | while IFS= read -r a; do echo \"$a\"; sleep 0.1; echo \"$a\"; done"
        let result = try GridlockBinary.run(["solve", input.path, "--external-serve", "rushhour:late=\(doubled)", "--solver", "late", "--timeout", "10"])
        let outcomes = Self.outcomes(result)
        #expect(result.status == 3 && outcomes.count == 3, "\(result.stdout)\(result.stderr)")
        #expect(outcomes[0].contains("solved") && outcomes[1].contains("wrong answer") && outcomes[2].contains("solved"), "\(outcomes)")
    }

    @Test("a program that answers one puzzle and exits, served: each puzzle gets a new one, none lost")
    func oneShotServed() throws {
        let example = GridlockBinary.repository.appendingPathComponent("examples/external/rushhour_bfs.py").path
        // A Python BFS of this board takes 1-4 s, the longer on a loaded machine: 5 s cut one
        // off on CI's, so the limit here is 30 s.
        let result = try Self.solve("python3 \(example)", count: 4, timeout: 30)
        #expect(result.status == 0 && Self.outcomes(result).filter { $0.contains("solved in 23 moves") }.count == 4, "\(result.stdout)\(result.stderr)")
    }

    @Test("a server's start, however long, is no part of the first puzzle's time or limit; its error output is kept when it dies starting")
    func slowStart() throws {
        let log = try BatchCommandTests.temporaryDirectory().appendingPathComponent("log").path
        let result = try Self.solve("sleep 1.5; " + Self.server(log: log, answer: try ExternalSolverCommandTests.rightAnswer()), count: 2, ["--timeout", "1"])
        #expect(result.status == 0 && Self.outcomes(result).filter { $0.contains("solved") }.count == 2, "\(result.stdout)\(result.stderr)")
        let broken = try Self.solve("echo 'no such module' >&2; exit 1", count: 1)
        #expect(broken.status == 2 && broken.stdout.contains("crashed: outside exited with code 1; its standard error: 'no such module"), "\(broken.stdout)")
    }

    @Test("spinning past --time-limit 1 is a timeout at 1-2 s of CPU; allocating past --memory-limit 256M a memout; each server replaced", arguments: LimitCommandTests.methods)
    func limits(method: String) throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 2, step: 500).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let allocate = directory.appendingPathComponent("allocate.py")
        try "import sys\nsys.stdin.readline()\nheld = []\nwhile True:\n    held.append(b'x' * 10_000_000)\n".write(to: allocate, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("r.sqlite").path
        let exec = directory.appendingPathComponent("allocate-once.py")
        try "held = []\nwhile True:\n    held.append(b'x' * 10_000_000)\n".write(to: exec, atomically: true, encoding: .utf8)
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "1", "--db", database, "--time-limit", "1", "--memory-limit", "256M", "--timeout", "20",
            "--external-serve", "rushhour:spin=read -r line; while :; do :; done", "--external-serve", "rushhour:allocate=python3 \(allocate.path)",
            // Servers whose work for each puzzle is a child they start for it.
            "--external-serve", "rushhour:spin-child=while read -r line; do sh -c 'while :; do :; done'; done",
            "--external-serve", "rushhour:allocate-child=while read -r line; do python3 \(exec.path); done",
            "--solver", "spin,allocate,spin-child,allocate-child,bfs",
        ], environment: LimitCommandTests.environment(method))
        #expect(batch.status == 2 && batch.stderr.contains("0 worker restarts"), "\(batch.stderr)")
        let rows = try LimitCommandTests.rows(database)
        #expect(rows.count == 10)
        for row in rows {
            let cpu = row["cpuSeconds"] as? Double ?? -1, wall = row["seconds"] as? Double ?? -1
            switch row["solver"] as? String {
            case "spin", "spin-child":
                #expect(row["termination"] as? String == "timeout" && cpu >= 1 && cpu <= 2, "\(row)")
            case "allocate", "allocate-child":
                #expect(row["termination"] as? String == "memout" && wall < 2, "\(row)")
            default:
                #expect(row["status"] as? String == "solved", "\(row)")
            }
        }
        // The worker removed its servers' control groups before it ended.
        let workers = Set(rows.compactMap { ($0["worker"] as? String)?.split(separator: ":").last.map(String.init) })
        for pid in workers {
            let left = try GridlockBinary.runTool("/usr/bin/find", ["/sys/fs/cgroup/memory", "/sys/fs/cgroup/cpuacct", "-maxdepth", "8", "-name", "gridlock-\(pid)-*"])
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }

    @Test("exec-mode solvers beside a serving one leave it running: one server for the whole batch")
    func execBesideServe() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        // Boards with no solution, so that both answers are right: a wrong answer (any, by the
        // one rule) puts a server out of step, and it is restarted.
        let unsolvable = ["-1 oBCDDDEBCoFGEBAAFGHHHooGoooooIJJoooI 3899", "-1 oooooBoooooBoooAABooooooCDEFGHCDEFGH 13500"]
        try ((unsolvable + unsolvable + unsolvable.prefix(1)).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("log").path
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "1", "--db", directory.appendingPathComponent("r.sqlite").path, "--timeout", "20",
            "--external", "rushhour:once=echo '{\"status\":\"unsolvable\"}'",
            "--external-serve", "rushhour:served=\(Self.server(log: log, answer: #"{"status":"unsolvable"}"#))", "--solver", "once,served",
        ])
        #expect(batch.status == 0, "true claims of no solution: \(batch.stderr)")
        let entries = try Self.logged(log)
        #expect(entries.count == 5 && Set(entries.map(\.pid)).count == 1, "\(entries)")
    }

    @Test("a child a warm server starts for one puzzle is held to the limits: spinning is a timeout at the CPU limit, allocating a memout", arguments: LimitCommandTests.methods)
    func childOfWarmServer(method: String) throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log").path
        let allocate = directory.appendingPathComponent("allocate.py")
        try "held = []\nwhile True:\n    held.append(b'x' * 10_000_000)\n".write(to: allocate, atomically: true, encoding: .utf8)
        let answer = try ExternalSolverCommandTests.rightAnswer()
        // The first puzzle answered at once (the server's processes are then known), the
        // second given to a child.
        for (child, message) in [("sh -c 'while :; do :; done'", "cut off (timeout)"), ("python3 \(allocate.path)", "cut off (memory")] {
            try? FileManager.default.removeItem(atPath: log)
            let started = Date()
            let result = try Self.solve(
                Self.server(log: log, answer: answer, act: "[ $n = 2 ] && \(child);"), count: 2, ["--time-limit", "1", "--memory-limit", "256M", "--timeout", "8"],
                environment: LimitCommandTests.environment(method))
            let outcomes = Self.outcomes(result)
            #expect(outcomes.count == 2 && outcomes[0].contains("solved") && outcomes[1].contains(message), "\(child): \(result.stdout)\(result.stderr)")
            // Stopped at its limit, not at the 8 s deadline.
            #expect(Date().timeIntervalSince(started) < 5, "\(child): \(result.stdout)")
        }
    }

    @Test("batch serves the example solver beside bfs: every answer validated and as long as bfs's")
    func batchWithExample() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 20, step: 300).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let example = GridlockBinary.repository.appendingPathComponent("examples/external/rushhour_bfs.py").path
        let database = directory.appendingPathComponent("r.sqlite").path
        let batch = try GridlockBinary.run([
            "batch", input.path, "--workers", "2", "--db", database, "--timeout", "60",
            "--external-serve", "rushhour:py=python3 \(example) --serve", "--solver", "py,bfs",
        ])
        #expect(batch.status == 0 && batch.stderr.contains("40 solved, 0 unsolvable, 0 cutoff, 0 invalid, 0 failed, 0 wrong"), "\(batch.stderr)")
        let rows = try LimitCommandTests.rows(database)
        var moves: [String: [String: Int]] = [:]
        for row in rows { moves[row["source"] as? String ?? "", default: [:]][row["solver"] as? String ?? ""] = row["moves"] as? Int }
        #expect(moves.count == 20 && moves.values.allSatisfy { $0["py"] != nil && $0["py"] == $0["bfs"] }, "\(moves)")
        #expect(rows.allSatisfy { $0["verdict"] as? String == "correct" }, "\(rows.first ?? [:])")
    }

    @Test("a config file's job.external_serve lines give the coordinator and its workers the solver, a flag beating a line of the same name")
    func fromConfigFile() throws {
        let cluster = try ClusterHarness()
        let lines = try ClusterHarness.sample(count: 6, step: 700)
        let input = try cluster.write(lines)
        let log = cluster.directory.appendingPathComponent("log").path
        let answerAll = "while read -r line; do echo \"$line\" >> '\(log)'; echo '{\"status\":\"unsolvable\"}'; done"
        let config = cluster.directory.appendingPathComponent("gridlock.conf")
        try """
            job.external_serve = rushhour:never=\(answerAll)
            job.external = rushhour:shadowed=exit 9
            """.write(to: config, atomically: true, encoding: .utf8)
        try cluster.startSink()
        try cluster.startCoordinator(input, extra: ["--config", config.path, "--solver", "never,shadowed", "--external", "rushhour:shadowed=true"])
        try cluster.startWorkers(1, extra: ["--config", config.path, "--external", "rushhour:shadowed=true"])
        try cluster.finish(status: 3)
        let rows = try cluster.rows().values
        #expect(rows.count == 12, "\(rows)")
        // The server read every board; its false claims of no solution are wrong answers.
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count == 6)
        #expect(rows.filter { $0["solver"] as? String == "never" }.allSatisfy { $0["verdict"] as? String == "wrong" }, "\(rows)")
        // The flag's `true` ran, not the line's `exit 9`: no answer, an error, not a crash.
        #expect(rows.filter { $0["solver"] as? String == "shadowed" }.allSatisfy { ($0["error"] as? String ?? "").contains("not JSON") }, "\(rows)")
    }
}
