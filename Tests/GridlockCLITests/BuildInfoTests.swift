// The build's provenance is compiled in: a copy of the binary outside the repository, with no
// git to run, still names the commit it was built from; and it says which solver paths run.

import Foundation
import GridlockCore
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

    @Test("--version says which solver paths run here, and GRIDLOCK_PORTABLE turns the x86-64-v4 one off")
    func solverPaths() throws {
        let plain = try GridlockBinary.runTool(GridlockBinary.url.path, ["--version"], environment: [:])
        for value in ["1", "yes"] {
            let portable = try GridlockBinary.runTool(GridlockBinary.url.path, ["--version"], environment: ["GRIDLOCK_PORTABLE": value])
            #expect(portable.contains("solver paths: portable (GRIDLOCK_PORTABLE=\(value))"), "\(portable)")
        }
        // The line reads what was installed: without the install at start, a release build on
        // such a CPU would say "portable (not installed)".
        if plain.contains("debug build") {
            #expect(plain.contains("solver paths: portable (a debug build"), "\(plain)")
        } else if CPUFeatures.runsX86V4 {
            #expect(plain.contains("solver paths: x86-64-v4 for bfs, bidirectional and bands"), "\(plain)")
        } else {
            #expect(plain.contains("solver paths: portable (this CPU has no x86-64-v4)"), "\(plain)")
        }
    }
}
