// The roles on separate "hosts": network namespaces joined by veth links, loopback-range
// addresses only. Needs root and iproute2 (CI has both); elsewhere the test is skipped, and says so.

import Foundation
import Testing

@Suite("Multi-host cluster in network namespaces")
struct MultiHostTests {
    static var canMakeNamespaces: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
            || FileManager.default.isExecutableFile(atPath: "/sbin/ip") && getuid() == 0
    }

    @Test("coordinator, sink and two workers in four namespaces, over CURVE, store every job once, right; a stranger's key is refused",
          .enabled(if: canMakeNamespaces, "needs root and iproute2 to create network namespaces"))
    func fourHosts() throws {
        let process = Process()
        process.executableURL = GridlockBinary.repository.appendingPathComponent("scripts/netns-cluster")
        process.arguments = ["Tests/Fixtures/rushhour/fogleman_forty.txt"]
        process.currentDirectoryURL = GridlockBinary.repository
        process.environment = ProcessInfo.processInfo.environment.merging(["GRIDLOCK_BIN": GridlockBinary.url.path]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
        #expect(message.contains("(CURVE): 40 of 40 jobs stored (40 distinct), 0 wrong"), "\(message)")
    }
}
