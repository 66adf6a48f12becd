// The build's provenance is compiled in: a copy of the binary outside the repository, with no
// git to run, still names the commit it was built from.

import Foundation
import Testing

@Suite("Build provenance")
struct BuildInfoTests {
    @Test("gridlock --version, copied out of the repository and run with no git on its PATH, prints the commit it was built from")
    func versionWithoutGit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gridlock-version-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("gridlock")
        try FileManager.default.copyItem(at: GridlockBinary.url, to: copy)
        let line = try GridlockBinary.runTool(copy.path, ["--version"], environment: ["PATH": directory.path], directory: directory)
        // The binary was built from the checkout's HEAD (scripts/test builds, then tests).
        let head = try GridlockBinary.runTool("/usr/bin/git", ["-C", GridlockBinary.repository.path, "rev-parse", "HEAD"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(head.count == 40)
        #expect(line.contains(head), "\(line)")
        #expect(line.contains("build"), "\(line)")
    }
}
