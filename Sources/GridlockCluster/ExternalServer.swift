// A serving outside solver (`--external-serve KIND:NAME=COMMAND`): one long-lived process per
// worker process and solver, started as ExternalProcess starts one (/bin/sh -c under a watchdog
// that leads its own process group, in control groups of its own where the worker can make
// them), handed one puzzle a line on standard input, answering one JSON line each.
//
// Each answer is timed from the puzzle's first byte written to the answer's newline, and the
// tree's CPU time and peak memory measured over it: with control groups, `cpuacct.usage` read
// before and after, `memory.max_usage_in_bytes` reset before (the kernel still holds the memory
// limit); without, the tree's processes read from /proc (their stat, and VmHWM reset through
// `clear_refs`), the tree itself looked for again after a job of 20 ms or more, or every 256
// jobs, since a look at all of /proc costs about a millisecond.
//
// A new server is given its first puzzle once it has used no CPU for 30 ms (it waits for
// input): its start is no part of a puzzle's time.
//
// A server that dies, overruns a job's deadline or a limit, or prints a line longer than an
// answer is killed, its whole tree, and the next job starts a new one: a job is never answered
// by a server that may still be busy with the last. What it printed between two jobs is no
// answer to the next, and is dropped before each puzzle is sent.

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
    /// How many times the server was started: the first, and one for each restart.
    private(set) var starts = 0

    /// The watchdog that leads the server's process group; -1 while none runs.
    private var watchdog: pid_t = -1
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var errors: Int32 = -1
    private var cgroup: SolverCgroup?
    /// The tree's processes, without control groups, and when they were last looked for.
    private var members: [pid_t] = []
    private var jobsSinceLook = 0
    private var lastJobWasLong = true
    /// One job at a time: a server answers its puzzles in order.
    private let lock = NSRecursiveLock()

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
        if watchdog > 0, ExternalProcess.hasExited(watchdog) { stop() }
        var deadline = deadline
        if watchdog <= 0 {
            // Its start is no part of the puzzle's time, nor of its time limit.
            let starting = clock.now
            try start()
            deadline = deadline.map { $0 + starting.duration(to: clock.now) }
        }
        dropStaleOutput()
        let start = clock.now
        var meter = Meter(server: self, limits: limits)
        var exchange = Exchange(pending: line[...], maximumLineBytes: maximumLineBytes, maximumErrorBytes: maximumErrorBytes)
        let ending = exchange.pump(input: input, output: output, errors: errors, until: deadline, clock: clock) {
            if ExternalProcess.hasExited(self.watchdog) { return .died }
            return meter.overLimit() ? .overLimit : nil
        }
        let wall = Double(seconds: start.duration(to: clock.now))
        var run = ExternalProcess.Run(
            ending: .exited(0), output: exchange.answer, outputOverflowed: false, errorOutput: exchange.errorOutput, wallSeconds: wall,
            cpuSeconds: 0, peakRSSBytes: 0)
        switch ending {
        case .answered:
            (run.cpuSeconds, run.peakRSSBytes) = meter.finish()
            lastJobWasLong = wall >= 0.02
            // Answered, but past its CPU limit between two looks: a timeout all the same.
            if let limit = limits.cpuSeconds, run.cpuSeconds >= limit { run.ending = .overLimit(.cpu) }
            if meter.oomKilled { run.ending = .overLimit(.memory) }
            return run
        case .tooLong:
            run.outputOverflowed = true
            run.output = Array(run.output.prefix(maximumLineBytes))
        case .timedOut:
            run.ending = .timedOut
        case .overLimit, .died:
            break
        }
        (run.cpuSeconds, run.peakRSSBytes) = meter.finish()
        let status = stop()
        if ending == .overLimit || meter.oomKilled {
            run.ending = .overLimit(meter.hit ?? .memory)
        } else if ending == .died, let status {
            run.ending = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
            // A server that exits cleanly before answering gave no answer.
            if run.ending == .exited(0) { run.output = [] }
        }
        return run
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
        (input, output, errors) = (inputPipe.write, outputPipe.read, errorPipe.read)
        members = []
        lastJobWasLong = true
        starts += 1
        settle()
    }

    /// Waits, up to 10 s, until the new server has used no CPU for 30 ms: it has started and
    /// waits for its first puzzle. Its start (an interpreter's, a JVM's) is then no part of the
    /// first puzzle's time, and cannot put it past a tight limit, which would restart it again
    /// at every puzzle.
    private func settle() {
        func cpuSeconds() -> Double {
            if let cgroup { return cgroup.cpuSeconds }
            return ProcessGroupSample.members(tree: watchdog).compactMap { ProcessGroupSample.usage(of: $0)?.cpuSeconds }.reduce(0, +)
        }
        let clock = ContinuousClock()
        let until = clock.now.advanced(by: .seconds(10))
        var last = cpuSeconds()
        var quietLooks = 0
        while quietLooks < 3, clock.now < until, !ExternalProcess.hasExited(watchdog) {
            usleep(10_000)
            let now = cpuSeconds()
            quietLooks = now == last ? quietLooks + 1 : 0
            last = now
        }
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
        if let cgroup { for member in SolverCgroup.pids(in: cgroup.memory) { kill(member, SIGKILL) } }
        var status: Int32 = 0
        while waitpid(watchdog, &status, 0) < 0, errno == EINTR {}
        // The group's orphans, now ours, reaped; escaped ones killed where only solvers are ours.
        while waitpid(-watchdog, nil, WNOHANG) > 0 {}
        if ExternalProcess.reapsEveryChild.load(ordering: .relaxed) { ExternalProcess.killEscapedDescendants() }
        cgroup?.remove()
        cgroup = nil
        watchdog = -1
        members = []
        return status
    }

    /// What the server printed since its last answer: read and let go.
    private func dropStaleOutput() {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        for descriptor in [output, errors] {
            while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        }
    }

    /// The tree's CPU time and peak memory over one job, and whether it passed a limit.
    private struct Meter {
        let limits: JobLimits
        let cgroup: SolverCgroup?
        let members: [pid_t]
        let cpuAtStart: Double
        let oomKillsAtStart: Int
        private(set) var hit: ExternalProcess.LimitKind?
        private var peakSampled = 0

        init(server: ExternalServer, limits: JobLimits) {
            self.limits = limits
            cgroup = server.cgroup
            if let cgroup {
                cgroup.resetPeak()
                members = []
                cpuAtStart = cgroup.cpuSeconds
                oomKillsAtStart = limits.memoryBytes == nil ? 0 : cgroup.oomKills
            } else {
                if server.members.isEmpty || server.lastJobWasLong || server.jobsSinceLook >= 256 {
                    server.members = ProcessGroupSample.members(tree: server.watchdog)
                    server.jobsSinceLook = 0
                }
                server.jobsSinceLook += 1
                members = server.members
                for member in members { Self.resetPeak(of: member) }
                cpuAtStart = members.compactMap { ProcessGroupSample.usage(of: $0)?.cpuSeconds }.reduce(0, +)
                oomKillsAtStart = 0
            }
        }

        var oomKilled: Bool { hit == .memory }

        /// Looked at every 20 ms while the server works.
        mutating func overLimit() -> Bool {
            if hit != nil { return true }
            guard !limits.isEmpty else { return false }
            let (cpu, resident) = current()
            if let cgroup, limits.memoryBytes != nil, cgroup.oomKills > oomKillsAtStart { hit = .memory }
            if cgroup == nil, let memory = limits.memoryBytes, resident >= memory { hit = .memory }
            if hit == nil, let limit = limits.cpuSeconds, cpu >= limit { hit = .cpu }
            return hit != nil
        }

        /// The job's CPU seconds and peak bytes.
        mutating func finish() -> (cpu: Double, peak: Int) {
            if let cgroup, limits.memoryBytes != nil, cgroup.oomKills > oomKillsAtStart { hit = .memory }
            let cpu = current().cpu
            if let cgroup { return (cpu, cgroup.peakBytes) }
            let marks = members.map(Self.highWaterMark(of:)).reduce(0, +)
            return (cpu, max(marks, peakSampled))
        }

        /// CPU seconds since the job began, and the tree's resident bytes now (without
        /// control groups: with them the kernel holds the memory limit).
        private mutating func current() -> (cpu: Double, resident: Int) {
            if let cgroup { return (max(0, cgroup.cpuSeconds - cpuAtStart), 0) }
            let usages = members.compactMap(ProcessGroupSample.usage(of:))
            let resident = usages.map(\.residentBytes).reduce(0, +)
            peakSampled = max(peakSampled, resident)
            return (max(0, usages.map(\.cpuSeconds).reduce(0, +) - cpuAtStart), resident)
        }

        private static func resetPeak(of pid: pid_t) {
            let descriptor = open("/proc/\(pid)/clear_refs", O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            _ = write(descriptor, "5", 1)
            close(descriptor)
        }

        /// A process's VmHWM, in bytes; 0 once it has ended.
        private static func highWaterMark(of pid: pid_t) -> Int {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
    }
}

/// One puzzle's exchange with a server: the line written as it takes it, its output read up to
/// the answer's newline, its standard error kept up to a bound.
private struct Exchange {
    enum Ending { case answered, tooLong, timedOut, overLimit, died }

    var pending: ArraySlice<UInt8>
    let maximumLineBytes: Int
    let maximumErrorBytes: Int
    var answer: [UInt8] = []
    var errorOutput: [UInt8] = []

    init(pending: ArraySlice<UInt8>, maximumLineBytes: Int, maximumErrorBytes: Int) {
        self.pending = pending
        self.maximumLineBytes = maximumLineBytes
        self.maximumErrorBytes = maximumErrorBytes
    }

    /// Until the answer's newline, the deadline, or what `look` (every 20 ms) says ended it.
    mutating func pump(
        input: Int32, output: Int32, errors: Int32, until deadline: ContinuousClock.Instant?, clock: ContinuousClock, look: () -> Ending?
    ) -> Ending {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var lastLook = clock.now
        var outputOpen = true
        var errorsOpen = true
        while true {
            var descriptors = [
                pollfd(fd: pending.isEmpty ? -1 : input, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: outputOpen ? output : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorsOpen ? errors : -1, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int32 = 20
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return .timedOut }
                timeout = Int32(min(Double(timeout), Double(seconds: left) * 1_000 + 1))
            }
            let ready = poll(&descriptors, 3, timeout)
            if ready < 0, errno != EINTR { return .died }
            if ready <= 0 || lastLook.duration(to: clock.now) >= .milliseconds(20) {
                if let ending = look() { return ending }
                lastLook = clock.now
                if ready <= 0 { continue }
            }
            if descriptors[0].revents != 0 {
                let written = pending.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
                if written > 0 {
                    pending = pending.dropFirst(written)
                } else if written < 0, errno != EINTR, errno != EAGAIN {
                    // It closed its input: it will answer no more puzzles.
                    return .died
                }
            }
            if descriptors[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count > 0 {
                    if let newline = buffer[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                        answer += buffer[0..<newline]
                        // What follows the newline is no answer to this puzzle; the next job drops it.
                        return answer.count > maximumLineBytes ? .tooLong : .answered
                    }
                    answer += buffer[0..<count]
                    if answer.count > maximumLineBytes { return .tooLong }
                } else if count == 0 {
                    // End of output: it is ending; the next look says how.
                    outputOpen = false
                } else if errno != EINTR, errno != EAGAIN {
                    outputOpen = false
                }
            }
            if descriptors[2].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
                if count > 0 {
                    errorOutput += buffer[0..<min(count, max(0, maximumErrorBytes - errorOutput.count))]
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    errorsOpen = false
                }
            }
        }
    }
}

