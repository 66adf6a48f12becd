// When to start a worker process again after it died, and when to give up: a worker killed
// mid-batch (out of memory, a stray SIGKILL) is replaced after a short pause, but a build that
// crashes at start-up would be restarted forever, so a run of quick deaths in a row stops the
// supervisor with the reason. Pure: the supervisor says who died and when.

public struct RestartPolicy: Sendable {
    /// A process that lived less than this died "quickly": likely to die again the same way.
    public var quickDeath: Duration = .seconds(3)
    /// Quick deaths in a row after which restarting stops.
    public var maximumQuickDeaths = 5
    /// The pause before the first restart, doubled after each quick death, up to `maximumPause`.
    public var firstPause: Duration = .milliseconds(100)
    public var maximumPause: Duration = .seconds(5)

    public init() {}

    public enum Decision: Sendable, Hashable {
        case restart(after: Duration)
        case giveUp(String)
    }

    /// How many quick deaths came in a row, most recent last.
    public private(set) var quickDeathsInARow = 0

    /// A process died after `lifetime`, as `how` ("exit status 1", "signal 9"): restart it, or
    /// stop trying.
    public mutating func died(after lifetime: Duration, how: String) -> Decision {
        if lifetime < quickDeath {
            quickDeathsInARow += 1
        } else {
            quickDeathsInARow = 0
        }
        if quickDeathsInARow >= maximumQuickDeaths {
            return .giveUp("""
                worker processes died \(quickDeathsInARow) times in a row within \(quickDeath) of starting \
                (the last: \(how)); not restarting them. Run `gridlock worker` by hand to see why.
                """)
        }
        var pause = firstPause
        for _ in 0..<max(0, quickDeathsInARow - 1) where pause < maximumPause { pause = pause * 2 }
        return .restart(after: min(pause, maximumPause))
    }
}
