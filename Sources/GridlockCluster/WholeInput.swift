// The whole of one input, for the commands that hold their puzzles in memory (solve, analyze,
// bench, hint, render, check, collection add). Bounded: an input past `maximumBytes` is refused
// as soon as it passes it, and binary input by the NUL rule of the batch's reader, so that
// `gridlock solve /dev/zero` stops at once instead of reading 20 GiB in 30 s. (A batch streams
// its input in bounded memory and needs no such cap: LineReader.)

import Foundation
import GridlockClusterBase
import GridlockCore

public enum WholeInput {
    /// The default cap of one input: far above any real puzzle file (Rush Hour's whole
    /// database of 2.5 million puzzles is about 110 MiB, and a batch is the way to run it).
    public static let defaultMaximumBytes = 64 << 20

    /// Reads `descriptor` to its end as UTF-8 text named `name` in messages.
    public static func read(descriptor: Int32, name: String, maximumBytes: Int) throws -> String {
        var bytes: [UInt8] = []
        let block = 64 << 10
        while true {
            let old = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: block))
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + old, block) }
            if count < 0 {
                bytes.removeLast(block)
                if errno == EINTR { continue }
                throw ClusterError("cannot read \(name): \(String(cString: strerror(errno)))")
            }
            bytes.removeLast(block - count)
            if old < LineReader.textCheckBytes, let nul = bytes.prefix(LineReader.textCheckBytes)[old...].firstIndex(of: 0) {
                throw LineReader.notText(name, byte: nul + 1)
            }
            if count == 0 { break }
            if bytes.count > maximumBytes {
                throw ClusterError("""
                    \(name) is over the input cap of \(maximumBytes.bytes): give --max-input-size to raise it, or run it \
                    as a batch, which reads any size in bounded memory
                    """)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
