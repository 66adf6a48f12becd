// A serving outside solver (`--external-serve KIND:NAME=COMMAND`): one long-lived process per
// worker process and solver, started as ExternalProcess starts one (/bin/sh -c under a watchdog
// that leads its own process group, in control groups of its own where the worker can make
// them), handed one puzzle a line on standard input, answering one JSON line each.
//
// The clock starts when the puzzle is written, or, for a server just started, when it has read
// it (the pipe is empty): its start, an interpreter loading or a runtime's threads, is no part
// of any puzzle's time or limit, however long it takes up to `startAllowance`. What the tree
// uses is measured over each answer (ExternalServer+Meter.swift).
//
// A server is replaced, its whole tree killed, when it dies, overruns a job's deadline or a
// limit, prints a line longer than an answer, or goes out of step: it printed more than one
// line for a puzzle, or something between two puzzles, or an answer that was no answer or a
// wrong one (after which its next line may answer the last puzzle, not the next). A server that
// ended before it read a puzzle (one that exits after each answer) gets the puzzle again, once,
// from a new one.

import CProcessControl
import Foundation
import GridlockCore
import GridlockWire
import Synchronization

final class ExternalServer {
    let solver: ExternalSolver
    let environment: [String: String]
    let memoryLimitBytes: Int?
    /// The longest answer line, as an answer's output in exec mode.
    var maximumLineBytes = 1 << 20
    var maximumErrorBytes = 2_048
    /// How long a new server may take to read its first puzzle (the coordinator allows for it).
    static let startAllowance = CoordinatorMachine.Configuration.serverStartAllowance
    /// Set when the server's next line may not answer the next puzzle: it is replaced first.
    var outOfStep = false

    /// The watchdog that leads the server's process group; -1 while none runs.
    private(set) var watchdog: pid_t = -1
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var errors: Int32 = -1
    private(set) var cgroup: SolverCgroup?
    /// The tree's processes, without control groups, and when they were last looked for
    /// (ExternalServer+Meter.swift).
    var members: [pid_t] = []
    var jobsSinceLook = 0
    var lastJobWasLong = true
    /// One job at a time: a server answers its puzzles in order.
    private let lock = NSRecursiveLock()

    /// The watchdogs of every running server of this process: children of the worker that the
    /// clean-up after an exec-mode run (ExternalProcess.killEscapedDescendants) must spare.
    static let running = Mutex<Set<pid_t>>([])

    init(solver: ExternalSolver, environment: [String: String], memoryLimitBytes: Int?) {
        self.solver = solver
        self.environment = environment
        self.memoryLimitBytes = memoryLimitBytes
    }

    deinit { stop() }

    /// Sends `line` (one puzzle, ended by a newline) and reads the answer line, starting the
    /// server first if none runs.
    func answer(_ line: [UInt8], deadline: ContinuousClock.Instant?, limits: JobLimits) throws(ExternalProcess.StartFailure) -> ExternalProcess.Run {
        lock.lock()
        defer { lock.unlock() }
        let clock = ContinuousClock()
        let asked = clock.now
        var attempt = 0
        while true {
            attempt += 1
            if watchdog > 0, outOfStep || ExternalProcess.hasExited(watchdog) || hasStaleOutput() { stop() }
            var fresh = false
            if watchdog <= 0 {
                try start()
                fresh = true
            }
            var exchange = Exchange(pending: line[...], maximumLineBytes: maximumLineBytes, maximumErrorBytes: maximumErrorBytes)
            // Read before the write: the write wakes the server, which may take this thread's
            // core for a while before the clock would be read.
            var started = clock.now
            exchange.write(to: input)
            var deadline = deadline
            if fresh {
                guard let read = waitUntilRead(&exchange, clock: clock) else {
                    if ExternalProcess.hasExited(watchdog) { return died(exchange, started: clock.now, clock: clock, meter: nil) }
                    stop()
                    throw ExternalProcess.StartFailure(
                        description: "\(solver.name) was started \(Self.startAllowance) ago and has not read its first puzzle: a serving solver reads a puzzle a line")
                }
                started = read
                deadline = deadline.map { $0 + asked.duration(to: read) }
            }
            let (run, diedUnread) = converse(&exchange, started: started, deadline: deadline, limits: limits, clock: clock)
            // A server on its way out (one that exits after each answer) ended before it read
            // the puzzle: a new one gets it, once.
            if diedUnread, !fresh, attempt == 1 { continue }
            return run
        }
    }

