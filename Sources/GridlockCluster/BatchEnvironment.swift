// A batch's record as the results database keeps it (StoredRow.swift is a stored result).

import Foundation
import GRDB
import GridlockWire

/// Where and how a batch ran.
public struct BatchEnvironment: Sendable, Hashable, Codable {
    public var id: String
    public var started: String
    public var host: String
    public var cores: Int
    public var configuration: String
    public var revision: String
    public var solvers: String
    public var jobs: Int
    /// The limits every job ran under (JobLimits; wall time is `--timeout`); nil: none.
    public var timeLimitSeconds: Double?
    public var wallLimitSeconds: Double?
    public var memoryLimitBytes: Int?
    /// What it takes to run the batch again; nil for a batch recorded before recipes.
    public var recipe: BatchRecipe?

    public init(id: String, started: String, host: String, cores: Int, configuration: String, revision: String, solvers: String, jobs: Int) {
        self.id = id
        self.started = started
        self.host = host
        self.cores = cores
        self.configuration = configuration
        self.revision = revision
        self.solvers = solvers
        self.jobs = jobs
    }

    /// A coordinator's record of its batch, as its sink keeps it.
    public init(_ record: BatchRecord) {
        self.init(
            id: record.batch, started: record.started, host: record.host, cores: record.cores, configuration: record.configuration,
            revision: record.revision, solvers: record.solvers, jobs: record.jobs)
        timeLimitSeconds = record.limits.cpuSeconds
        wallLimitSeconds = record.wallLimitSeconds
        memoryLimitBytes = record.limits.memoryBytes
        recipe = record.recipe
    }

    /// The record a coordinator sends its sink of this batch.
    public var record: BatchRecord {
        BatchRecord(
            batch: id, started: started, host: host, cores: cores, configuration: configuration, revision: revision, solvers: solvers,
            jobs: jobs, limits: JobLimits(cpuSeconds: timeLimitSeconds, memoryBytes: memoryLimitBytes), wallLimitSeconds: wallLimitSeconds,
            recipe: recipe)
    }

    /// A recipe as the batches table keeps it.
    static func json(_ recipe: BatchRecipe) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(recipe)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func recipe(json: String) -> BatchRecipe? {
        try? JSONDecoder().decode(BatchRecipe.self, from: Data(json.utf8))
    }

    /// "CPU 1 s, wall 30 s, memory 256 MiB", or nil without limits.
    public var limitsText: String? {
        // Three significant digits: a limit of a microsecond is not "0.00 s".
        let seconds = { (value: Double) in String(format: "%.3g s", value) }
        let parts = [timeLimitSeconds.map { "CPU " + seconds($0) }, wallLimitSeconds.map { "wall " + seconds($0) },
                     memoryLimitBytes.map { "memory \($0.bytes)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
