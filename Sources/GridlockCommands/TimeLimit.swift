// `--timeout SECONDS`, as every command that takes one reads it: the range checked before any
// conversion (inf and 1e10 trapped once), and a deadline the core polls (it has no clock).

import ArgumentParser

enum TimeLimit {
    /// Refuses a time limit outside (0, 1e9] seconds, naming the value.
    static func check(_ seconds: Double?, flag: String = "--timeout") throws {
        guard let seconds, !(seconds > 0 && seconds <= 1e9) else { return }
        throw ValidationError("\(flag) must be a number of seconds from 0 (excluded) to 1e9 (it was \(seconds))")
    }

    /// Whether `seconds` have passed since this call; never, without a limit.
    static func deadline(_ seconds: Double?) -> @Sendable () -> Bool {
        guard let seconds else { return { false } }
        let end = ContinuousClock.now.advanced(by: .milliseconds(Int64(seconds * 1_000)))
        return { ContinuousClock.now >= end }
    }
}
