// The limits a benchmark puts on every job beyond a search's own (issue 19): CPU time and
// memory, applied alike to built-in and outside solvers. (Wall time is the job's
// `timeoutSeconds`, `--timeout` or `--wall-limit`.) Part of a job's identity: a job solved
// under other limits is another job.

public struct JobLimits: Sendable, Hashable, Codable {
    /// CPU seconds the solver may use: the solving thread's, or an outside solver's whole
    /// process tree's.
    public var cpuSeconds: Double?
    /// Bytes the solver may hold: a built-in search's tables as it counts them, or an outside
    /// solver's whole process tree.
    public var memoryBytes: Int?

    public init(cpuSeconds: Double? = nil, memoryBytes: Int? = nil) {
        self.cpuSeconds = cpuSeconds
        self.memoryBytes = memoryBytes
    }

    public var isEmpty: Bool { cpuSeconds == nil && memoryBytes == nil }

    /// The wall-time limit: `given` (`--timeout`, `--wall-limit`), else the one a CPU limit
    /// implies (`TimeBasis.impliedWallSeconds`: twice it plus a second, issue 43).
    public func wallSeconds(given: Double?) -> Double? {
        given ?? cpuSeconds.map(TimeBasis.impliedWallSeconds)
    }

    func write(to writer: inout WireWriter) {
        writer.bool(cpuSeconds != nil)
        if let cpuSeconds { writer.double(cpuSeconds) }
        writer.optionalInt(memoryBytes)
    }

    /// A limit of zero, below it, or no number at all is no limit anyone set: malformed.
    init(from reader: inout WireReader) throws(WireError) {
        cpuSeconds = try reader.bool() ? try reader.double() : nil
        memoryBytes = try reader.optionalInt()
        if let cpuSeconds, !(cpuSeconds.isFinite && cpuSeconds > 0) { throw .malformed("CPU time limit") }
        if let memoryBytes, memoryBytes <= 0 { throw .malformed("memory limit") }
    }
}
