// Worker processes started, watched and replaced: `gridlock batch` and `gridlock worker
// --workers N` keep N of them running until the work is done, restarting one that dies
// (RestartPolicy.swift says when to stop trying).

import CProcessControl
import Foundation

public final class WorkerSupervisor: @unchecked Sendable {
    public struct Child {
        var process: Process
        var started: ContinuousClock.Instant
        /// The child's standard input: this end is held open while this process lives, so the
        /// child reads end-of-file when it dies, however it dies (dieWithSupervisor).
        var lifeline: Pipe
        /// Which of the workers it is: a replacement takes its slot, and so its CPU.
        var slot: Int
    }

    private let executable: String
    private let arguments: [String]
    private let environment: [String: String]?
    /// Whether a worker that exits with status 0 is replaced (a batch's workers exit 0 only
    /// when drained; a pool's may exit 0 for good).
    private let replaceCleanExits: Bool
    private let lock = NSLock()
    private var children: [Child] = []
    private var pendingRestarts: [(due: ContinuousClock.Instant, slot: Int)] = []
    /// With --pin, each slot's CPU (CPUPlacement.plan): a worker gets `--cpu` and pins itself.
    private let cpus: [Int]
    private var policy: RestartPolicy
    private let clock = ContinuousClock()
    public private(set) var restarts = 0
    public private(set) var gaveUp: String?

    public init(
        executable: String, arguments: [String], environment: [String: String]? = nil, replaceCleanExits: Bool,
        policy: RestartPolicy = RestartPolicy(), cpus: [Int] = []
    ) {
        self.cpus = cpus
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.replaceCleanExits = replaceCleanExits
        self.policy = policy
    }

    /// Starts `count` workers.
    public func start(_ count: Int) throws {
        try lock.withLock {
            for slot in 0..<count { children.append(try spawn(slot: slot)) }
        }
    }

    /// Notices dead workers and starts their replacements when due. Returns the reason once it
    /// has given up.
    @discardableResult
    public func check() -> String? {
        lock.withLock {
            guard gaveUp == nil else { return gaveUp }
            let now = clock.now
            var alive: [Child] = []
            for child in children {
                if child.process.isRunning {
                    alive.append(child)
                    continue
                }
                guard replaces(child.process) else { continue }
                switch policy.died(after: child.started.duration(to: now), how: Self.describe(child.process)) {
                case .restart(let pause): pendingRestarts.append((now.advanced(by: pause), child.slot))
                case .giveUp(let reason):
                    gaveUp = reason
                    children = alive
                    return reason
                }
            }
            children = alive
            while let pending = pendingRestarts.first, pending.due <= now {
                pendingRestarts.removeFirst()
                if let child = try? spawn(slot: pending.slot) {
                    children.append(child)
                    restarts += 1
                }
            }
            return nil
        }
    }

    /// Workers running now.
    public var alive: Int {
        lock.withLock { children.filter { $0.process.isRunning }.count }
    }

    /// Whether every worker has exited and none is due to start (a local batch's coordinator
    /// then has no one left to tell it is drained). Workers killed a moment ago count as
    /// exited, though `check` would replace them: to know whether a pool is done, ask `isFinished`.
    public var allExited: Bool {
        lock.withLock { pendingRestarts.isEmpty && children.allSatisfy { !$0.process.isRunning } }
    }

    /// Whether the pool's work is over: every worker has exited in a way that is not replaced,
    /// and none is due to start. A worker that died and is not yet noticed by `check` keeps
    /// the pool going: with `allExited`, a pool whose two workers were killed within one
    /// check's interval exited 0, restarting neither, and its batch waited for ever.
    public var isFinished: Bool {
        lock.withLock {
            pendingRestarts.isEmpty && children.allSatisfy { !$0.process.isRunning && !replaces($0.process) }
        }
    }

    /// Whether a worker that exited as `process` did is started again.
    private func replaces(_ process: Process) -> Bool {
        let clean = process.terminationReason == .exit && process.terminationStatus == 0
        return !clean || replaceCleanExits
    }

    /// Waits up to `grace` for every worker to exit, then ends the rest with SIGTERM, then SIGKILL.
    public func stop(grace: Duration = .seconds(2), signal: Int32? = nil) {
        let processes = lock.withLock {
            pendingRestarts.removeAll()
            return children.map(\.process)
        }
        if let signal { for process in processes where process.isRunning { kill(process.processIdentifier, signal) } }
        let deadline = clock.now.advanced(by: grace)
        while processes.contains(where: \.isRunning), clock.now < deadline { usleep(10_000) }
        for process in processes where process.isRunning { process.terminate() }
        let killDeadline = clock.now.advanced(by: .seconds(2))
        while processes.contains(where: \.isRunning), clock.now < killDeadline { usleep(10_000) }
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in processes { process.waitUntilExit() }
    }

    private func spawn(slot: Int) throws -> Child {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + (cpus.isEmpty ? [] : ["--cpu", String(cpus[slot % cpus.count])])
        // The child stops when this process dies, however it dies (WorkerSupervisor.dieWithSupervisor).
        var environment = environment ?? ProcessInfo.processInfo.environment
        environment[Self.supervisorVariable] = String(getpid())
        process.environment = environment
        let lifeline = Pipe()
        process.standardInput = lifeline
        try process.run()
        try? lifeline.fileHandleForReading.close()
        return Child(process: process, started: clock.now, lifeline: lifeline, slot: slot)
    }

    static func describe(_ process: Process) -> String {
        process.terminationReason == .uncaughtSignal
            ? "killed by signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
    }

    static let supervisorVariable = "GRIDLOCK_SUPERVISOR_PID"

    /// Whether this process was started by a supervisor (a batch or a worker pool).
    public static var isSupervised: Bool { ProcessInfo.processInfo.environment[supervisorVariable] != nil }

    /// In a supervised child: asks the kernel for SIGTERM when the supervisor dies, so that a
    /// batch killed outright leaves no worker behind retrying its coordinator forever; and
    /// exits at once if the supervisor is already gone. Does nothing in a process started by hand.
    ///
    /// The parent-death signal alone is not enough: Linux sends it when the *thread* that
    /// spawned the child ends, not the process, and never if the parent died before the call.
    /// So the child also watches its standard input, a pipe whose other end only the
    /// supervisor holds: end-of-file there means the supervisor is gone, and `whenGone` runs
    /// (the child stops as SIGTERM would stop it, without a second signal).
    public static func dieWithSupervisor(whenGone: @escaping @Sendable () -> Void = { kill(getpid(), SIGTERM) }) {
        guard let value = ProcessInfo.processInfo.environment[supervisorVariable], let supervisor = Int32(value) else { return }
        _ = gridlock_signal_on_parent_death(SIGTERM)
        if getppid() != supervisor { exit(0) }
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        let watcher = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            whenGone()
        }
        watcher.start()
    }

    /// This executable's path, to start more of it.
    public static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
