// One puzzle's exchange with a serving solver: the line written as the server takes it, its
// output read up to the answer's newline, its standard error kept up to a bound.

import CProcessControl
import Foundation

struct Exchange {
    enum Ending { case answered, tooLong, timedOut, overLimit, died }

    var pending: ArraySlice<UInt8>
    let maximumLineBytes: Int
    let maximumErrorBytes: Int
    var answer: [UInt8] = []
    var errorOutput: [UInt8] = []
    /// More came after the answer's newline: a second line for one puzzle.
    private(set) var trailing = false

    init(pending: ArraySlice<UInt8>, maximumLineBytes: Int, maximumErrorBytes: Int) {
        self.pending = pending
        self.maximumLineBytes = maximumLineBytes
        self.maximumErrorBytes = maximumErrorBytes
    }

    /// Writes what the pipe takes of the line now.
    mutating func write(to input: Int32) {
        guard !pending.isEmpty, input >= 0 else { return }
        let written = pending.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
        if written > 0 { pending = pending.dropFirst(written) }
    }

    /// Whether the server has read the whole line: written, and nothing of it left in the pipe.
    func wasRead(input: Int32) -> Bool {
        pending.isEmpty && input >= 0 && gridlock_pipe_unread(input) == 0
    }

    /// Reads what is waiting on standard error, kept up to its bound.
    mutating func drainErrors(_ errors: Int32) {
        guard errors >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            errorOutput += buffer[0..<min(count, max(0, maximumErrorBytes - errorOutput.count))]
        }
    }

    /// Until the answer's newline, the deadline, or what `look` (every 20 ms) says ended it.
    mutating func pump(
        input: Int32, output: Int32, errors: Int32, until deadline: ContinuousClock.Instant?, clock: ContinuousClock, look: () -> Ending?
    ) -> Ending {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var lastLook = clock.now
        var outputOpen = true
        var errorsOpen = true
        while true {
            var descriptors = [
                pollfd(fd: pending.isEmpty ? -1 : input, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: outputOpen ? output : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorsOpen ? errors : -1, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int32 = 20
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return .timedOut }
                timeout = Int32(min(Double(timeout), Double(seconds: left) * 1_000 + 1))
            }
            let ready = poll(&descriptors, 3, timeout)
            if ready < 0, errno != EINTR { return .died }
            if ready <= 0 || lastLook.duration(to: clock.now) >= .milliseconds(20) {
                if let ending = look() { return ending }
                lastLook = clock.now
                if ready <= 0 { continue }
            }
            if descriptors[0].revents != 0 {
                let written = pending.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
                if written > 0 {
                    pending = pending.dropFirst(written)
                } else if written < 0, errno != EINTR, errno != EAGAIN {
                    // It closed its input: it will answer no more puzzles.
                    return .died
                }
            }
            if descriptors[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count > 0 {
                    if let newline = buffer[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                        answer += buffer[0..<newline]
                        // What follows the newline is no answer to this puzzle: the server is out of step.
                        trailing = newline + 1 < count
                        return answer.count > maximumLineBytes ? .tooLong : .answered
                    }
                    answer += buffer[0..<count]
                    if answer.count > maximumLineBytes { return .tooLong }
                } else if count == 0 {
                    // End of output: it is ending; the next look says how.
                    outputOpen = false
                } else if errno != EINTR, errno != EAGAIN {
                    outputOpen = false
                }
            }
            if descriptors[2].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
                if count > 0 {
                    errorOutput += buffer[0..<min(count, max(0, maximumErrorBytes - errorOutput.count))]
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    errorsOpen = false
                }
            }
        }
    }
}