    /// One puzzle, written, answered or not: the run as ExternalProcess reports one, and whether
    /// the server ended before it read the puzzle.
    private func converse(
        _ exchange: inout Exchange, started start: ContinuousClock.Instant, deadline: ContinuousClock.Instant?, limits: JobLimits,
        clock: ContinuousClock
    ) -> (run: ExternalProcess.Run, diedUnread: Bool) {
        var meter = Meter(server: self, limits: limits)
        let ending = exchange.pump(input: input, output: output, errors: errors, until: deadline, clock: clock) {
            if ExternalProcess.hasExited(self.watchdog) { return .died }
            return meter.overLimit() ? .overLimit : nil
        }
        if exchange.trailing { outOfStep = true }
        let wall = Double(seconds: start.duration(to: clock.now))
        var run = ExternalProcess.Run(
            ending: .exited(0), output: exchange.answer, outputOverflowed: false, errorOutput: exchange.errorOutput, wallSeconds: wall,
            cpuSeconds: 0, peakRSSBytes: 0)
        switch ending {
        case .answered:
            (run.cpuSeconds, run.peakRSSBytes) = meter.finish(wall: wall)
            lastJobWasLong = wall >= 0.02
            // Answered, but past its CPU limit between two looks: a timeout all the same.
            if let limit = limits.cpuSeconds, run.cpuSeconds >= limit { run.ending = .overLimit(.cpu) }
            if meter.oomKilled { run.ending = .overLimit(.memory) }
            return (run, false)
        case .died:
            let unread = !exchange.wasRead(input: input)
            return (died(exchange, started: start, clock: clock, meter: meter), unread)
        case .tooLong:
            run.outputOverflowed = true
            run.output = Array(run.output.prefix(maximumLineBytes))
        case .timedOut:
            run.ending = .timedOut
        case .overLimit:
            break
        }
        (run.cpuSeconds, run.peakRSSBytes) = meter.finish(wall: wall)
        stop()
        if ending == .overLimit || meter.oomKilled { run.ending = .overLimit(meter.hit ?? .memory) }
        return (run, false)
    }

    /// The run of a server that ended before it answered: its exit code or signal (a memout
    /// where the kernel killed it at the limit), and what it wrote to standard error.
    private func died(_ exchange: Exchange, started: ContinuousClock.Instant, clock: ContinuousClock, meter: Meter?) -> ExternalProcess.Run {
        var exchange = exchange
        exchange.drainErrors(errors)
        var meter = meter
        let measured = meter?.finish(wall: Double(seconds: started.duration(to: clock.now))) ?? (cpu: 0, peak: 0)
        let status = stop() ?? 0
        var ending: ExternalProcess.Ending = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        if meter?.oomKilled == true { ending = .overLimit(.memory) }
        return ExternalProcess.Run(
            ending: ending, output: ending == .exited(0) ? [] : exchange.answer, outputOverflowed: false, errorOutput: exchange.errorOutput,
            wallSeconds: Double(seconds: started.duration(to: clock.now)), cpuSeconds: measured.cpu, peakRSSBytes: measured.peak)
    }

