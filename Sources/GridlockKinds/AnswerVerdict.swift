// What a job's answer is worth, and why a run ended early, as BenchExec and the solver
// competitions record them (issue 19): one type for the worker, the wire, the store and the
// tables.

/// A job's answer judged against everything known of the puzzle.
public enum AnswerVerdict: String, Sendable, Hashable, CaseIterable, Codable {
    /// The validator replayed it and it agrees with the input's expected answer, where the
    /// input gives one (a built-in search's proof of no solution counts).
    case correct
    /// Refuted: moves the validator rejects, another length than the expected one, or a false
    /// claim of no solution.
    case wrong
    /// No answer (cut off, failed, unreadable), or a claim nothing can check.
    case unknown

    public var wireCode: UInt8 {
        switch self {
        case .correct: 0
        case .wrong: 1
        case .unknown: 2
        }
    }

    public init?(wireCode: UInt8) {
        switch wireCode {
        case 0: self = .correct
        case 1: self = .wrong
        case 2: self = .unknown
        default: return nil
        }
    }
}

/// Why a run ended before its answer; none when it ran to one.
public enum Termination: String, Sendable, Hashable, CaseIterable, Codable {
    /// Past its time limit.
    case timeout
    /// Past its memory limit (or budget).
    case memout
    /// A non-zero exit or a signal; the error says which.
    case crashed
    /// Output that is no answer, or a solver that could not start; the error quotes it.
    case error

    public var wireCode: UInt8 {
        switch self {
        case .timeout: 1
        case .memout: 2
        case .crashed: 3
        case .error: 4
        }
    }

    /// 0 is none.
    public static func fromWire(_ code: UInt8) -> Termination?? {
        switch code {
        case 0: .some(nil)
        case 1: .timeout
        case 2: .memout
        case 3: .crashed
        case 4: .error
        default: nil
        }
    }
}
