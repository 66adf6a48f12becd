// -o never clobbers (issue 48, point 6): a regular file is replaced whole, a symlink, a FIFO or a
// device is written through as `cat >` would, and a command's own input is never written over.

import Foundation
import GridlockCluster
import GridlockClusterBase
import Testing

@Suite("Output files", .serialized)
struct OutputFileTests {
    static let board = "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo"

    /// A results database of one small batch, and the folder it is in.
    static func database() throws -> (URL, String) {
        let directory = try BatchCommandTests.temporaryDirectory()
        let puzzles = directory.appendingPathComponent("p.txt")
        try "01 ooooooooooooAAoooooooooooooooooooooo 5\n".write(to: puzzles, atomically: true, encoding: .utf8)
        let db = directory.appendingPathComponent("r.sqlite").path
        let made = try GridlockBinary.run(["batch", puzzles.path, "--workers", "1", "--db", db, "--batch", "b", "--solver", "bfs,bidirectional"])
        #expect(made.status == 0, "\(made.stderr)")
        return (directory, db)
    }

    /// Each writing command, given its -o target (and where it reads from).
    static func commands(db: String, puzzle: String) -> [(name: String, arguments: (String) -> [String])] {
        [
            ("render", { ["render", puzzle, "--format", "svg", "-o", $0] }),
            ("report", { ["report", db, "--format", "csv", "-o", $0] }),
            ("plot", { ["plot", "cactus", db, "-o", $0] }),
        ]
    }

    @Test("-o over the command's own input, directly or through a link, is refused and the input is byte-identical")
    func ownInputRefused() throws {
        let (directory, db) = try Self.database()
        let puzzle = directory.appendingPathComponent("board.txt").path
        try Self.board.write(toFile: puzzle, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("link.out").path
        for (name, arguments) in Self.commands(db: db, puzzle: puzzle) {
            let input = name == "render" ? puzzle : db
            let before = try Data(contentsOf: URL(fileURLWithPath: input))
            try? FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
            for target in [input, link] {
                let run = try GridlockBinary.run(arguments(target))
                #expect(run.status != 0 && run.stderr.contains("input"), "\(name) -o \(target): \(run.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "\(name) changed its input")
            }
        }
    }

    @Test("-o through a symlink writes its target and keeps the link; a FIFO's reader gets the output; /dev/stdout reaches standard output")
    func writtenThrough() throws {
        let (directory, db) = try Self.database()
        let puzzle = directory.appendingPathComponent("board.txt").path
        try Self.board.write(toFile: puzzle, atomically: true, encoding: .utf8)
        for (name, arguments) in Self.commands(db: db, puzzle: puzzle) {
            let target = directory.appendingPathComponent("\(name).target").path
            let link = directory.appendingPathComponent("\(name).link").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let viaLink = try GridlockBinary.run(arguments(link))
            #expect(viaLink.status == 0, "\(name): \(viaLink.stderr)")
            let kind = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
            #expect(kind == .typeSymbolicLink, "\(name) replaced the link")
            let written = try Data(contentsOf: URL(fileURLWithPath: target))
            #expect(!written.isEmpty, "\(name)")
            // The same bytes through standard output, by a link of our own to it as /dev/stdout
            // is (a broken build renames over the link, never over the system's).
            let standardOutput = directory.appendingPathComponent("\(name).stdout").path
            try FileManager.default.createSymbolicLink(atPath: standardOutput, withDestinationPath: "/proc/self/fd/1")
            let stdout = try GridlockBinary.run(arguments(standardOutput))
            #expect(stdout.status == 0 && Data(stdout.stdout.utf8) == written, "\(name) -o a link to /proc/self/fd/1: \(stdout.stderr)")
            // A FIFO: its reader gets every byte.
            let fifo = directory.appendingPathComponent("\(name).fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let read = Shared(Data())
            let reader = Thread {
                let handle = FileHandle(forReadingAtPath: fifo)
                read.update { $0 = handle?.readDataToEndOfFile() ?? Data() }
            }
            reader.start()
            let viaFIFO = try GridlockBinary.run(arguments(fifo))
            #expect(viaFIFO.status == 0, "\(name): \(viaFIFO.stderr)")
            let deadline = Date(timeIntervalSinceNow: 10)
            while read.current.count < written.count, Date() < deadline { usleep(10_000) }
            #expect(read.current == written, "\(name): the FIFO's reader got \(read.current.count) of \(written.count) bytes")
        }
    }

    @Test("-o to a full device is an error that says so, and the device stays a device")
    func fullDevice() throws {
        let (directory, db) = try Self.database()
        let puzzle = directory.appendingPathComponent("board.txt").path
        try Self.board.write(toFile: puzzle, atomically: true, encoding: .utf8)
        // A node of /dev/full's own (character device 1, 7) in the test's folder: a broken build
        // that renamed over it would otherwise destroy the machine's /dev/full (one did, as root).
        let full = directory.appendingPathComponent("full").path
        // makedev(1, 7), which Swift does not import: the minor number's low byte, the major's above it.
        let probe = mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0 ? open(full, O_WRONLY) : -1
        guard probe >= 0 else {
            print("SKIP: -o to a device: no usable device node here (\(String(cString: strerror(errno))); needs root and a folder not mounted nodev)")
            return
        }
        close(probe)
        for (name, arguments) in Self.commands(db: db, puzzle: puzzle) {
            let run = try GridlockBinary.run(arguments(full))
            #expect(run.status == 1 && run.stderr.contains("No space left on device"), "\(name): \(run.stderr)")
            let kind = try FileManager.default.attributesOfItem(atPath: full)[.type] as? FileAttributeType
            #expect(kind == .typeCharacterSpecial, "\(name) replaced the device node")
        }
    }
}
