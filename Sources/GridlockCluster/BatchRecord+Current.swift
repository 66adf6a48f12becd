// Where a batch runs, recorded with its results so tables from different machines and builds
// are never mixed up unknowingly.

import Foundation
import GridlockBuildInfo
import GridlockWire

extension BatchRecord {
    /// This process's batch, on this machine and build, with no limits yet.
    public static func current(batch: String, solvers: [String], jobs: Int) -> BatchRecord {
        // The build's provenance is compiled in (GridlockBuildInfo): no git at run time, which
        // inside an image found none and in another checkout found that one's commit.
        BatchRecord(
            batch: batch, started: timestamp(), host: ProcessInfo.processInfo.hostName,
            cores: ProcessInfo.processInfo.activeProcessorCount, configuration: BuildInfo.configuration, revision: BuildInfo.shortRevision,
            solvers: solvers.map { "\($0)@\(solverVersion)" }.joined(separator: ","), jobs: jobs, limits: JobLimits(), wallLimitSeconds: nil)
    }

    /// The time in UTC as ISO 8601 ("2026-11-24T09:22:40Z"), written without Foundation's
    /// formatter: that one loads ICU's tables, 5.7 MB of resident memory in the batch process
    /// before its workers are spawned, which the kernel then counts under every worker's
    /// getrusage peak (PeakMemoryMeter).
    public static func timestamp(_ date: Date = Date()) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Bumped whenever a solver's results or statistics change meaning.
    public static let solverVersion = 1

}
