// How a job ended, as the wire carries it and the store keeps it: one type for the worker, the
// coordinator, the sink and the tables, so no role compares status strings of its own.

public enum JobStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// The solver found an answer (a move list, a filled grid, an analysis).
    case solved
    /// The solver proved there is none.
    case unsolvable
    /// A limit (states, time) stopped the search first.
    case cutoff
    /// The puzzle could not be read; the error names the file, line and rule.
    case invalid
    /// The job could not be run: its attempts ran out, its solver is unknown, or its answer
    /// failed validation.
    case failed

    /// Whether the job ran to an answer (solved or proved unsolvable).
    public var isAnswer: Bool { self == .solved || self == .unsolvable }

    /// Statuses whose times mean something: the job ran its solver to the end or to a limit.
    public var ranSolver: Bool { self != .invalid && self != .failed }

    public var wireCode: UInt8 {
        switch self {
        case .solved: 0
        case .unsolvable: 1
        case .cutoff: 2
        case .invalid: 3
        case .failed: 4
        }
    }

    public init?(wireCode: UInt8) {
        switch wireCode {
        case 0: self = .solved
        case 1: self = .unsolvable
        case 2: self = .cutoff
        case 3: self = .invalid
        case 4: self = .failed
        default: return nil
        }
    }
}
