// Outside solvers run for real (issue 19): `gridlock solve --external` and `gridlock batch
// --external`, with shell one-liners that misbehave in each way a solver can. Each answer is
// replayed by the validator; each failure is named; nothing of the solver outlives its puzzle.

import Foundation
import Testing

@Suite("outside solvers: run, judged, killed", .serialized)
struct ExternalSolverCommandTests {
    static let puzzle = "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo"
    /// An answer that is right for `puzzle` (its 23 moves, as bfs gives them).
    static func rightAnswer() throws -> String {
        let solved = try GridlockBinary.run(["solve", puzzle, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(solved.stdout.utf8)) as? [String: Any])
        let moves = try #require(object["solution"] as? [String])
        return String(decoding: try JSONSerialization.data(withJSONObject: ["status": "solved", "moves": moves]), as: UTF8.self)
    }

    static func solve(_ command: String, _ extra: [String] = [], puzzle: String = puzzle) throws -> CommandOutput {
        try GridlockBinary.run(["solve", puzzle, "--external", "rushhour:outside=\(command)", "--solver", "outside"] + extra)
    }

    @Test("a right answer is solved, with its moves; the solver read the board alone")
    func rightAnswerSolved() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let seen = directory.appendingPathComponent("input").path
        let answer = try Self.rightAnswer()
        let result = try Self.solve("cat > '\(seen)'; echo \"$GRIDLOCK_KIND\" >> '\(seen)'; echo '\(answer)'", puzzle: "23 \(Self.puzzle) 1234")
        #expect(result.status == 0 && result.stdout.contains("outside: solved in 23 moves (as expected)"), "\(result.stdout)\(result.stderr)")
        #expect(try String(contentsOfFile: seen, encoding: .utf8) == "\(Self.puzzle)\nrushhour\n")
    }

    @Test("each way of failing is named, with its exit status", arguments: [
        // Moves that do not solve it: wrong, exit 3.
        (#"echo '{"status":"solved","moves":["D up 1"]}'"#, 3, "failed: wrong answer: after 1 moves the prisoner is not at the escape chute"),
        // A move that breaks the rules: wrong, naming it.
        (#"echo '{"status":"solved","moves":["B up 3"]}'"#, 3, "failed: wrong answer: move 1: block B leaves the board"),
        // Garbage, with a control character: error, escaped.
        (#"printf '\033[2Jnot json'"#, 2, #"failed: error: the answer is not JSON: '\u{1B}[2Jnot json'"#),
        // Nothing at all.
        ("true", 2, "failed: error: the answer is not JSON: (nothing)"),
        // A non-zero exit, with its standard error quoted.
        ("echo broken >&2; exit 4", 2, #"failed: crashed: outside exited with code 4; its standard error: 'broken\u{A}'"#),
        // Death by a signal.
        ("kill -SEGV $$", 2, "failed: crashed: outside was killed by signal 11 (SIGSEGV)"),
        // A command that is not there.
        ("/nonexistent/solver", 2, "exited with code 127 (command not found?)"),
        // Far more output than an answer.
        ("head -c 3000000 /dev/zero | tr '\\0' a", 2, "failed: error: outside printed over 1024 KiB"),
    ])
    func failuresNamed(command: String, status: Int32, message: String) throws {
        let result = try Self.solve(command)
        #expect(result.status == status && result.stdout.contains(message), "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("\u{1b}"))
    }

    @Test("a solver past its time limit is cut off, and its whole process group killed")
    func timeoutKillsTheGroup() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let pidFile = directory.appendingPathComponent("child").path
        let started = Date()
        // A child that spins, and a shell that waits for ever.
        let result = try Self.solve("yes > /dev/null & echo $! > '\(pidFile)'; sleep 60", ["--timeout", "0.5"])
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 2 && result.stdout.contains("outside: cut off (timeout)"), "\(result.stdout)\(result.stderr)")
        #expect(took < 5, "took \(took) s")
        let child = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(child, 0) != 0 && errno == ESRCH, "the spinning child \(child) outlived its puzzle")
    }

    @Test("a background child that holds the output open does not hold up the answer, nor outlive it")
    func backgroundChildLetGo() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let pidFile = directory.appendingPathComponent("child").path
        let started = Date()
        let result = try Self.solve(#"sleep 60 & echo $! > '\#(pidFile)'; echo '{"status":"unsolvable"}'"#, puzzle: "oBCDDDEBCoFGEBAAFGHHHooGoooooIJJoooI")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(result.stdout.contains("outside: unsolvable"), "\(result.stdout)\(result.stderr)")
        let child = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(child, 0) != 0 && errno == ESRCH, "the background child \(child) outlived its puzzle")
    }

    /// Whether a process is gone: no such pid, or a zombie (killed, not yet reaped by an init
    /// that may never reap it).
    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }

    @Test("a solver whose shell forks it (no exec) dies with a killed gridlock")
    func solverDiesWithItsCaller() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let pidFile = directory.appendingPathComponent("child").path
        let process = try GridlockBinary.start([
            "solve", Self.puzzle, "--solver", "outside", "--external", "rushhour:outside=sleep 61 & echo $! > '\(pidFile)'; wait",
        ])
        var child: Int32?
        for _ in 0..<100 where child == nil {
            usleep(50_000)
            child = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let solver = try #require(child)
        #expect(!Self.isGone(solver))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        for _ in 0..<40 where !Self.isGone(solver) { usleep(50_000) }
        #expect(Self.isGone(solver), "the solver \(solver) outlived the gridlock that ran it")
        kill(solver, SIGKILL)
    }

    @Test("a claim of no solution is checked: false for a solvable board, true for an unsolvable one")
    func unsolvableClaimsChecked() throws {
        let unsolvable = #"echo '{"status":"unsolvable"}'"#
        let solvable = try Self.solve(unsolvable)
        #expect(solvable.status == 3 && solvable.stdout.contains("failed: wrong answer: a false claim of no solution: bfs solved it in 23 moves"), "\(solvable.stdout)\(solvable.stderr)")
        let confirmed = try Self.solve(unsolvable, puzzle: "oBCDDDEBCoFGEBAAFGHHHooGoooooIJJoooI")
        #expect(confirmed.status == 0 && confirmed.stdout.contains("outside: unsolvable, as it claims"), "\(confirmed.stdout)\(confirmed.stderr)")
    }

    @Test("a false claim of no solution, or a legal answer longer than MOVES, fails alike with MOVES or without (one rule)")
    func wrongAnswersFailAlike() throws {
        let unsolvable = #"echo '{"status":"unsolvable"}'"#
        let withMoves = try Self.solve(unsolvable, puzzle: "23 \(Self.puzzle) 58419")
        #expect(withMoves.status == 3, "\(withMoves.stdout)\(withMoves.stderr)")
        #expect(withMoves.stdout.contains("failed: wrong answer: a false claim of no solution: the input's MOVES is 23"), "\(withMoves.stdout)")
        let bare = try Self.solve(unsolvable)
        #expect(bare.status == 3 && bare.stdout.contains("failed: wrong answer: a false claim of no solution"), "\(bare.stdout)")
        // A legal 25-move answer (the first move made and undone, then the 23) to a line whose MOVES says 23.
        let right = try Self.rightAnswer()
        let longer = right.replacingOccurrences(of: #"["D up 1","#, with: #"["D up 1","D down 1","D up 1","#)
        #expect(longer != right, "the optimal answer starts with D up 1: \(right)")
        let long = try Self.solve("echo '\(longer)'", puzzle: "23 \(Self.puzzle) 58419")
        #expect(long.status == 3 && long.stdout.contains("failed: wrong answer: 25 moves, longer than the input's MOVES of 23"), "\(long.stdout)")
    }

    @Test("a CPU limit alone implies a wall limit of twice it plus a second: a solver that sleeps is stopped")
    func cpuLimitImpliesAWallLimit() throws {
        let started = Date()
        let result = try Self.solve("sleep 30", ["--time-limit", "0.2"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 2 && result.stdout.contains("cut off (timeout) in 1.4"), "\(result.stdout)\(result.stderr)")
        #expect(elapsed < 10, "stopped after \(elapsed) s")
        #expect(!result.stderr.contains("no --timeout"), "\(result.stderr)")
    }

    @Test("a time limit days long is taken, not a crash")
    func longTimeoutTaken() throws {
        let result = try Self.solve(#"echo '{"status":"unsolvable"}'"#, ["--timeout", "3000000"], puzzle: "oBCDDDEBCoFGEBAAFGHHHooGoooooIJJoooI")
        #expect(result.status == 0 && result.stdout.contains("unsolvable, as it claims"), "\(result.stdout)\(result.stderr)")
    }

    @Test("a wrong answer's own text is escaped and cut short")
    func wrongTextEscaped() throws {
        let long = String(repeating: "x", count: 3_000)
        let result = try Self.solve(#"printf '%s' '{"status":"solved","moves":["B\u001b[31m down 2 \#(long)"]}'"#)
        #expect(result.status == 3 && !result.stdout.contains("\u{1b}") && result.stdout.contains("\\u{1B}[31m"), "\(result.stdout)")
        #expect(result.stdout.count < 2_000, "\(result.stdout.count) characters")
        // A tile move's text reaches the message through the tile validator's own words.
        let tiles = try GridlockBinary.run([
            "solve", "1 2 3 4 5 6 7 0 8", "--kind", "tiles", "--solver", "outside",
            "--external", #"tiles:outside=printf '%s' '{"status":"solved","moves":["7 left\u001b]0;pwned\u0007"]}'"#,
        ])
        #expect(tiles.status == 3 && !tiles.stdout.contains("\u{1b}") && !tiles.stdout.contains("\u{7}"), "\(tiles.stdout)")
    }

    @Test("--external is checked before anything runs", arguments: [
        (["--external", "rushhour:bfs=true", "--solver", "bfs"], "already a built-in rushhour solver"),
        (["--solver", "outside"], "an outside solver is named with --external"),
        (["--external", "rushhour:outside", "--solver", "outside"], "is not KIND:NAME=COMMAND"),
    ])
    func flagsChecked(arguments: [String], message: String) throws {
        let result = try GridlockBinary.run(["solve", Self.puzzle] + arguments)
        #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("batch runs an outside solver beside a built-in one; every answer validated, a wrong one exits 3")
    func batchRunsOutsideSolvers() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let database = directory.appendingPathComponent("r.sqlite").path
        let input = directory.appendingPathComponent("p.txt")
        try "23 \(Self.puzzle) 1234\n".write(to: input, atomically: true, encoding: .utf8)
        let answer = try Self.rightAnswer()
        let right = try GridlockBinary.run([
            "batch", input.path, "--workers", "1", "--db", database, "--format", "json",
            "--external", "rushhour:outside=echo '\(answer)'", "--solver", "outside,bfs",
        ])
        #expect(right.status == 0 && right.stderr.contains("2 solved, 0 unsolvable, 0 cutoff, 0 invalid, 0 failed, 0 wrong"), "\(right.stderr)")
        let wrong = try GridlockBinary.run([
            "batch", input.path, "--workers", "1", "--db", database + "2",
            "--external", #"rushhour:outside=echo '{"status":"solved","moves":["D up 1"]}'"#, "--solver", "outside",
        ])
        #expect(wrong.status == 3 && wrong.stderr.contains("1 failed, 1 wrong"), "\(wrong.stderr)")
    }

    @Test("bench times outside solvers beside built-in ones, in either mode; an answer that is no answer counts as wrong and exits 3")
    func benchRunsOutsideSolvers() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let input = directory.appendingPathComponent("p.txt")
        try (try ClusterHarness.sample(count: 4, step: 900).joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let example = GridlockBinary.repository.appendingPathComponent("examples/external/rushhour_bfs.py").path
        let right = try GridlockBinary.run([
            "bench", input.path, "--warmup", "1", "--format", "csv", "--solver", "bfs,once,served",
            "--external", "rushhour:once=python3 \(example)", "--external-serve", "rushhour:served=python3 \(example) --serve",
        ])
        let rows = right.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(right.status == 0 && rows.map { String($0[0]) } == ["bfs", "once", "served"], "\(right.stdout)\(right.stderr)")
        // Four timed each, none wrong.
        let wrongColumn = try #require(right.stdout.split(separator: "\n").first?.split(separator: ",").firstIndex(of: "wrong"))
        #expect(rows.allSatisfy { $0[2] == "4" && $0[wrongColumn] == "0" }, "\(right.stdout)")
        let wrong = try GridlockBinary.run(["bench", input.path, "--warmup", "0", "--solver", "bfs,bad", "--external", "rushhour:bad=echo garbage"])
        #expect(wrong.status == 3 && wrong.stderr.contains("WRONG"), "\(wrong.stdout)\(wrong.stderr)")
    }
}