/// The serving solvers of this process, one server per solver, started at its first puzzle and
/// kept for the next; a puzzle that needs another environment (a tile board's goal) or memory
/// limit restarts it with them.
public enum ExternalServers {
    private final class Servers: @unchecked Sendable {
        var byName: [String: ExternalServer] = [:]
    }

    private static let servers = Mutex(Servers())

    static func answer(
        _ solver: ExternalSolver, puzzle: ParsedPuzzle, deadline: ContinuousClock.Instant?, limits: JobLimits
    ) throws(ExternalProcess.StartFailure) -> ExternalProcess.Run {
        let environment = puzzle.externalEnvironment
        let server = servers.withLock { servers in
            let key = solver.kind.rawValue + ":" + solver.name
            if let server = servers.byName[key], server.solver == solver, server.environment == environment,
               server.memoryLimitBytes == limits.memoryBytes {
                return server
            }
            let server = ExternalServer(solver: solver, environment: environment, memoryLimitBytes: limits.memoryBytes)
            servers.byName[key]?.stop()
            servers.byName[key] = server
            return server
        }
        return try server.answer(Array(puzzle.externalLine.utf8), deadline: deadline, limits: limits)
    }

    /// Every server stopped (a worker's or `solve`'s end), its control groups removed.
    public static func stopAll() {
        servers.withLock { servers in
            for server in servers.byName.values { server.stop() }
            servers.byName = [:]
        }
    }
}
