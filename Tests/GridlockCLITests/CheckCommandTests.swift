// `gridlock check PUZZLE ANSWER` (issue 19): an answer from elsewhere, judged by the validators.
// Every kind's own answer from `solve --format json` is right; each way of being wrong exits 3
// and names what is wrong; unreadable answers exit 1.

import Foundation
import Testing

@Suite("check: answers from elsewhere")
struct CheckCommandTests {
    static let rushHour = "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo"

    @Test("solve's own answer is correct, for every kind", arguments: [
        rushHour, "8 6 7 2 5 4 3 0 1", "a.a/.*./...",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    ])
    func solveAnswersAreCorrect(puzzle: String) throws {
        let solved = try GridlockBinary.run(["solve", puzzle, "--format", "json"])
        #expect(solved.status == 0, "\(solved.stderr)")
        let check = try GridlockBinary.run(["check", puzzle, "-"], stdin: solved.stdout)
        #expect(check.status == 0 && check.stdout.contains(": correct: "), "\(check.stdout)\(check.stderr)")
    }

    @Test("wrong answers exit 3 and say what is wrong", arguments: [
        (rushHour, #"{"status":"solved","moves":["B up 3"]}"#, "move 1: block B leaves the board"),
        (rushHour, #"{"status":"solved","moves":["D up 1","E down 1"]}"#, "after 2 moves the prisoner is not at the escape chute"),
        (rushHour, #"{"status":"solved","moves":["Z up 1"]}"#, "move 1: no movable block named Z"),
        (rushHour, #"{"status":"solved","moves":["D up 1","B sideways 2"]}"#, "move 2 'B sideways 2'"),
        ("1 2 3 4 5 6 7 0 8", #"{"status":"solved","moves":["7 left"]}"#, "move 1 '7 left': the blank is not there"),
        ("1 2 3 4 5 6 7 0 8", #"{"status":"unsolvable"}"#, "a false claim of no solution: idastar-pdb solved it in 1 move"),
        ("a.a/.*./...", #"{"status":"solved","moves":["up"]}"#, "is not a direction"),
        ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
         #"{"status":"solved","moves":["417369825632158947958724316825437169791586432346912758289643571573291684164875239"]}"#, "column 8 repeats a digit"),
        ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
         #"{"status":"solved","moves":["517369825632158947958724316825437169791586432346912758289643571573291684164875293"]}"#, "r1c1 changes the given 4 to 5"),
    ])
    func wrongAnswers(puzzle: String, answer: String, reason: String) throws {
        let check = try GridlockBinary.run(["check", puzzle, answer])
        #expect(check.status == 3 && check.stdout.contains(": wrong: ") && check.stdout.contains(reason), "\(check.stdout)\(check.stderr)")
    }

    @Test("an answer's own text is escaped: no control character reaches the terminal")
    func controlCharactersEscaped() throws {
        let check = try GridlockBinary.run(["check", Self.rushHour, #"{"status":"solved","moves":["\u001b[31mX up 1"]}"#])
        #expect(check.status == 3 && check.stdout.contains("no movable block") && !check.stdout.contains("\u{1b}"), "\(check.stdout)")
    }

    @Test("a true claim of no solution is correct: an 8-puzzle with two tiles swapped")
    func trueUnsolvable() throws {
        let check = try GridlockBinary.run(["check", "1 2 3 4 5 6 8 7 0", #"{"status":"unsolvable"}"#, "--format", "json"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        #expect(object["verdict"] as? String == "correct" && object["kind"] as? String == "tiles", "\(check.stdout)")
    }

    @Test("an answer that cannot be read exits 1 and says why; both from standard input is a usage error", arguments: [
        (["check", rushHour, "nonsense"], 1, "neither JSON"),
        (["check", rushHour, "{\"moves\":[]}"], 1, "no \"status\""),
        (["check", rushHour, "{\"status\":\"maybe\"}"], 1, "must be \"solved\" or \"unsolvable\""),
        (["check", rushHour, "{\"status\":\"solved\",\"moves\":[1,2]}"], 1, "a list of texts"),
        (["check", rushHour, "{\"status\":\"solved\""], 1, "not JSON"),
        (["check", "-", "-"], 64, "only one of PUZZLE and ANSWER"),
        (["check", rushHour, "/"], 1, "cannot read the answer from /"),
        (["check", rushHour, "{\"status\":\"solved\",\"moves\":\"B down 2\"}"], 1, "lists its moves"),
    ])
    func unreadableAnswers(arguments: [String], status: Int32, message: String) throws {
        let check = try GridlockBinary.run(arguments, stdin: "")
        #expect(check.status == status && check.stderr.contains(message), "\(check.status) \(check.stderr)")
    }
}
