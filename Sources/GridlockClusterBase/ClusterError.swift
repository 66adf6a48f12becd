// What goes wrong in a role, for the user and for the counters.

/// A role could not start or go on, and says why in words a user can act on.
public struct ClusterError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Counts of frames that could not be decoded, per role: counted and dropped, never fatal.
public struct DropCounts: Sendable, Hashable {
    public var malformed = 0
    public var unexpected = 0
    /// Acknowledgements of jobs not awaiting one: stored twice, or never handed out.
    public var staleAcknowledgements = 0
    /// Frames and results whose tag or lease did not match the cluster's key.
    public var forged = 0

    public init() {}
}
