// The puzzle collection end to end: generated puzzles added with their analysis, each once,
// listed, and exported in forms that read back.

import Foundation
import Testing

@Suite("Puzzle collection", .serialized)
struct CollectionCommandTests {
    @Test("reading commands never create or change a file: a typo, a text file, an empty file are clear errors")
    func readingNeverWrites() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        let typo = directory.appendingPathComponent("typo.sqlite").path
        let listed = try GridlockBinary.run(["collection", "list", typo])
        #expect(listed.status == 1 && listed.stderr.contains("no such collection: \(typo)"))
        #expect(!FileManager.default.fileExists(atPath: typo))
        let text = directory.appendingPathComponent("notes.txt")
        try "not a database\n".write(to: text, atomically: true, encoding: .utf8)
        let exported = try GridlockBinary.run(["collection", "export", text.path])
        #expect(exported.status == 1 && exported.stderr.contains("is not a SQLite database, so not a puzzle collection"))
        let empty = directory.appendingPathComponent("empty.sqlite")
        FileManager.default.createFile(atPath: empty.path, contents: Data())
        for command in [["collection", "list"], ["report"], ["export"]] {
            let result = try GridlockBinary.run(command + [empty.path])
            #expect(result.status == 1, "\(command)")
            #expect(try Data(contentsOf: empty).isEmpty, "\(command) changed the empty file")
        }
    }

    @Test("options that mean nothing are usage errors: --limit below 1, --solver naming none, a path that is not there")
    func meaninglessOptionsAreRefused() throws {
        let limit = try GridlockBinary.run(["bench", "data/samples/unblockme.txt", "--limit=-1"])
        #expect(limit.status == 64 && limit.stderr.contains("--limit must be at least 1 (it was -1)"))
        let solver = try GridlockBinary.run(["bench", "data/samples/unblockme.txt", "--solver", ","])
        #expect(solver.status == 64 && solver.stderr.contains("--solver ',' names no solver"))
        // "docs/main" has a tilt board's shape, but "docs" is a directory: a mistyped path.
        let path = try GridlockBinary.run(["solve", "docs/main"])
        #expect(path.status == 64 && path.stderr.contains("no such file: docs/main"))
    }

    @Test("a word or random text is refused, not solved in 0 moves: a tilt colour of one block, no colour, a solved tilt board, a one-row Rush Hour board")
    func implausibleTiltIsRefused() throws {
        let hello = try GridlockBinary.run(["solve", "hello", "--kind", "tilt"])
        #expect(hello.status == 1 && hello.stdout.contains("colour 'h' has one block: a colour needs two or more to join"), "\(hello.stdout)")
        let plain = try GridlockBinary.run(["solve", "..*/*.#", "--kind", "tilt"])
        #expect(plain.status == 1 && plain.stdout.contains("no coloured block"), "\(plain.stdout)")
        // Text of the shape random printable bytes make: detected as tilt, and refused.
        let garbage = try GridlockBinary.run(["solve", ".z/y#"])
        #expect(garbage.status == 1 && garbage.stdout.contains("line 1, column 2: colour 'z' has one block"), "\(garbage.stdout)")
        // Stray tokens that were answered before: a one-row Rush Hour "board", a solved tilt one.
        let row = try GridlockBinary.run(["solve", "AA"])
        #expect(row.status == 1 && row.stdout.contains("the board is 2x1; boards are 2x2 up to 8x8"), "\(row.stdout)")
        let solved = try GridlockBinary.run(["solve", "a/a"])
        #expect(solved.status == 1 && solved.stdout.contains("every colour is one unit already"), "\(solved.stdout)")
        // Told from its shape and refused: every kind says why it does not read it, or which does.
        let none = try GridlockBinary.run(["solve", "hello"])
        #expect(none.status == 1 && none.stdout.contains("no other kind reads it either: as sudoku,") && none.stdout.contains("; as tiles,")
            && none.stdout.contains("; as tilt, colour 'h' has one block"), "\(none.stdout)")
        let other = try GridlockBinary.run(["solve", "a.a"])
        #expect(other.status == 1 && other.stdout.contains("it reads as a tilt puzzle: give --kind tilt"), "\(other.stdout)")
        // A real board still solves.
        let board = try GridlockBinary.run(["solve", "a.a/.../..."])
        #expect(board.status == 0, "\(board.stderr)")
    }

    @Test("generators give up on a target they cannot meet: at once when it is known impossible, else after --tries or --timeout")
    func generatorsGiveUp() throws {
        let started = Date()
        let impossible = try GridlockBinary.run(["generate", "rushhour", "--moves", "1000"])
        #expect(impossible.status == 64 && impossible.stderr.contains("no 6x6 board needs more than 51 moves"), "\(impossible.stderr)")
        let walk = try GridlockBinary.run(["generate", "tiles", "--count", "1", "--moves", "9223372036854775807"])
        #expect(walk.status == 64 && walk.stderr.contains("--moves must be from 0 to 1000000"), "\(walk.stderr)")
        let tries = try GridlockBinary.run(["generate", "rushhour", "--moves", "50", "--tries", "10", "--threads", "1"])
        #expect(tries.status == 1 && tries.stderr.contains("no board met --moves 50 for puzzle 1 in 10 tries (--tries)"), "\(tries.stderr)")
        let timeout = try GridlockBinary.run(["generate", "tilt", "--moves", "65", "--timeout", "1"])
        #expect(timeout.status == 1 && timeout.stderr.contains("within --timeout 1.0 s"), "\(timeout.stderr)")
        // Without the bounds each of these searches for minutes.
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test("numbers out of range are clear errors, never a trap: options exit 64, a tile too big for an Int is an invalid line")
    func numbersOutOfRange() throws {
        for arguments in [
            ["solve", "data/samples/unblockme.txt", "--timeout=inf"], ["solve", "data/samples/unblockme.txt", "--memory-budget=1e10"],
            ["solve", "data/samples/unblockme.txt", "--memory-budget=nan"], ["generate", "rushhour", "--count", "999999999999999999"],
            ["generate", "rushhour", "--threads", "9223372036854775807", "--count", "1"], ["generate", "tilt", "--count", "99999999999"],
        ] {
            let result = try GridlockBinary.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: "), "\(arguments)")
        }
        let tile = try GridlockBinary.run(["solve", "99999999999999999999,1,2,3,4,5,6,7,0", "--kind", "tiles"])
        #expect(tile.status == 1)
        #expect(tile.stdout.contains("tile 1, '99999999999999999999', is not a tile number (0 to 8, _ for the blank)"), "\(tile.stdout)")
        let grid = try GridlockBinary.run(["solve", "-", "--kind", "tiles"], stdin: "1 2 3\n4 5 6\n7 8 300\n")
        #expect(grid.status == 1 && grid.stdout.contains("tile 9, '300', is not a tile number"), "\(grid.stdout)")
    }

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
