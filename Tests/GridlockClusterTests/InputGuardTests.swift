// What the batch's input reader refuses before any job is made (binary input), and how it
// reads a pipe: never blocking the coordinator's loop, an endless line refused while read.

import Foundation
import GridlockClusterBase
import Testing
@testable import GridlockCluster

@Suite struct InputGuardTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString).txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func readAll(_ path: String) throws -> Int {
        let reader = try JobReader([.file(path)], specification: JobSpecification(batch: "b", maxStates: 1_000))
        var count = 0
        while !reader.ended { count += try reader.next(1_000).count }
        return count
    }

    static let line = Array("00 ooooooooooooooooAAoooooooooooooooooo 5\n".utf8)

    @Test("a NUL byte in the first 8 KiB refuses the input, naming it and the byte")
    func nulAtTheStartIsRefused() throws {
        let path = try Self.file(Self.line + Self.line + [0] + Self.line)
        let error = #expect(throws: ClusterError.self) { try Self.readAll(path) }
        #expect(error?.description.contains("\(path) is not text: byte \(2 * Self.line.count + 1) is a NUL") == true)
    }

    @Test("a NUL byte past the first 8 KiB is one bad line, not a refused input; text with none is read whole")
    func nulLaterIsALine() throws {
        let lines = Array(repeating: Self.line, count: 300).flatMap { $0 }
        #expect(try Self.readAll(try Self.file(lines + [0, 0x0A] + Self.line)) == 302)
        #expect(try Self.readAll(try Self.file(lines)) == 300)
    }

    /// A FIFO held open for writing by the test, so that the reader's open does not wait.
    static func fifo() throws -> (path: String, writer: Int32) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString.prefix(8))").path
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return (path, open(path, O_RDWR))
    }

    /// `body` on a thread of its own, at most `seconds`: a reader that blocks fails the test
    /// instead of hanging the suite.
    static func within(_ seconds: Double, _ body: @escaping @Sendable () throws -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            try? body()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    @Test("a pipe with nothing to give yet gives no jobs at once and names its descriptor to poll; what comes later is read")
    func emptyPipeDoesNotBlock() throws {
        let (path, writer) = try Self.fifo()
        defer { close(writer); unlink(path) }
        let reader = try JobReader([.file(path)], specification: JobSpecification(batch: "b", maxStates: 1_000))
        let box = ReaderBox(reader)
        #expect(Self.within(5) { box.jobs = try box.reader.next(10) }, "next blocked on an empty pipe")
        #expect(box.jobs.isEmpty && !reader.ended && reader.waitingOn != nil)
        _ = Self.line.withUnsafeBytes { write(writer, $0.baseAddress!, $0.count) }
        #expect(Self.within(5) { box.jobs = try box.reader.next(10) }, "next blocked after the pipe's only line")
        #expect(box.jobs.count == 1 && !reader.ended)
    }

    @Test("an endless line is refused once it passes --max-record-bytes, while it is still being written; the next line is read")
    func endlessLineIsRefusedWhileRead() throws {
        let (path, writer) = try Self.fifo()
        defer { close(writer); unlink(path) }
        let reader = try JobReader([.file(path)], specification: JobSpecification(batch: "b", maxStates: 1_000, maximumRecordBytes: 4_096))
        let ohs = [UInt8](repeating: UInt8(ascii: "o"), count: 1_000)
        let box = ReaderBox(reader)
        // Every read on a thread of its own: a reader that waits for the line's end would
        // otherwise hang the suite rather than fail.
        let refused = Self.within(10) {
            for _ in 0..<20 where box.jobs.isEmpty {
                _ = ohs.withUnsafeBytes { write(writer, $0.baseAddress!, $0.count) }
                box.jobs = try box.reader.next(10)
            }
        }
        #expect(refused, "the endless line was not refused while written")
        #expect(box.jobs.count == 1)
        #expect(box.jobs.first?.unreadable?.contains("the line is longer than the limit of 4096 bytes") == true, "\(box.jobs.first?.unreadable ?? "none")")
        #expect(box.jobs.first.map { $0.job.puzzle.utf8.count <= LineReader.keptBytes } == true)
        // The rest of the long line is skipped as it comes; the line after it is a job.
        _ = (ohs + [0x0A] + Self.line).withUnsafeBytes { write(writer, $0.baseAddress!, $0.count) }
        #expect(Self.within(5) { box.jobs = try box.reader.next(10) })
        #expect(box.jobs.count == 1 && box.jobs.first?.unreadable == nil && box.jobs.first?.job.firstLine == 2)
    }
}

/// The reader, handed to the thread of `within`.
final class ReaderBox: @unchecked Sendable {
    let reader: JobReader
    var jobs: [ReadJob] = []
    init(_ reader: JobReader) { self.reader = reader }
}
