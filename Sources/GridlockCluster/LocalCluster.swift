// The embedded batch behind `gridlock batch`: supervised worker processes, a sink thread and the
// coordinator on the calling thread, on ipc sockets in a private directory; torn down in order
// at the end.
//
// The workers are started first, before the batch opens its database: the kernel counts the
// spawning process's peak memory under each worker's getrusage figure (PeakMemoryMeter), so
// spawning while this process is small keeps the workers' cheap per-job memory reading exact.
// They connect to sockets that do not exist yet; ZeroMQ retries until the roles bind them.

import Foundation
import GridlockClusterBase
import GridlockWire
import ZeroMQ

public enum LocalCluster {
    public struct Outcome: Sendable {
        public var progress: CoordinatorProgress
        public var sink: SinkCounters
        /// From the start to the last job stored: the pipeline's own time.
        public var seconds: Double
        public var workerRestarts: Int
        /// The batch's tables folded as its rows were stored (StreamedReport says when they
        /// are whole).
        public var streamed: StreamedReport
    }

    /// A batch's worker processes and the endpoints they connect to.
    public final class Workers: @unchecked Sendable {
        let supervisor: WorkerSupervisor
        /// A directory only this user can enter (mkdtemp), holding the two ipc sockets; under
        /// /tmp, as an ipc path must stay under about 100 bytes.
        let directory: String
        var jobs: String { "ipc://\(directory)/jobs" }
        var results: String { "ipc://\(directory)/results" }
        /// A key for this run only, in a file of that directory that the workers read: only
        /// this batch's processes can pose as its sink, take its jobs or store its results.
        let key = ClusterKey.random()
        var keyFile: String { "\(directory)/key" }

        /// Starts `count` processes of `executable` (run as `executable worker ...`), each
        /// given `memoryBudget` (GiB, as the worker's flag reads it) for its jobs if set, and
        /// `flags` besides (the outside solvers), each pinned to its CPU of `cpus` if any.
        public init(
            _ count: Int, executable: String = WorkerSupervisor.currentExecutable, memoryBudget: String? = nil, flags: [String] = [],
            cpus: [Int] = []
        ) throws {
            Self.removeAbandonedDirectories()
            var template = Array("/tmp/gridlock-\(getpid())-XXXXXX".utf8CString)
            guard let created = mkdtemp(&template) else {
                throw ClusterError("cannot create a directory for the batch's sockets in /tmp: \(String(cString: strerror(errno)))")
            }
            directory = String(cString: created)
            supervisor = WorkerSupervisor(
                executable: executable,
                arguments: [
                    "worker", "--coordinator", "ipc://\(directory)/jobs", "--sink", "ipc://\(directory)/results", "--key-file",
                    "\(directory)/key", "--exit-when-drained",
                ] + (memoryBudget.map { ["--memory-budget", $0] } ?? []) + flags,
                replaceCleanExits: true, cpus: cpus)
            do {
                try ClusterKeyFile.create(key, at: keyFile)
            } catch {
                stop()
                throw error
            }
            do {
                try supervisor.start(count)
            } catch {
                stop(signal: SIGTERM)
                throw ClusterError("cannot start the worker processes (\(executable)): \(error)")
            }
        }

        /// The socket directories of batches that were killed before they could remove them:
        /// each is named after its process, which no longer exists.
        static func removeAbandonedDirectories() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/tmp") else { return }
            for name in names where name.hasPrefix("gridlock-") {
                let parts = name.split(separator: "-")
                guard parts.count == 3, let pid = Int32(parts[1]), kill(pid, 0) != 0, errno == ESRCH else { continue }
                // Only a real directory of this user's, opened without following a link: a
                // link planted under that name must not make us delete files elsewhere.
                var status = stat()
                guard lstat("/tmp/\(name)", &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else { continue }
                let directory = open("/tmp/\(name)", O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
                guard directory >= 0 else { continue }
                for file in ["jobs", "results", "key"] { unlinkat(directory, file, 0) }
                close(directory)
                rmdir("/tmp/\(name)")
            }
        }

        /// Waits for the workers to exit (after `signal`, if given), then removes the sockets.
        public func stop(signal: Int32? = nil) {
            supervisor.stop(signal: signal)
            for name in ["jobs", "results", "key"] { unlink("\(directory)/\(name)") }
            rmdir(directory)
        }
    }

