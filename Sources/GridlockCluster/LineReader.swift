// Lines of a file or of standard input, read in 64 KiB blocks: a batch's input is read as the
// workers need it, in memory bounded by the longest line allowed, whatever the input's size.
//
// A line longer than `maximumBytes` is not kept: its first `keptBytes` are, with its full
// length, so that the one bad record becomes a clear `invalid` result instead of a process
// that grows with a 100 MB line.
//
// An input whose first 8 KiB hold a NUL byte is refused at once: no puzzle text has one, and
// binary input (an image, /dev/zero, random bytes) would otherwise become thousands of invalid
// records, or, with no line end at all, be read for ever. Git and grep tell binary files the
// same way.

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
    /// How much of the input's start is checked for a NUL byte.
    static let textCheckBytes = 8 << 10

    /// The input's name in messages: its path, or "standard input".
    let name: String
    private let descriptor: Int32
    private let closeWhenDone: Bool
    private let maximumBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    private var number = 0
    /// Bytes of an oversized line seen so far, while skipping to its end.
    private var skipping: (kept: [UInt8], length: Int)?
    /// Bytes read so far, for the check of the input's start.
    private var bytesRead = 0

    init(name: String, descriptor: Int32, closeWhenDone: Bool, maximumBytes: Int) {
        self.name = name
        self.descriptor = descriptor
        self.closeWhenDone = closeWhenDone
        self.maximumBytes = maximumBytes
    }

    convenience init(path: String, maximumBytes: Int) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ClusterError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        self.init(name: path, descriptor: descriptor, closeWhenDone: true, maximumBytes: maximumBytes)
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
            throw ClusterError("cannot read \(name): \(String(cString: strerror(errno)))")
        }
        buffer.removeLast(Self.blockBytes - count)
        if count == 0 { ended = true }
        try checkIsText(buffer[old...])
    }

    /// Throws if `block`, just read, has a NUL byte within the input's first 8 KiB.
    private func checkIsText(_ block: ArraySlice<UInt8>) throws {
        defer { bytesRead += block.count }
        guard bytesRead < Self.textCheckBytes else { return }
        let checked = block.prefix(Self.textCheckBytes - bytesRead)
        if let nul = checked.firstIndex(of: 0) {
            let offset = bytesRead + (nul - block.startIndex)
            throw ClusterError("""
                \(name) is not text: byte \(offset + 1) is a NUL, which no puzzle file holds (an image, \
                a binary or random bytes?); name a text file of puzzles
                """)
        }
    }
}
