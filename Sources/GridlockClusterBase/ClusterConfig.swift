// The cluster's config file: `key = value` lines, `#` comments. Flags override it; it overrides
// the built-in defaults. config/gridlock.conf documents every key.
//
//   coordinator.bind      = tcp://127.0.0.1:5555   where the coordinator listens (loopback by default)
//   coordinator.endpoint  = tcp://coordinator:5555 where workers and the sink reach it
//   sink.bind             = tcp://127.0.0.1:5556
//   sink.endpoint         = tcp://sink:5556
//   sink.database         = results.sqlite
//   worker.processes      = 2
//   worker.window         = 4
//   worker.heartbeat_ms   = 250
//   worker.sink_silence_s = 120      a worker without its sink this long exits (0: never)
//   coordinator.silence_limit_s = 3        a worker silent this long is presumed dead
//   coordinator.store_timeout_s = 10
//   coordinator.sink_silence_s = 120      a sink silent this long stops the batch (0: never)
//   coordinator.attempts  = 3
//   coordinator.lease_limit_s = 3600   a job without a time limit is held this long at most (0: no end)
//   coordinator.quarantine_after = 3   jobs held past their lease before a worker is quarantined (0: never)
//   coordinator.max_peers = 2048   peers connected at once (0: no cap); sink.max_peers likewise
//   job.timeout_s         = 30
//   job.time_limit_s      = 10         CPU seconds a job's solver may use
//   job.memory_limit      = 2G         memory a job's solver may hold
//   job.max_states        = 50000000
//   job.external          = rushhour:py=python3 solver.py   an outside solver (repeatable)
//   job.external_serve    = rushhour:c=./solver --serve     a serving one (repeatable)

import Foundation
import GridlockCore

public struct ClusterConfig: Sendable, Hashable {
    public var values: [String: String] = [:]

    public static let keys: Set<String> = Set([
        "coordinator.bind", "coordinator.endpoint", "sink.bind", "sink.endpoint", "sink.database",
        "worker.processes", "worker.window", "worker.heartbeat_ms", "coordinator.silence_limit_s",
        "coordinator.store_timeout_s", "coordinator.sink_silence_s", "coordinator.lease_limit_s", "coordinator.quarantine_after", "coordinator.max_peers", "sink.max_peers", "coordinator.attempts", "job.timeout_s", "job.time_limit_s", "job.memory_limit", "job.max_states", "cluster.key_file", "cluster.keys", "coordinator.metrics", "sink.metrics", "worker.metrics", "worker.coordinator_silence_s",
        "worker.sink_silence_s", "cluster.insecure",
    ]).union(repeatableKeys)

    /// Keys that may be given on several lines, each a value of its own, in order: the outside
    /// solvers (`--external`, `--external-serve`), as the flags are repeated.
    public static let repeatableKeys: Set<String> = ["job.external", "job.external_serve"]
    public var lists: [String: [String]] = [:]

    public init() {}

    /// Why a config file was refused: file, line and what is wrong.
    public struct Problem: Error, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String
        public var description: String { "\(file):\(line): \(message)" }
    }

    public static func load(path: String) throws -> ClusterConfig {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(path, limit: 1 << 20)
        } catch {
            throw Problem(file: path, line: 0, message: "cannot read the config file: \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem(file: path, line: 0, message: "the config file is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws -> ClusterConfig {
        var config = ClusterConfig()
        // "\r\n" is one Character in Swift: split on it too, or a CRLF file is one long line.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            // A CR left at the end (a last line with no LF after it) goes too.
            let unix = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let line = unix.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            let parts = trimmed.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw Problem(file: file, line: index + 1, message: "expected `key = value`, found `\(trimmed.excerpt())`")
            }
            guard keys.contains(parts[0]) else {
                throw Problem(
                    file: file, line: index + 1,
                    message: "unknown key `\(parts[0].excerpt())`; known keys: \(keys.sorted().joined(separator: ", "))")
            }
            if parts[0].hasSuffix("_s") || parts[0].hasSuffix("_ms") || ["worker.processes", "worker.window", "coordinator.attempts", "job.max_states"].contains(parts[0]) {
                // Finite and at most 1e9 (a count up to 1e15): `inf` or 1e300 would trap where
                // it becomes a duration or an integer.
                let most = parts[0].hasSuffix("_s") || parts[0].hasSuffix("_ms") ? 1e9 : 1e15
                guard let number = Double(parts[1]), number > 0, number <= most else {
                    throw Problem(file: file, line: index + 1, message: "`\(parts[0])` must be a positive number up to \(most == 1e9 ? "1e9" : "1e15"), not `\(parts[1].printable)`")
                }
                // Milliseconds and counts are whole: 0.5 ms became 0, a heartbeat every 0 ms,
                // and an idle worker busy-looped.
                guard parts[0].hasSuffix("_s") || number == number.rounded() else {
                    throw Problem(file: file, line: index + 1, message: "`\(parts[0])` must be a whole number, not `\(parts[1].printable)`")
                }
            }
            if parts[0] == "cluster.insecure", Bool(parts[1]) == nil {
                throw Problem(file: file, line: index + 1, message: "`cluster.insecure` is `true` or `false`, not `\(parts[1].printable)`")
            }
            if repeatableKeys.contains(parts[0]) {
                do {
                    _ = try ExternalSolver.parse(parts[1])
                } catch {
                    throw Problem(file: file, line: index + 1, message: "`\(parts[0])`: \(error.description)")
                }
                config.lists[parts[0], default: []].append(parts[1])
                continue
            }
            if parts[0] == "job.memory_limit", ByteSize.parse(parts[1]) == nil {
                throw Problem(file: file, line: index + 1, message: "`job.memory_limit` takes a size with its unit (256M, 2G), not `\(parts[1].printable)`")
            }
            config.values[parts[0]] = parts[1]
        }
        return config
    }

    public func string(_ key: String) -> String? { values[key] }
    public func double(_ key: String) -> Double? { values[key].flatMap(Double.init) }
    public func bool(_ key: String) -> Bool? { values[key].flatMap(Bool.init) }
    public func int(_ key: String) -> Int? { values[key].flatMap { Double($0) }.map { Int($0) } }
}
