// Lines of a file or of standard input, read in 64 KiB blocks: a batch's input is read as the
// workers need it, in memory bounded by the longest line allowed, whatever the input's size.
//
// A line longer than `maximumBytes` is refused as soon as it passes the limit, not at its end:
// its first `keptBytes` become a clear `invalid` result at once, and the rest of it is skipped
// as it arrives. (An endless line, `yes o | tr -d '\n' | gridlock batch -`, was read until
// the end that never came, with no job handed out.)
//
// Reading never blocks its caller, the coordinator's socket loop: when a pipe has nothing to
// give, or one call has read `bytesPerCall`, `next` says `.waiting` and the loop polls the
// descriptor beside its sockets, so heartbeats are answered and SIGTERM is heard while a slow
// producer writes, or while an endless line is skipped.
//
// An input whose first 8 KiB hold a NUL byte is refused at once: no puzzle text has one, and
// binary input (an image, /dev/zero, random bytes) would otherwise become thousands of invalid
// records, or, with no line end at all, be read for ever. Git and grep tell binary files the
// same way.

import Foundation
import GridlockClusterBase

final class LineReader {
    struct Line {
        var number: Int
        var text: Substring
        /// When the line is longer than allowed, the bytes of it read when it was refused (more
        /// than the limit; its text is then a prefix).
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
    /// Whether the rest of a line already refused as too long is being skipped.
    private var skippingRefusedLine = false
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

    enum Step {
        case line(Line)
        /// Nothing more now: the descriptor has nothing to read, or this call has read its
        /// share. Call again once `descriptor` is readable.
        case waiting
        case end
    }

    /// How much one call reads at most before it gives its caller's loop a turn.
    static let bytesPerCall = 1 << 20

    /// The descriptor to poll after `.waiting`.
    var pollDescriptor: Int32 { descriptor }

    /// The next line without its "\n", `.waiting`, or `.end` after the input's last line.
    func next() throws -> Step {
        var readThisCall = 0
        while true {
            if skippingRefusedLine {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    start = newline + 1
                    skippingRefusedLine = false
                } else {
                    start = buffer.count
                }
            }
            if !skippingRefusedLine, let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = makeLine(buffer[start..<newline])
                start = newline + 1
                return .line(line)
            }
            if ended {
                guard start < buffer.count, !skippingRefusedLine else { return .end }
                let line = makeLine(buffer[start...])
                start = buffer.count
                return .line(line)
            }
            if !skippingRefusedLine, buffer.count - start > maximumBytes {
                let line = makeLine(buffer[start...])
                start = buffer.count
                skippingRefusedLine = true
                return .line(line)
            }
            guard readThisCall < Self.bytesPerCall, hasInput() else { return .waiting }
            readThisCall += try fill()
        }
    }

    /// A line as read, or the start of one over the limit.
    private func makeLine(_ bytes: ArraySlice<UInt8>) -> Line {
        number += 1
        if bytes.count > maximumBytes {
            return Line(number: number, text: Substring(decoding: bytes.prefix(Self.keptBytes), as: UTF8.self), oversizedBytes: bytes.count)
        }
        return Line(number: number, text: Substring(decoding: bytes, as: UTF8.self), oversizedBytes: nil)
    }

    /// Whether a read now would not block: data, the end, or an error to report.
    private func hasInput() -> Bool {
        var item = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&item, 1, 0)
        // An interrupted poll is asked again by the caller's loop; any other failure is for
        // read to report.
        return ready > 0 || (ready < 0 && errno != EINTR)
    }

    /// Reads one block; returns the bytes read.
    private func fill() throws -> Int {
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
            if errno == EINTR || errno == EAGAIN { return 0 }
            throw ClusterError("cannot read \(name): \(String(cString: strerror(errno)))")
        }
        buffer.removeLast(Self.blockBytes - count)
        if count == 0 { ended = true }
        try checkIsText(buffer[old...])
        return count
    }

    /// Throws if `block`, just read, has a NUL byte within the input's first 8 KiB.
    private func checkIsText(_ block: ArraySlice<UInt8>) throws {
        defer { bytesRead += block.count }
        guard bytesRead < Self.textCheckBytes else { return }
        let checked = block.prefix(Self.textCheckBytes - bytesRead)
        if let nul = checked.firstIndex(of: 0) {
            throw Self.notText(name, byte: bytesRead + (nul - block.startIndex) + 1)
        }
    }

    /// The refusal of binary input: `byte` (from 1) is a NUL.
    static func notText(_ name: String, byte: Int) -> ClusterError {
        ClusterError("""
            \(name) is not text: byte \(byte) is a NUL, which no puzzle file holds (an image, a binary \
            or random bytes?); name a text file of puzzles
            """)
    }
}