    /// Runs the batch read by `reader` on `workers`, storing in `store`. `progress` is called
    /// about twice a second. Stops the workers before it returns.
    public static func run(
        _ reader: JobReader, _ configuration: CoordinatorMachine.Configuration, store: ResultStore, workers: Workers,
        stop: StopFlag = StopFlag(), log: @escaping @Sendable (String) -> Void = { _ in },
        observeStore: (@Sendable (Duration, Int) -> Void)? = nil,
        sinkJoinLimit: Duration = .seconds(30),
        progress: (CoordinatorProgress, SinkCounters) -> Void = { _, _ in }
    ) throws -> Outcome {
        var workersStopped = false
        defer { if !workersStopped { workers.stop(signal: SIGTERM) } }
        let key = workers.key
        var configuration = configuration
        configuration.key = key
        let context = try ZMQContext()
        let stopSink = StopFlag()
        let sinkCounters = Shared(SinkCounters())
        let sinkFailure = Shared<String?>(nil)
        let streamed = Shared(StreamedReport(batch: configuration.batch, scores: reader.scores))
        let sinkThread = Thread {
            do {
                var sink = Sink.Configuration(bind: workers.results, coordinator: { workers.jobs }, database: store)
                sink.key = key
                sink.log = log
                sink.observeStore = observeStore
                sink.written = { results, stored in streamed.update { $0.add(results, stored: stored) } }
                try Sink.run(sink, context: context, stop: stopSink, counters: sinkCounters, bound: { _ in })
            } catch {
                sinkFailure.update { $0 = "\(error)" }
            }
        }
        sinkThread.start()
        defer {
            stopSink.stop()
            // A sink stuck in a store call (a hung disk, a server that stopped answering)
            // must not hold the batch past its own stop: the coordinator has already given its
            // reason. Its context is then left open, since terminating it would wait for the
            // sink's socket; the process is about to exit.
            if waitForExit(of: sinkThread, limit: sinkJoinLimit) {
                context.terminate()
            } else {
                log("the in-process sink is still in a store call \(Int(Double(seconds: sinkJoinLimit))) s after the batch stopped: not waiting for it")
            }
        }

        let clock = ContinuousClock()
        let started = clock.now
        var supervisorGaveUp: String?
        var coordinator = Coordinator.Configuration(bind: workers.jobs, sink: { workers.results }, machine: configuration)
        coordinator.log = log
        let final = try Coordinator.run(
            reader, coordinator, context: context, stop: stop, bound: { _ in }, workersGone: { workers.supervisor.allExited },
            progress: { state in
                progress(state, sinkCounters.current)
                if !state.complete, let reason = workers.supervisor.check() {
                    supervisorGaveUp = reason
                    stop.stop()
                }
                if sinkFailure.current != nil { stop.stop() }
            })
        let seconds = Double(seconds: started.duration(to: clock.now))
        // Drained workers exit by themselves; otherwise (a refusal, a stop) they are told to.
        workers.stop(signal: final.stop == .complete ? nil : SIGTERM)
        workersStopped = true
        if let failure = sinkFailure.current { throw ClusterError("the sink failed: \(failure)") }
        if let supervisorGaveUp {
            throw ClusterError("""
                \(supervisorGaveUp) \(final.progress.done) jobs are stored; running the same command with \
                --batch \(configuration.batch) resumes.
                """)
        }
        switch final.stop {
        case .inputChanged(let reason)?: throw ClusterError(reason)
        case .sinkStopped?, .sinkSilent?: throw ClusterError(final.stop!.description)
        case .complete?, nil: break
        }
        return Outcome(
            progress: final.progress, sink: sinkCounters.current, seconds: seconds, workerRestarts: workers.supervisor.restarts,
            streamed: streamed.current)
    }
}

/// Whether `thread` finished within `limit`.
func waitForExit(of thread: Thread, limit: Duration) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !thread.isFinished {
        guard clock.now < deadline else { return false }
        usleep(10_000)
    }
    return true
}

extension WorkerIdentity {
    /// This process, as it signs the results it reports itself.
    public static var thisProcess: WorkerIdentity {
        WorkerIdentity(host: ProcessInfo.processInfo.hostName, pid: Int(getpid()))
    }
}
