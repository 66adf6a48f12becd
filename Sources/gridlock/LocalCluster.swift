// Wiring the embedded batch: sink and coordinator threads, worker processes, progress, teardown.

import Foundation
import GridlockCluster
import GridlockCore
import GridlockWire
import ZeroMQ

enum LocalCluster {
    struct Outcome {
        var progress: CoordinatorProgress
        var sink: SinkCounters
        var seconds: Double
    }

    static func run(plan: BatchPlan, store: ResultStore, workers: Int) throws -> Outcome {
        let context = try ZMQContext()
        let endpoints = Rendezvous()
        let stopSink = StopFlag()
        let sinkCounters = Shared(SinkCounters())
        let sinkFailure = Shared<String?>(nil)
        let sinkThread = Thread {
            do {
                try Sink.run(
                    Sink.Configuration(bind: "tcp://127.0.0.1:*", coordinator: { endpoints.wait(for: "jobs") ?? "" }, database: store),
                    context: context, stop: stopSink, counters: sinkCounters, bound: { endpoints.publish("results", $0) })
            } catch {
                sinkFailure.update { $0 = "\(error)" }
                endpoints.publish("results", "")
            }
        }
        sinkThread.start()

        let clock = ContinuousClock()
        let started = clock.now
        var processes: [Process] = []
        let progress = ProgressLine(total: plan.total)
        let configuration = Coordinator.Configuration(bind: "tcp://127.0.0.1:*", sink: { endpoints.wait(for: "results") ?? "" })
        let stopCoordinator = StopFlag()
        var workersGone = false
        let final = try Coordinator.run(
            plan, configuration, context: context, stop: stopCoordinator,
            bound: { jobs in
                endpoints.publish("jobs", jobs)
                let results = endpoints.wait(for: "results") ?? ""
                processes = (0..<workers).compactMap { _ in
                    try? spawnWorker(["--coordinator", jobs, "--sink", results, "--exit-when-drained"])
                }
            },
            progress: { state in
                progress.show(state, sink: sinkCounters.current)
                // Nobody is left to solve: every worker process of this batch has exited.
                if !state.isComplete, processes.allSatisfy({ !$0.isRunning }) {
                    workersGone = true
                    stopCoordinator.stop()
                }
            })
        progress.finish()
        let seconds = Double(seconds: started.duration(to: clock.now))
        stopSink.stop()
        while !sinkThread.isFinished { usleep(10_000) }
        for process in processes { waitOrTerminate(process) }
        context.terminate()
        if let failure = sinkFailure.current { throw CommandFailure("the sink failed: \(failure)") }
        if workersGone {
            let statuses = processes.map { "\($0.terminationStatus)" }.joined(separator: ", ")
            throw CommandFailure("""
                every worker process exited (statuses \(statuses)) with \(final.total - final.stored) of \(final.total) \
                jobs not stored; run `gridlock worker` by hand to see why. Stored results are in the database, \
                and running the same command with --batch \(plan.batch) resumes.
                """)
        }
        return Outcome(progress: final, sink: sinkCounters.current, seconds: seconds)
    }

    /// This executable, run as `gridlock worker` with these flags.
    static func spawnWorker(_ flags: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: selfExecutable)
        process.arguments = ["worker"] + flags
        try process.run()
        return process
    }

    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Workers exit when told the batch is drained; one that does not within two seconds is ended.
    static func waitOrTerminate(_ process: Process) {
        let deadline = Date(timeIntervalSinceNow: 2)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// Progress on standard error: done of total, rate, ETA, failures, live workers. Rewritten in
/// place on a terminal; a line every five seconds otherwise.
final class ProgressLine: @unchecked Sendable {
    let total: Int
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant
    var lastLine: ContinuousClock.Instant
    var shown = false

    init(total: Int) {
        self.total = total
        started = clock.now
        lastLine = clock.now
    }

    func show(_ progress: CoordinatorProgress, sink: SinkCounters) {
        let elapsed = Double(seconds: started.duration(to: clock.now))
        let rate = elapsed > 0 ? Double(progress.stored) / elapsed : 0
        let eta = rate > 0 ? Double(total - progress.stored) / rate : 0
        let percent = total > 0 ? 100 * Double(progress.stored) / Double(total) : 100
        let text = "batch: \(progress.stored.grouped) of \(total.grouped) (\(percent.formatted(decimals: 1))%), "
            + "\(Int(rate).grouped) jobs/s, ETA \(eta.formatted(decimals: 0)) s, \(progress.failed) failed, "
            + "\(progress.reissued) re-issued, \(progress.liveWorkers) workers"
        if StandardError.isTerminal {
            StandardError.write("\r\u{1B}[K" + text)
            shown = true
        } else if lastLine.duration(to: clock.now) >= .seconds(5) {
            StandardError.write(text + "\n")
            lastLine = clock.now
        }
    }

    func finish() {
        if shown { StandardError.write("\r\u{1B}[K") }
    }
}
