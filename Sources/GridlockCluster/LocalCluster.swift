// The embedded batch behind `gridlock batch`: a sink thread, the coordinator on the calling
// thread, and supervised worker processes, all on loopback; torn down in order at the end.

import Foundation
import GridlockWire
import ZeroMQ

public enum LocalCluster {
    public struct Outcome: Sendable {
        public var progress: CoordinatorProgress
        public var sink: SinkCounters
        /// From the start to the last job stored: the pipeline's own time.
        public var seconds: Double
        public var workerRestarts: Int
    }

    /// Runs the batch read by `reader` with `workers` processes of `executable` (run as
    /// `executable worker ...`), storing in `store`. `progress` is called about twice a second.
    public static func run(
        _ reader: JobReader, _ configuration: CoordinatorMachine.Configuration, store: ResultStore, workers: Int,
        executable: String = WorkerSupervisor.currentExecutable, stop: StopFlag = StopFlag(),
        progress: (CoordinatorProgress, SinkCounters) -> Void = { _, _ in }
    ) throws -> Outcome {
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
        defer {
            stopSink.stop()
            while !sinkThread.isFinished { usleep(10_000) }
            context.terminate()
        }

        let clock = ContinuousClock()
        let started = clock.now
        var supervisor: WorkerSupervisor?
        var supervisorGaveUp: String?
        var startFailure: Error?
        let coordinator = Coordinator.Configuration(
            bind: "tcp://127.0.0.1:*", sink: { endpoints.wait(for: "results") ?? "" }, machine: configuration)
        let outcome = try Coordinator.run(
            reader, coordinator, context: context, stop: stop,
            bound: { jobs in
                endpoints.publish("jobs", jobs)
                let results = endpoints.wait(for: "results") ?? ""
                let pool = WorkerSupervisor(
                    executable: executable,
                    arguments: ["worker", "--coordinator", jobs, "--sink", results, "--exit-when-drained"],
                    replaceCleanExits: true)
                do {
                    try pool.start(workers)
                } catch {
                    startFailure = error
                    stop.stop()
                }
                supervisor = pool
            },
            progress: { state in
                progress(state, sinkCounters.current)
                if !state.complete, let reason = supervisor?.check() {
                    supervisorGaveUp = reason
                    stop.stop()
                }
                if sinkFailure.current != nil { stop.stop() }
            })
        let seconds = Double(seconds: started.duration(to: clock.now))
        // Drained workers exit by themselves; otherwise (a refusal, a stop) they are told to.
        supervisor?.stop(signal: outcome.stop == .complete ? nil : SIGTERM)
        if let startFailure { throw ClusterError("cannot start the worker processes (\(executable)): \(startFailure)") }
        if let failure = sinkFailure.current { throw ClusterError("the sink failed: \(failure)") }
        if let supervisorGaveUp {
            throw ClusterError("""
                \(supervisorGaveUp) \(outcome.progress.done) jobs are stored; running the same command with \
                --batch \(configuration.batch) resumes.
                """)
        }
        if case .inputChanged(let reason)? = outcome.stop { throw ClusterError(reason) }
        return Outcome(progress: outcome.progress, sink: sinkCounters.current, seconds: seconds, workerRestarts: supervisor?.restarts ?? 0)
    }
}

extension WorkerIdentity {
    /// This process, as it signs the results it reports itself.
    public static var thisProcess: WorkerIdentity {
        WorkerIdentity(host: ProcessInfo.processInfo.hostName, pid: Int(getpid()))
    }
}
