// One run of an outside solver's command: started through /bin/sh -c under a watchdog that
// leads its own process group (CProcessControl: the group dies with the worker), given its
// input, read, timed and reaped. The group is killed when the run ends, however it ends, so a
// solver's background children do not outlive its puzzle; so is a run that prints more than an
// answer.
//
// Measured, and held to the job's CPU and memory limits, as one tree: in control groups of its
// own where the worker can make them (SolverCgroup: the kernel counts every descendant, and
// kills at the memory limit), else by sampling its process group in /proc every 20 ms
// (ProcessGroupSample) beside wait4's resource usage (the CPU time of the shell and every
// descendant it waited for, the largest resident set among them). A tree over its CPU limit
// is killed at the next look, within 20 ms.

import CProcessControl
import Foundation
import GridlockWire
import Synchronization

public struct ExternalProcess: Sendable {
    public var command: String
    /// Added to the worker's own environment.
    public var environment: [String: String] = [:]
    /// The most of standard output kept; more is an error (an answer is a line of moves).
    public var maximumOutputBytes = 1 << 20
    /// The most of standard error kept, for the message when the solver fails.
    public var maximumErrorBytes = 2_048

    public init(command: String, environment: [String: String] = [:]) {
        self.command = command
        self.environment = environment
    }

    /// How the run ended.
    public enum Ending: Sendable, Hashable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed at its deadline.
        case timedOut
        /// Killed past its CPU limit, or (by the kernel or at a sample) at its memory limit.
        case overLimit(LimitKind)
    }

    public enum LimitKind: Sendable, Hashable {
        case cpu, memory
    }

    public struct Run: Sendable {
        public var ending: Ending
        public var output: [UInt8]
        /// More output came than `maximumOutputBytes`.
        public var outputOverflowed: Bool
        public var errorOutput: [UInt8]
        public var wallSeconds: Double
        public var cpuSeconds: Double
        public var peakRSSBytes: Int
    }

    public struct StartFailure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Runs the command with `input` on standard input until it exits, `deadline` passes or
    /// it passes one of `limits`.
    public func run(input: [UInt8], deadline: ContinuousClock.Instant?, limits: JobLimits = JobLimits()) throws(StartFailure) -> Run {
        let clock = ContinuousClock()
        let start = clock.now
        _ = Self.ignoreBrokenPipes
        _ = Self.reapOrphans
        let inputPipe = try Self.pipe()
        let outputPipe: (read: Int32, write: Int32), errorPipe: (read: Int32, write: Int32)
        do {
            outputPipe = try Self.pipe()
        } catch {
            for descriptor in [inputPipe.read, inputPipe.write] { close(descriptor) }
            throw error
        }
        do {
            errorPipe = try Self.pipe()
        } catch {
            for descriptor in [inputPipe.read, inputPipe.write, outputPipe.read, outputPipe.write] { close(descriptor) }
            throw error
        }
        // Where the watchdog reports the shell's usage; without it, wait4's figures stand.
        let usagePipe = try? Self.pipe()
        // A solver that never reads must not block us in write(2).
        _ = fcntl(inputPipe.write, F_SETFL, fcntl(inputPipe.write, F_GETFL) | O_NONBLOCK)
        let environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let cgroup = SolverCgroup.available ? SolverCgroup(memoryLimitBytes: limits.memoryBytes) : nil
        let pid = Self.withCStrings(environment) { environmentPointers in
            let procs = cgroup?.procs ?? []
            return gridlock_spawn_shell(
                command, environmentPointers, inputPipe.read, outputPipe.write, errorPipe.write, procs, Int32(procs.count), usagePipe?.write ?? -1)
        }
        let spawnError = errno
        defer {
            cgroup?.remove()
            if let usagePipe { close(usagePipe.read) }
        }
        for descriptor in [inputPipe.read, outputPipe.write, errorPipe.write, usagePipe?.write ?? -1] where descriptor >= 0 { close(descriptor) }
        guard pid > 0 else {
            for descriptor in [inputPipe.write, outputPipe.read, errorPipe.read] { close(descriptor) }
            throw StartFailure(description: "cannot start /bin/sh for the solver: \(String(cString: strerror(spawnError)))")
        }
        // Whatever happens below, the group dies and the leader is reaped.
        var reaped = false
        defer {
            if !reaped {
                kill(-pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
        }
        var streams = Streams(
            input: inputPipe.write, pending: input[...], output: outputPipe.read, error: errorPipe.read,
            maximumOutputBytes: maximumOutputBytes, maximumErrorBytes: maximumErrorBytes)
        var watch = TreeWatch(limits: limits, watchdog: pid, cgroup: cgroup)
        var timedOut = !streams.pump(until: deadline, clock: clock, leaderExited: { Self.hasExited(pid) }, overLimit: { watch.overLimit() })
        streams.closeAll()
        // The output is closed: wait for the leader to exit, without reaping it, so that its
        // group's id cannot be reused before the group is killed.
        if !timedOut, !streams.outputOverflowed {
            timedOut = !Self.waitForExit(pid, until: deadline, clock: clock) { watch.overLimit() }
        }
        kill(-pid, SIGKILL)
        // What is left of the tree outside the group (setsid) is in the control group.
        cgroup?.killMembers()
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        reaped = true
        Self.reapGroup(pid, clock: clock)
        if Self.reapsEveryChild.load(ordering: .relaxed) { Self.killEscapedDescendants() }
        let wall = Double(seconds: start.duration(to: clock.now))
        // The shell's tree as the watchdog waited for it (the watchdog itself, a fork of this
        // process, is no part of the solver); wait4's figures where it could not say (killed).
        let waited = usagePipe.flatMap { Self.readUsage($0.read) }
            ?? (cpu: usage.ru_utime.seconds + usage.ru_stime.seconds, peak: usage.ru_maxrss * 1024)
        let cpu = cgroup?.cpuSeconds ?? max(waited.cpu, watch.sampled.cpuSeconds)
        let peak = cgroup?.peakBytes ?? max(waited.peak, watch.sampled.residentBytes)
        // A tree that went over its CPU limit between two looks, and finished before the next,
        // is over it all the same.
        watch.judgeFinal(cpuSeconds: cpu)
        let ending: Ending = if let hit = watch.hit { .overLimit(hit) } else if timedOut { .timedOut }
            else if status & 0x7f == 0 { .exited((status >> 8) & 0xff) } else { .signalled(status & 0x7f) }
        return Run(
            ending: ending, output: streams.output, outputOverflowed: streams.outputOverflowed, errorOutput: streams.errorOutput,
            wallSeconds: wall, cpuSeconds: cpu, peakRSSBytes: peak)
    }

    /// What the watchdog wrote of the shell's usage: peak kilobytes and CPU microseconds.
    private static func readUsage(_ descriptor: Int32) -> (cpu: Double, peak: Int)? {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var report: (Int64, Int64) = (0, 0)
        let count = withUnsafeMutableBytes(of: &report) { read(descriptor, $0.baseAddress, $0.count) }
        guard count == MemoryLayout<(Int64, Int64)>.size, report.0 >= 0, report.1 >= 0 else { return nil }
        return (Double(report.1) / 1e6, Int(report.0) * 1024)
    }

    /// Every child of this process left after a run is an escaped descendant of its solver
    /// (setsid, then orphaned to us as its reaper): killed and reaped, again until none is
    /// left, since killing one orphans its own children to us just after the look.
    static func killEscapedDescendants() {
        for _ in 0..<20 {
            // The serving solvers' watchdogs are children too, and no one's escapees.
            let servers = ExternalServer.running.withLock { $0 }
            let children = ProcessGroupSample.children(of: getpid()).filter { !servers.contains($0) }
            if children.isEmpty { break }
            for child in children {
                kill(child, SIGKILL)
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0, errno == EINTR {}
            }
        }
    }

    /// A pipe whose ends are 3 or more (so the child's dup2 onto 0-2 never clobbers one) and
    /// close on exec (so no other job's solver inherits them).
    static func pipe() throws(StartFailure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard gridlock_pipe_close_on_exec(&ends) == 0 else {
            throw StartFailure(description: "cannot make a pipe for the solver: \(String(cString: strerror(errno)))")
        }
        for index in 0..<2 where ends[index] < 3 {
            let moved = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
            close(ends[index])
            ends[index] = moved
        }
        guard ends[0] >= 3, ends[1] >= 3 else {
            for end in ends where end >= 0 { close(end) }
            throw StartFailure(description: "cannot make a pipe for the solver: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }

    /// Writing to a solver that has gone raises SIGPIPE, which would kill the worker: ignored
    /// once, process-wide (write then fails with EPIPE, which the pump expects).
    static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// The solver's children, killed with its group, become ours when it dies, and are reaped
    /// here: otherwise each would stay a zombie wherever the init process does not reap.
    static let reapOrphans: Void = { _ = gridlock_become_subreaper() }()

    /// Whether this process has no children but its solvers (a worker, `solve`): then every
    /// child left after a run, a solver's escaped descendant (setsid), is killed and reaped.
    /// Off elsewhere, where another child may be no solver's.
    public static let reapsEveryChild = Atomic<Bool>(false)

    /// Reaps what is left of the killed group `leader` (its orphans, now ours), for up to
    /// 100 ms: SIGKILL takes effect at once but the exit is not instant. Only that group's
    /// processes are waited for, never another child of this process.
    private static func reapGroup(_ leader: pid_t, clock: ContinuousClock) {
        let until = clock.now.advanced(by: .milliseconds(100))
        var status: Int32 = 0
        while clock.now < until {
            let reaped = waitpid(-leader, &status, WNOHANG)
            if reaped < 0, errno != EINTR { return }
            if reaped == 0 { usleep(1_000) }
        }
    }

    /// Whether `pid` has exited, without reaping it.
    static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        let code = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG)
        return (code == 0 && info._sifields._sigchld.si_pid == pid) || (code < 0 && errno != EINTR)
    }

    /// Waits (without reaping) until `pid` exits; false when the deadline passed first, or the
    /// tree went over a limit.
    private static func waitForExit(
        _ pid: pid_t, until deadline: ContinuousClock.Instant?, clock: ContinuousClock, overLimit: () -> Bool
    ) -> Bool {
        var delay: UInt32 = 50
        var lastLook = clock.now
        while true {
            if hasExited(pid) { return true }
            if let deadline, clock.now >= deadline { return false }
            if lastLook.duration(to: clock.now) >= .milliseconds(20) {
                if overLimit() { return false }
                lastLook = clock.now
            }
            usleep(delay)
            delay = min(delay * 2, 5_000)
        }
    }

    static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The child's three streams, pumped with poll: the input written as the child takes it (a
/// solver that prints before it reads never deadlocks against us), both outputs read as they
/// come, each kept up to its bound.
private struct Streams {
    var input: Int32
    var pending: ArraySlice<UInt8>
    var outputDescriptor: Int32
    var errorDescriptor: Int32
    let maximumOutputBytes: Int
    let maximumErrorBytes: Int
    var output: [UInt8] = []
    var outputOverflowed = false
    var errorOutput: [UInt8] = []

    init(input: Int32, pending: ArraySlice<UInt8>, output: Int32, error: Int32, maximumOutputBytes: Int, maximumErrorBytes: Int) {
        self.input = input
        self.pending = pending
        outputDescriptor = output
        errorDescriptor = error
        self.maximumOutputBytes = maximumOutputBytes
        self.maximumErrorBytes = maximumErrorBytes
        if pending.isEmpty { closeInput() }
    }

    /// Until both outputs end (true), or the deadline passes or the tree is `overLimit` (false),
    /// both looked at every 20 ms. Once `leaderExited`, what
    /// is waiting is read and the rest let go: a background child of the solver may hold the
    /// pipes open for ever, and the group is killed next.
    mutating func pump(
        until deadline: ContinuousClock.Instant?, clock: ContinuousClock, leaderExited: () -> Bool, overLimit: () -> Bool
    ) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var draining = false
        var lastLook = clock.now
        while outputDescriptor >= 0 || errorDescriptor >= 0 {
            var descriptors = [
                pollfd(fd: input, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errorDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            // Look at the leader every 20 ms: it may have gone while a child holds the pipes.
            var timeout: Int32 = draining ? 0 : 20
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return false }
                // Rounded up to a whole millisecond: a shorter wait would spin. (Compared as a
                // Double: a deadline days away is past Int32's milliseconds.)
                timeout = Int32(min(Double(timeout), Double(seconds: left) * 1_000 + 1))
            }
            let ready = poll(&descriptors, 3, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return true
            }
            if ready == 0 || lastLook.duration(to: clock.now) > .milliseconds(20) {
                if draining { return true }
                if overLimit() { return false }
                draining = leaderExited()
                lastLook = clock.now
                if ready == 0 { continue }
            }
            if descriptors[0].revents != 0 { writeInput() }
            if descriptors[1].revents != 0 { readOutput(into: &buffer) }
            // More than an answer: stop reading; the group is killed next.
            if outputOverflowed { return true }
            if descriptors[2].revents != 0 { readErrors(into: &buffer) }
        }
        return true
    }

    private mutating func writeInput() {
        let written = pending.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        if written > 0 {
            pending = pending.dropFirst(written)
            if pending.isEmpty { closeInput() }
        } else if written < 0, errno != EINTR, errno != EAGAIN {
            // The solver closed its input (EPIPE): it read what it wanted.
            closeInput()
        }
    }

    private mutating func readOutput(into buffer: inout [UInt8]) {
        let count = buffer.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            let room = max(0, maximumOutputBytes - output.count)
            output += buffer[0..<min(count, room)]
            if count > room { outputOverflowed = true }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            close(outputDescriptor)
            outputDescriptor = -1
        }
    }

    private mutating func readErrors(into buffer: inout [UInt8]) {
        let count = buffer.withUnsafeMutableBytes { read(errorDescriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            errorOutput += buffer[0..<min(count, max(0, maximumErrorBytes - errorOutput.count))]
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            close(errorDescriptor)
            errorDescriptor = -1
        }
    }

    private mutating func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    mutating func closeAll() {
        closeInput()
        for descriptor in [outputDescriptor, errorDescriptor] where descriptor >= 0 { close(descriptor) }
        outputDescriptor = -1
        errorDescriptor = -1
    }
}

extension timeval {
    var seconds: Double { Double(tv_sec) + Double(tv_usec) / 1_000_000 }
}
