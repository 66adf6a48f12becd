// KernelFile reads /proc and /sys files to their end, whatever size they report (a batch on a
// gVisor machine recorded 2 of its 16 cores from a short read of /proc/cpuinfo).

import Foundation
import Testing
@testable import GridlockCore

@Suite("Kernel files")
struct KernelFileTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "kernel-file-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file of several read chunks comes back whole, byte for byte")
    func wholeFile() throws {
        // 300,007 bytes: more than four 64 KiB reads and not a multiple of any page.
        let text = String((0..<300_007).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        let path = try Self.temporaryFile(Array(text.utf8))
        defer { unlink(path) }
        let read = try #require(KernelFile.text(path))
        #expect(read.utf8.count == 300_007)
        #expect(read == text)
    }

    @Test("/proc/cpuinfo lists as many processors as the kernel has configured")
    func cpuinfo() throws {
        let text = try #require(KernelFile.text("/proc/cpuinfo"))
        let processors = text.split(separator: "\n").filter { $0.hasPrefix("processor") }.count
        #expect(processors == sysconf(Int32(_SC_NPROCESSORS_CONF)))
    }

    @Test("a file past the limit, a missing file, a directory and bytes that are not UTF-8 read as nil")
    func refused() throws {
        let path = try Self.temporaryFile(Array(repeating: 65, count: 100))
        defer { unlink(path) }
        #expect(KernelFile.text(path, limit: 100)?.count == 100)
        #expect(KernelFile.text(path, limit: 99) == nil)
        #expect(KernelFile.text("/nonexistent/kernel-file") == nil)
        #expect(KernelFile.text(NSTemporaryDirectory()) == nil)
        let invalid = try Self.temporaryFile([0x41, 0xFF, 0x42])
        defer { unlink(invalid) }
        #expect(KernelFile.text(invalid) == nil)
    }
}