    /// Waits until a new server has read its puzzle, and returns the last instant it was seen
    /// unread (so the clock starts at most one look early, never late: an answer is never
    /// timed shorter than it took); nil when the server ended or `startAllowance` passed first.
    /// Its standard error is read meanwhile, so that it cannot fill up.
    private func waitUntilRead(_ exchange: inout Exchange, clock: ContinuousClock) -> ContinuousClock.Instant? {
        let until = clock.now + Self.startAllowance
        var looks = 0
        while true {
            let unreadAt = clock.now
            exchange.write(to: input)
            if exchange.wasRead(input: input) { return unreadAt }
            if unreadAt > until || ExternalProcess.hasExited(watchdog) { return nil }
            exchange.drainErrors(errors)
            // Close looks at first (most servers read within milliseconds), then gentler ones.
            looks += 1
            if looks < 2_000 { sched_yield() } else { usleep(200) }
        }
    }

    private func start() throws(ExternalProcess.StartFailure) {
        _ = ExternalProcess.ignoreBrokenPipes
        _ = ExternalProcess.reapOrphans
        let inputPipe = try ExternalProcess.pipe()
        let outputPipe: (read: Int32, write: Int32), errorPipe: (read: Int32, write: Int32)
        do {
            outputPipe = try ExternalProcess.pipe()
        } catch {
            for descriptor in [inputPipe.read, inputPipe.write] { close(descriptor) }
            throw error
        }
        do {
            errorPipe = try ExternalProcess.pipe()
        } catch {
            for descriptor in [inputPipe.read, inputPipe.write, outputPipe.read, outputPipe.write] { close(descriptor) }
            throw error
        }
        for descriptor in [inputPipe.write, outputPipe.read, errorPipe.read] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        cgroup = SolverCgroup.available ? SolverCgroup(memoryLimitBytes: memoryLimitBytes) : nil
        let pid = ExternalProcess.withCStrings(variables) { pointers in
            let procs = cgroup?.procs ?? []
            return gridlock_spawn_shell(solver.command, pointers, inputPipe.read, outputPipe.write, errorPipe.write, procs, Int32(procs.count), -1)
        }
        let spawnError = errno
        for descriptor in [inputPipe.read, outputPipe.write, errorPipe.write] { close(descriptor) }
        guard pid > 0 else {
            for descriptor in [inputPipe.write, outputPipe.read, errorPipe.read] { close(descriptor) }
            cgroup?.remove()
            cgroup = nil
            throw ExternalProcess.StartFailure(description: "cannot start /bin/sh for the solver: \(String(cString: strerror(spawnError)))")
        }
        watchdog = pid
        Self.running.withLock { _ = $0.insert(pid) }
        (input, output, errors) = (inputPipe.write, outputPipe.read, errorPipe.read)
        members = []
        lastJobWasLong = true
        outOfStep = false
    }

    /// Kills the server's tree and reaps its watchdog; the watchdog's wait status, when there
    /// was one to reap.
    @discardableResult
    func stop() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        for descriptor in [input, output, errors] where descriptor >= 0 { close(descriptor) }
        (input, output, errors) = (-1, -1, -1)
        guard watchdog > 0 else { return nil }
        kill(-watchdog, SIGKILL)
        cgroup?.killMembers()
        var status: Int32 = 0
        while waitpid(watchdog, &status, 0) < 0, errno == EINTR {}
        let stopped = watchdog
        Self.running.withLock { _ = $0.remove(stopped) }
        // The group's orphans, now ours, reaped; escaped ones killed where only solvers are ours.
        while waitpid(-watchdog, nil, WNOHANG) > 0 {}
        if ExternalProcess.reapsEveryChild.load(ordering: .relaxed) { ExternalProcess.killEscapedDescendants() }
        cgroup?.remove()
        cgroup = nil
        watchdog = -1
        members = []
        return status
    }

    /// Whether the server printed anything since its last answer (read and let go): then it is
    /// out of step. Its standard error is let go too, but is no sign of it.
    private func hasStaleOutput() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var stale = false
        while buffer.withUnsafeMutableBytes({ read(output, $0.baseAddress, $0.count) }) > 0 { stale = true }
        while buffer.withUnsafeMutableBytes({ read(errors, $0.baseAddress, $0.count) }) > 0 {}
        return stale
    }
}
