// The build's provenance is compiled in: a copy of the binary outside the repository, with no
// git to run, still names the commit it was built from.

import Foundation
import Testing

@Suite("Build provenance")
struct BuildInfoTests {
    /// `git rev-parse HEAD` of this checkout, now.
    static func head() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", GridlockBinary.repository.path, "rev-parse", "HEAD"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("gridlock --version, copied out of the repository and run with no git on its PATH, prints the commit it was built from")
    func versionWithoutGit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gridlock-version-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("gridlock")
        try FileManager.default.copyItem(at: GridlockBinary.url, to: copy)
        let process = Process()
        process.executableURL = copy
        process.arguments = ["--version"]
        process.environment = ["PATH": directory.path]
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0)
        // The binary was built from the checkout's HEAD (scripts/test builds, then tests).
        let head = try Self.head()
        #expect(head.count == 40)
        #expect(line.contains(head), "\(line)")
        #expect(line.contains("build"), "\(line)")
    }
}
