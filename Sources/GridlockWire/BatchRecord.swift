// What a coordinator tells its sink of the batch it runs (version 9; its recipe, version 10), so that the sink's
// `batches` table holds what `gridlock batch` records itself: where and how the batch was
// started, its solvers, and the limits its jobs ran under, which PAR-2 and the report need.
// Sent when the coordinator first hears a sink, and again with the number of jobs when every
// job is stored.

public struct BatchRecord: Sendable, Hashable {
    public var batch: String
    /// When the coordinator started, ISO 8601.
    public var started: String
    public var host: String
    public var cores: Int
    public var configuration: String
    public var revision: String
    /// The solvers, as the batches table writes them ("bfs@1,bidirectional@1").
    public var solvers: String
    /// Jobs read so far: the batch's total once every job is stored.
    public var jobs: Int
    public var limits: JobLimits
    public var wallLimitSeconds: Double?
    /// What it takes to run the batch again; nil from a coordinator that did not say.
    public var recipe: BatchRecipe?

    public init(
        batch: String, started: String, host: String, cores: Int, configuration: String, revision: String, solvers: String, jobs: Int,
        limits: JobLimits, wallLimitSeconds: Double?, recipe: BatchRecipe? = nil
    ) {
        self.batch = batch
        self.started = started
        self.host = host
        self.cores = cores
        self.configuration = configuration
        self.revision = revision
        self.solvers = solvers
        self.jobs = jobs
        self.limits = limits
        self.wallLimitSeconds = wallLimitSeconds
        self.recipe = recipe
    }

    func write(to writer: inout WireWriter) {
        writer.string(batch)
        writer.string(started)
        writer.string(host)
        writer.int(cores)
        writer.string(configuration)
        writer.string(revision)
        writer.string(solvers)
        writer.int(jobs)
        limits.write(to: &writer)
        writer.bool(wallLimitSeconds != nil)
        if let wallLimitSeconds { writer.double(wallLimitSeconds) }
        writer.bool(recipe != nil)
        recipe?.write(to: &writer)
    }

    init(from reader: inout WireReader) throws(WireError) {
        batch = try reader.name(slot: 0)
        started = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        host = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        cores = try reader.int()
        configuration = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        revision = try reader.string(maximumBytes: WireProtocol.maximumNameBytes)
        solvers = try reader.string(maximumBytes: WireProtocol.maximumReasonBytes)
        jobs = try reader.int()
        limits = try JobLimits(from: &reader)
        wallLimitSeconds = try reader.bool() ? try reader.double() : nil
        recipe = try reader.bool() ? try BatchRecipe(from: &reader) : nil
        if cores < 0 || jobs < 0 { throw .malformed("batch record") }
        if let wallLimitSeconds, !(wallLimitSeconds.isFinite && wallLimitSeconds > 0) { throw .malformed("wall time limit") }
    }
}
