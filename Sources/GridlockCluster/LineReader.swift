// Lines of a file or of standard input, read in 64 KiB blocks: a batch's input is read as the
// workers need it, in memory bounded by the longest line allowed, whatever the input's size.
//
// A line longer than `maximumBytes` is not kept: its first `keptBytes` are, with its full
// length, so that the one bad record becomes a clear `invalid` result instead of a process
// that grows with a 100 MB line (or with /dev/zero, which has no line end at all).

import Foundation

final class LineReader {
    struct Line {
        var number: Int
        var text: Substring
        /// The line's length when it was longer than allowed (its text is then a prefix).
        var oversizedBytes: Int?
    }

    static let blockBytes = 64 << 10
    static let keptBytes = 256

    private let descriptor: Int32
    private let closeWhenDone: Bool
    private let maximumBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    private var number = 0
    /// Bytes of an oversized line seen so far, while skipping to its end.
    private var skipping: (kept: [UInt8], length: Int)?

    init(descriptor: Int32, closeWhenDone: Bool, maximumBytes: Int) {
        self.descriptor = descriptor
        self.closeWhenDone = closeWhenDone
        self.maximumBytes = maximumBytes
    }

    convenience init(path: String, maximumBytes: Int) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ClusterError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        self.init(descriptor: descriptor, closeWhenDone: true, maximumBytes: maximumBytes)
    }

    deinit {
        if closeWhenDone { close(descriptor) }
    }

    /// The next line without its "\n", or nil at the end of the input.
    func next() throws -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = finishLine(buffer[start..<newline])
                start = newline + 1
                if let line { return line }
                continue
            }
            if ended {
                guard start < buffer.count || skipping != nil else { return nil }
                let line = finishLine(buffer[start...])
                start = buffer.count
                return line
            }
            // Keep at most the line limit of an unfinished line in memory.
            if buffer.count - start > maximumBytes {
                let part = buffer[start...]
                if skipping == nil { skipping = (Array(part.prefix(Self.keptBytes)), 0) }
                skipping!.length += part.count
                start = buffer.count
            }
            try fill()
        }
    }

    /// A complete line, or the end of an oversized one.
    private func finishLine(_ bytes: ArraySlice<UInt8>) -> Line? {
        number += 1
        if var skipped = skipping {
            skipped.length += bytes.count
            skipping = nil
            return Line(number: number, text: Substring(decoding: skipped.kept, as: UTF8.self), oversizedBytes: skipped.length)
        }
        if bytes.count > maximumBytes {
            return Line(number: number, text: Substring(decoding: bytes.prefix(Self.keptBytes), as: UTF8.self), oversizedBytes: bytes.count)
        }
        return Line(number: number, text: Substring(decoding: bytes, as: UTF8.self), oversizedBytes: nil)
    }

    private func fill() throws {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.blockBytes))
        let count = buffer.withUnsafeMutableBytes { bytes in
            read(descriptor, bytes.baseAddress! + old, Self.blockBytes)
        }
        if count < 0 {
            buffer.removeLast(Self.blockBytes)
            if errno == EINTR { return }
            throw ClusterError("cannot read the input: \(String(cString: strerror(errno)))")
        }
        buffer.removeLast(Self.blockBytes - count)
        if count == 0 { ended = true }
    }
}
