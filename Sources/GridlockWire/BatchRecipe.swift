// What it takes to run a batch again (issue 43): the `gridlock batch` options that decide its
// jobs and how they are measured, written out in full (a config file's values included, so
// the record alone suffices), its input files, every outside solver's command with the first
// line its `--version` printed, and the load on the machine around it. Stored with the batch
// (the batches table's recipe column, as JSON), printed by `report`, compared by `compare`, and
// replayed by `gridlock rerun`.

public struct BatchRecipe: Sendable, Hashable, Codable {
    /// `gridlock batch`'s options, less --batch, --db and the files: "--solver", "bfs,ext",
    /// "--time-limit", "0.05", "--paired", ...
    public var options: [String]
    /// The input files as given, made absolute ("-": standard input, which no rerun has).
    public var files: [String]
    public var outsideSolvers: [OutsideSolverRecord]
    /// Worker processes, and how they were placed ("one CPU each", "one CPU each, no SMT
    /// sibling"; nil: not pinned). A coordinator's batch knows neither (its workers are
    /// started elsewhere): 0 and nil.
    public var workers: Int
    public var pinning: String?
    public var paired: Bool
    public var repeats: Int
    /// The one-minute load average of the machine that ran the batch (a coordinator's, for a
    /// cluster) when it started and when its last job was stored; nil until then.
    public var loadAtStart: Double
    public var loadAtEnd: Double?
    /// How the wire was protected; nil in records from before it was kept.
    public var security: WireSecurity?
    /// The workers its coordinator quarantined, each with why ("node-3:4242 (3 jobs held past
    /// their lease)"), at most `maximumQuarantined`; nil when none was.
    public var quarantined: [String]?
    public static let maximumQuarantined = 64

    public init(
        options: [String], files: [String], outsideSolvers: [OutsideSolverRecord], workers: Int, pinning: String?, paired: Bool, repeats: Int,
        loadAtStart: Double, loadAtEnd: Double? = nil, security: WireSecurity? = nil, quarantined: [String]? = nil
    ) {
        self.options = options
        self.files = files
        self.outsideSolvers = outsideSolvers
        self.workers = workers
        self.pinning = pinning
        self.paired = paired
        self.repeats = repeats
        self.loadAtStart = loadAtStart
        self.loadAtEnd = loadAtEnd
        self.security = security
        self.quarantined = quarantined
    }

    /// The most a recipe's texts may hold together on the wire: room for a few hundred file
    /// paths. A batch of more files records none (`filesLeftOut`), and cannot be rerun from
    /// its record alone, which `rerun` says.
    public static let maximumBytes = 60_000
    public static let maximumEntries = 1_024

    /// The recipe with its files left out when they would pass `maximumBytes`.
    public func bounded() -> BatchRecipe {
        var copy = self
        let size = (options + files).reduce(0) { $0 + $1.utf8.count + 1 }
            + outsideSolvers.reduce(0) { $0 + $1.command.utf8.count + ($1.version?.utf8.count ?? 0) + $1.name.utf8.count + 16 }
        if size > Self.maximumBytes || files.count > Self.maximumEntries { copy.files = [] }
        return copy
    }
}

/// An outside solver as a batch ran it.
public struct OutsideSolverRecord: Sendable, Hashable, Codable {
    public var kind: String
    public var name: String
    public var command: String
    /// Whether it served (`--external-serve`), one process per worker, or ran once a puzzle.
    public var serving: Bool
    /// The first line `COMMAND --version` printed when it exited 0 within its time; nil: it
    /// printed none, failed, or was not asked (a coordinator never runs its solvers).
    public var version: String?

    public init(kind: String, name: String, command: String, serving: Bool, version: String?) {
        self.kind = kind
        self.name = name
        self.command = command
        self.serving = serving
        self.version = version
    }

    /// The flag that gives this solver to `gridlock batch`: "--external", "rushhour:ext=./ext".
    public var flag: [String] { [serving ? "--external-serve" : "--external", "\(kind):\(name)=\(command)"] }
}

extension BatchRecipe {
    func write(to writer: inout WireWriter) {
        writer.list(options) { $0.string($1) }
        writer.list(files) { $0.string($1) }
        writer.int(outsideSolvers.count)
        for solver in outsideSolvers {
            writer.string(solver.kind)
            writer.string(solver.name)
            writer.string(solver.command)
            writer.bool(solver.serving)
            writer.optionalString(solver.version)
        }
        writer.int(workers)
        writer.optionalString(pinning)
        writer.bool(paired)
        writer.int(repeats)
        writer.double(loadAtStart)
        writer.bool(loadAtEnd != nil)
        if let loadAtEnd { writer.double(loadAtEnd) }
        writer.byte(security?.wireCode ?? 0)
        writer.list(quarantined ?? []) { $0.string($1) }
    }

    /// Bounded whoever sends it: at most `maximumEntries` texts a list, each at most
    /// `maximumBytes`, and loads that are numbers.
    init(from reader: inout WireReader) throws(WireError) {
        options = try Self.texts(&reader)
        files = try Self.texts(&reader)
        let count = try reader.int()
        guard (0...64).contains(count) else { throw .malformed("outside solvers") }
        outsideSolvers = []
        for _ in 0..<count {
            let kind = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
            let name = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
            let command = try reader.string(maximumBytes: Self.maximumBytes)
            let serving = try reader.bool()
            let version = try reader.bool() ? try reader.string(maximumBytes: WireProtocol.maximumNameBytes) : nil
            outsideSolvers.append(OutsideSolverRecord(kind: kind, name: name, command: command, serving: serving, version: version))
        }
        workers = try reader.int()
        pinning = try reader.bool() ? try reader.string(maximumBytes: WireProtocol.maximumNameBytes) : nil
        paired = try reader.bool()
        repeats = try reader.int()
        loadAtStart = try reader.double()
        loadAtEnd = try reader.bool() ? try reader.double() : nil
        let securityCode = try reader.byte()
        guard securityCode == 0 || WireSecurity(wireCode: securityCode) != nil else { throw .malformed("wire security") }
        security = WireSecurity(wireCode: securityCode)
        let quarantined = try reader.list(maximumCount: Self.maximumQuarantined) { (reader: inout WireReader) throws(WireError) in
            try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        }
        self.quarantined = quarantined.isEmpty ? nil : quarantined
        guard workers >= 0, (1...1_000).contains(repeats) else { throw .malformed("recipe counts") }
        for load in [loadAtStart, loadAtEnd ?? 0] where !(load.isFinite && load >= 0) { throw .malformed("load average") }
    }

    private static func texts(_ reader: inout WireReader) throws(WireError) -> [String] {
        try reader.list(maximumCount: maximumEntries) { (reader: inout WireReader) throws(WireError) in try reader.string(maximumBytes: maximumBytes) }
    }
}
