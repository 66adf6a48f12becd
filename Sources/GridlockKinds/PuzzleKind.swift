// The puzzle kinds Gridlock solves, as a type the wire, the store and the solvers share: no role
// compares kind names of its own. What each kind can do (its solvers, how its text is told
// apart) is GridlockCore's, in extensions.

public enum PuzzleKind: String, CaseIterable, Sendable, Codable {
    case rushhour
    case sudoku
    case tiles
    case tilt

    /// The byte the wire carries. Fixed per kind: never reuse a retired kind's code. A new kind
    /// is a new wire protocol version: a peer that cannot decode a code drops the whole frame,
    /// so an older worker must be refused at the version byte, not fed jobs it would lose.
    public var wireCode: UInt8 {
        switch self {
        case .rushhour: 0
        case .sudoku: 1
        case .tiles: 2
        case .tilt: 3
        }
    }

    public init?(wireCode: UInt8) {
        guard let kind = Self.allCases.first(where: { $0.wireCode == wireCode }) else { return nil }
        self = kind
    }
}
