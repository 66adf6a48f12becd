// What a worker's machine is, as a benchmark needs to know it (issue 19): two batches timed on
// different CPUs, governors or loads are not alike, and a table that mixes them must say so.
// The worker reads it once at start (MachineRecord+Current.swift, GridlockCluster) and sends it
// to the sink before its first results of each batch; the sink keeps one row per batch and host.

public struct MachineRecord: Sendable, Hashable, Codable {
    public var host: String
    /// /proc/cpuinfo's model name ("AMD EPYC 7B13"), or "unknown".
    public var cpuModel: String
    /// Physical cores and hardware threads of the CPUs this process may run on.
    public var cores: Int
    public var threads: Int
    /// The cpufreq governor ("performance", "powersave"); nil where /sys shows none (most VMs).
    public var governor: String?
    /// "on" or "off" where /sys says whether the CPU may boost; nil where it does not.
    public var turbo: String?
    /// The kernel's release ("6.1.0-18-amd64").
    public var kernel: String
    /// Memory the machine has, and the one-minute load average when the worker started.
    public var memoryBytes: Int
    public var loadAverage: Double
    /// How jobs are measured on this worker ("clear_refs+VmHWM; outside: wait4 rusage").
    public var method: String
    /// The solvers' compiled path: "x86-64-v4" or "portable" (version 10; "unknown" before).
    public var codePath: String = "unknown"
    /// The CPU's clock in MHz as /proc/cpuinfo reads at start (the mean over its threads);
    /// 0: not known.
    public var megahertz: Double = 0
    /// "on" where sibling hardware threads share a core, "off" where not; nil: not known.
    public var smt: String?

    public init(
        host: String, cpuModel: String, cores: Int, threads: Int, governor: String?, turbo: String?, kernel: String,
        memoryBytes: Int, loadAverage: Double, method: String, codePath: String = "unknown", megahertz: Double = 0, smt: String? = nil
    ) {
        self.host = host
        self.cpuModel = cpuModel
        self.cores = cores
        self.threads = threads
        self.governor = governor
        self.turbo = turbo
        self.kernel = kernel
        self.memoryBytes = memoryBytes
        self.loadAverage = loadAverage
        self.method = method
        self.codePath = codePath
        self.megahertz = megahertz
        self.smt = smt
    }
}

extension MachineRecord {
    func write(to writer: inout WireWriter) {
        writer.string(host)
        writer.string(cpuModel)
        writer.int(cores)
        writer.int(threads)
        writer.optionalString(governor)
        writer.optionalString(turbo)
        writer.string(kernel)
        writer.int(memoryBytes)
        writer.double(loadAverage)
        writer.string(method)
        writer.string(codePath)
        writer.double(megahertz)
        writer.optionalString(smt)
    }

    /// Every text is at most a name's 255 bytes: a record is small, whoever sends it.
    init(from reader: inout WireReader) throws(WireError) {
        host = try reader.name(slot: 1)
        cpuModel = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        cores = try reader.int()
        threads = try reader.int()
        governor = try Self.optionalName(&reader)
        turbo = try Self.optionalName(&reader)
        kernel = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        memoryBytes = try reader.int()
        loadAverage = try reader.double()
        method = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        codePath = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        megahertz = try reader.double()
        smt = try Self.optionalName(&reader)
        // Counts below zero and loads that are no number would reach the tables and SQLite.
        guard cores >= 0, threads >= 0, memoryBytes >= 0 else { throw .malformed("machine count") }
        guard loadAverage.isFinite, loadAverage >= 0 else { throw .malformed("load average") }
        guard megahertz.isFinite, megahertz >= 0, megahertz < 1e6 else { throw .malformed("clock") }
    }

    private static func optionalName(_ reader: inout WireReader) throws(WireError) -> String? {
        try reader.bool() ? try reader.string(maximumBytes: WireProtocol.maximumNameBytes) : nil
    }
}
