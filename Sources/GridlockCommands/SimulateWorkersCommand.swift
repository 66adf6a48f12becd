// `gridlock simulate-workers`: the cluster's load generator (SimulatedWorkers.swift), for
// measuring what one coordinator and one sink carry (scripts/bench-cluster runs it).

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockClusterBase
import GridlockWire

struct SimulateWorkersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate-workers",
        abstract: "Stand in for many workers from one process, to load-test a coordinator and a sink.",
        usage: "gridlock simulate-workers [<options>]",
        discussion: """
            Each simulated worker has its own connections and speaks the protocol as a real \
            worker does (asks, heartbeats, results in groups), but its jobs take simulated time: \
            --job-seconds, or times drawn from a stored batch (--times-from). Answers are real: \
            each distinct job is solved once and its answer reused, so give a batch of few \
            distinct puzzles (the same board many times) to measure the coordinator and the \
            sink rather than this process. It exits when the coordinator says the batch is done.

            Example (scripts/bench-cluster does all of this and measures each role):
              gridlock keys generate load-keys
              gridlock sink --bind ipc:///tmp/r --coordinator ipc:///tmp/j \\
                  --keys load-keys --db load.sqlite &
              gridlock simulate-workers --coordinator ipc:///tmp/j \\
                  --sink ipc:///tmp/r --keys load-keys --workers 100 &
              gridlock coordinator trivial.txt --bind ipc:///tmp/j \\
                  --sink ipc:///tmp/r --keys load-keys
            """
    )

    @OptionGroup var config: ConfigOptions

    @Option(help: "The coordinator's jobs endpoint (config: coordinator.endpoint).")
    var coordinator: String?

    @Option(help: "The sink's results endpoint (config: sink.endpoint).")
    var sink: String?

    @Option(help: "How many workers to simulate (1 to 4,000; each holds two sockets).")
    var workers = 10

    @Option(help: "How long each job takes, in seconds (0: answered as soon as it arrives).")
    var jobSeconds = 0.0

    @Option(help: "Draw each job's time from the stored wall times of this results database instead.")
    var timesFrom: String?

    @Option(help: "With --times-from: only this batch's rows (default: all of them).")
    var timesBatch: String?

    @Option(help: "Seeds the draws from --times-from.")
    var seed: UInt64 = 1

    @Option(help: "The simulated workers' host name (default: this machine's, with -sim and this process's id).")
    var host: String?

    @OptionGroup var key: KeyOptions

    @Option(help: "Exit 1 after hearing nothing from the coordinator for this many seconds.")
    var coordinatorSilenceLimit = 30.0

    func validate() throws {
        guard (1...4_000).contains(workers) else { throw ValidationError("--workers must be from 1 to 4000") }
        guard jobSeconds >= 0, jobSeconds <= 3_600 else { throw ValidationError("--job-seconds must be from 0 to 3600") }
        guard timesFrom == nil || jobSeconds == 0 else { throw ValidationError("give --job-seconds or --times-from, not both") }
        guard timesBatch == nil || timesFrom != nil else { throw ValidationError("--times-batch reads the rows of --times-from: give it too") }
        guard coordinatorSilenceLimit > 0, coordinatorSilenceLimit <= 86_400 else {
            throw ValidationError("--coordinator-silence-limit must be from 0 to 86400 seconds (not 0: the batch's end is how it exits)")
        }
        if let host { guard !host.isEmpty, host.utf8.count <= 200 else { throw ValidationError("--host must be 1 to 200 bytes") } }
    }

    func run() throws {
        let file = try config.load()
        let coordinator = try ConfigFile.require(self.coordinator, file, "coordinator.endpoint", flag: "--coordinator")
        let sink = try ConfigFile.require(self.sink, file, "sink.endpoint", flag: "--sink")
        let (security, warnings) = try key.load(file, role: .worker, endpoints: [coordinator, sink])
        for warning in warnings { FileHandle.standardError.write(Data("\(warning.hasPrefix("WARNING") ? "" : "warning: ")\(warning)\n".utf8)) }
        var configuration = SimulatedWorkers.Configuration(
            coordinator: coordinator, sink: sink, count: workers,
            host: host ?? "\(ProcessInfo.processInfo.hostName)-sim\(getpid())", times: try times())
        configuration.key = security.key
        configuration.curve = security.curve
        configuration.coordinatorSilenceLimit = .milliseconds(Int64(coordinatorSilenceLimit * 1_000))
        let outcome = try RoleLifetime.run { context, stop in
            // Two sockets a worker, beside the context's own.
            try context.setMaximumSockets(Int32(2 * workers + 64))
            return try SimulatedWorkers.run(configuration, context: context, stop: stop)
        }
        let rate = outcome.seconds > 0 ? Double(outcome.answered) / outcome.seconds : 0
        print("""
            simulate-workers: \(workers) workers answered \(outcome.answered) jobs in \(outcome.seconds.formatted(decimals: 2)) s \
            (\(Int(rate.rounded())) jobs/s), \(outcome.solved) solved for real, the rest answers reused
            """)
        if outcome.coordinatorSilent {
            throw CommandFailure("""
                nothing heard from the coordinator at \(coordinator) for \(coordinatorSilenceLimit.formatted(decimals: 0)) s \
                (is it running, is the address right, \(configuration.security.mismatchQuestion)?)
                """)
        }
    }

    private func times() throws -> SimulatedJobTimes {
        guard let path = timesFrom else { return .fixed(jobSeconds) }
        let samples: [Double]
        do {
            samples = try ResultsDatabase.open(path, readOnly: true).jobSeconds(batch: timesBatch)
        } catch {
            throw ValidationError("--times-from \(ResultsLocation.shown(path)): \(error)")
        }
        guard !samples.isEmpty else {
            throw ValidationError("--times-from \(ResultsLocation.shown(path)) holds no results\(timesBatch.map { " of batch \($0)" } ?? ""): nothing to draw job times from")
        }
        return SimulatedJobTimes(samples: samples, seed: seed)
    }
}
