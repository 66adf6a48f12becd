// Frames a role refuses, counted by reason (DropCounts) and described, a few a minute, with the
// peer that sent them: an operator sees who is sending junk or forgeries without a flood of
// lines that could fill a disk. Pure: the machines call it and turn its lines into actions.

import GridlockClusterBase
import GridlockCore
import GridlockWire

/// Why a frame was refused.
public enum Rejection: String, Sendable, Hashable {
    /// Not a message of this protocol, or one whose fields are out of bounds.
    case malformed
    /// A message this role does not take from that peer, or not now.
    case unexpected
    /// A tag or lease that does not match the cluster's key.
    case forged
}

extension DropCounts {
    mutating func count(_ rejection: Rejection) {
        switch rejection {
        case .malformed: malformed += 1
        case .unexpected: unexpected += 1
        case .forged: forged += 1
        }
    }
}

public struct RejectionLog: Sendable {
    /// Lines allowed per window; the rest are counted and summed up in the next line.
    public static let linesPerWindow = 10
    public static let window: Duration = .seconds(60)

    private var budget = LineBudget()

    public init() {}

    /// The line to log for this refusal, or nil when this window's lines are spent.
    public mutating func note(
        _ rejection: Rejection, what: String, peer: [UInt8]?, now: ContinuousClock.Instant
    ) -> String? {
        guard let earlier = budget.admit(now: now) else { return nil }
        let from = peer.map { " from peer \(Self.describe($0))" } ?? ""
        let article = rejection == .unexpected ? "an" : "a"
        // `what` may quote the wire (a batch or host name): escaped, so no peer writes to the terminal.
        return "refused \(article) \(rejection.rawValue) frame (\(what.printable))\(from)\(earlier)"
    }

    /// A routing id as text when it is printable (a worker names itself "host:pid"), else hex.
    static func describe(_ peer: [UInt8]) -> String {
        if !peer.isEmpty, peer.count <= 64, peer.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return String(decoding: peer, as: UTF8.self)
        }
        return "0x" + peer.prefix(32).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

extension WireMessage {
    /// The message's kind, for a log line.
    var kindName: String {
        switch self {
        case .ready: "ready"
        case .jobs: "jobs"
        case .heartbeat: "heartbeat"
        case .results: "results"
        case .stored: "stored"
        case .sinkHello: "sinkHello"
        case .storedQuery: "storedQuery"
        case .storedPage: "storedPage"
        case .forget: "forget"
        case .drained: "drained"
        case .sinkStopped: "sinkStopped"
        case .alive: "alive"
        case .machine: "machine"
        case .batchRecord: "batchRecord"
        }
    }
}

/// At most `RejectionLog.linesPerWindow` lines a window: the rest are counted, and the next
/// line shown says how many were not.
struct LineBudget: Sendable {
    private var windowStart: ContinuousClock.Instant?
    private var lines = 0
    private var unshown = 0

    /// nil when this window's lines are spent; otherwise what the line shown now appends: ""
    /// or how many were refused before it and not shown.
    mutating func admit(now: ContinuousClock.Instant) -> String? {
        if windowStart.map({ $0.duration(to: now) >= RejectionLog.window }) ?? true {
            windowStart = now
            lines = 0
        }
        guard lines < RejectionLog.linesPerWindow else {
            unshown += 1
            return nil
        }
        lines += 1
        defer { unshown = 0 }
        return unshown > 0 ? " (and \(unshown) more refused before it, not shown)" : ""
    }
}
