// How a cluster's wire was protected when it ran a batch, kept in the batch's record so that a
// table from a run without keys says so wherever it is read (issue 48: keys on by default).

public enum WireSecurity: String, Sendable, Hashable, Codable, CaseIterable {
    /// `--keys`: CURVE, every connection encrypted, only listed keys admitted.
    case curve
    /// `--key-file`, or `gridlock batch`'s own key for each run: frames tagged, not encrypted.
    case sharedKey = "shared-key"
    /// `--insecure`: no keys; any process that reached the ports could pose as a role.
    case insecure

    /// The recipe's words for it.
    public var summary: String {
        switch self {
        case .curve: "CURVE keys"
        case .sharedKey: "a shared cluster key"
        case .insecure: "INSECURE: no keys (--insecure), results could have been forged"
        }
    }

    var wireCode: UInt8 {
        switch self {
        case .curve: 1
        case .sharedKey: 2
        case .insecure: 3
        }
    }

    init?(wireCode: UInt8) {
        guard let found = Self.allCases.first(where: { $0.wireCode == wireCode }) else { return nil }
        self = found
    }
}
