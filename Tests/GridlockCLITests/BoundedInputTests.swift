// Issue 48, point 5: every input is bounded. Commands that read their puzzles whole stop at the
// input cap, binary input is refused at once, a batch refuses an endless line while reading it
// and still hears SIGTERM, and an error quotes at most 80 characters of a line.

import Foundation
import GridlockCluster
import GridlockClusterBase
import Testing

@Suite("bounded reading", .serialized)
struct BoundedInputTests {
    @Test("/dev/zero and /dev/urandom as a puzzle file are refused at once as not text, by every command that reads puzzles whole")
    func binaryDevicesAreRefused() throws {
        for arguments in [["solve", "/dev/zero"], ["analyze", "/dev/urandom"], ["render", "/dev/zero"], ["hint", "/dev/zero"],
                          ["bench", "/dev/zero"], ["check", "/dev/zero", "{}"]] {
            let started = Date()
            let output = try GridlockBinary.run(arguments)
            #expect(output.status == 64, "\(arguments): \(output.status) \(output.stderr)")
            #expect(output.stderr.contains("\(arguments[1]) is not text: byte "), "\(arguments): \(output.stderr)")
            #expect(Date().timeIntervalSince(started) < 10, "\(arguments) read on")
        }
    }

    @Test("a file over --max-input-size is refused, naming the cap and the flag; under it, it is read")
    func inputCap() throws {
        let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("cap-\(UUID().uuidString.prefix(8)).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        let line = "00 ooooooooooooooooAAoooooooooooooooooo 5\n"
        try String(repeating: line, count: 200).write(to: file, atomically: true, encoding: .utf8)  // 8,400 bytes
        let refused = try GridlockBinary.run(["solve", file.path, "--max-input-size", "8K"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("\(file.path) is over the input cap of 8.0 KiB: give --max-input-size to raise it"), "\(refused.stderr)")
        let read = try GridlockBinary.run(["solve", file.path, "--max-input-size", "9K", "--format", "json"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.split(separator: "\n").count == 200)
        let piped = try GridlockBinary.run(["analyze", "-", "--max-input-size", "8K"], stdin: String(repeating: line, count: 200))
        #expect(piped.status == 64 && piped.stderr.contains("standard input is over the input cap of 8.0 KiB"), "\(piped.stderr)")
        let hex = try GridlockBinary.run(["solve", file.path, "--max-input-size", "0x10M"])
        #expect(hex.status == 64 && hex.stderr.contains("--max-input-size takes a size with its unit"), "\(hex.stderr)")
    }

    @Test("an error quotes at most 80 characters of a 1 MB line, whatever kind tries to read it")
    func errorsQuoteAGlimpse() throws {
        for line in [String(repeating: "x", count: 1_000_000), "7 " + String(repeating: "x", count: 100_000) + " 5",
                     "0 9 8 " + String(repeating: "y", count: 200_000)] {
            let output = try GridlockBinary.run(["solve", "-"], stdin: line + "\n")
            #expect(output.status == 1)
            #expect(output.stdout.utf8.count + output.stderr.utf8.count < 2_000, "\(output.stdout.prefix(300))")
            #expect(output.stdout.contains("... ("), "\(output.stdout.prefix(300))")
        }
    }

    @Test("a batch given an endless line refuses it while reading it, and SIGTERM still stops the batch at once")
    func endlessLineInABatch() throws {
        let directory = try BatchCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("r.sqlite").path
        let errors = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let batch = Process()
        batch.executableURL = GridlockBinary.url
        batch.arguments = ["batch", "-", "--workers", "1", "--max-record-bytes", "65536", "--db", database]
        batch.currentDirectoryURL = GridlockBinary.repository
        let input = Pipe()
        batch.standardInput = input
        batch.standardOutput = FileHandle.nullDevice
        batch.standardError = try FileHandle(forWritingTo: errors)
        try batch.run()
        defer {
            if batch.isRunning { kill(batch.processIdentifier, SIGKILL) }
            batch.waitUntilExit()
        }
        // The endless line: 'o' until told to pause (the pipe stays open, with nothing in it),
        // or until the batch has gone and the write fails.
        signal(SIGPIPE, SIG_IGN)
        let writer = input.fileHandleForWriting.fileDescriptor
        let writing = Shared(true)
        let feeding = Thread {
            let block = [UInt8](repeating: UInt8(ascii: "o"), count: 64 << 10)
            while writing.current, block.withUnsafeBytes({ write(writer, $0.baseAddress!, $0.count) }) > 0 {}
        }
        feeding.start()
        defer { try? input.fileHandleForWriting.close() }
        // Refused while read: the row is stored though the line has no end.
        var stored = false
        for _ in 0..<200 where !stored && batch.isRunning {
            usleep(100_000)
            let rows = try? GridlockBinary.run(["export", database, "--format", "jsonl"])
            stored = rows?.stdout.contains("the line is longer than the limit of 65536 bytes (--max-record-bytes): refused as it was read") == true
        }
        #expect(stored, "no refusal stored within 20 s: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        // A producer that has paused: the batch waits for its input without blocking on it.
        writing.update { $0 = false }
        usleep(500_000)
        kill(batch.processIdentifier, SIGTERM)
        for _ in 0..<200 where batch.isRunning { usleep(50_000) }
        #expect(!batch.isRunning, "still running 10 s after SIGTERM")
        let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(said.contains("stopped by SIGTERM"), "\(said.suffix(600))")
    }
}
