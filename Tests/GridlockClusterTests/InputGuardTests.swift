// What the batch's input reader refuses before any job is made: binary input.

import Foundation
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
}
