// The limits every job runs under (issue 19): how they are written, carried and read, and the
// pure pieces of holding an outside solver's tree to them.

import Foundation
import GridlockClusterBase
import Testing
@testable import GridlockCluster
import GridlockCore
import GridlockWire

@Suite struct JobLimitsTests {
    @Test("sizes are read with their unit, powers of 1024; a bare number, zero, no number at all, or one that is not plain decimal (0x10M) is refused")
    func sizes() {
        #expect(ByteSize.parse("256M") == 256 << 20)
        #expect(ByteSize.parse("1.5G") == 3 << 29)
        #expect(ByteSize.parse("2GiB") == 2 << 30 && ByteSize.parse("512mb") == 512 << 20 && ByteSize.parse(" 4k ") == 4_096)
        for refused in ["256", "0M", "-1G", "infG", "nanM", "1e30T", "M", "2X", "1K", "", "256 M B", "0x10M", "1e3K", ".5G", "5.G", "1.2.3M", "+4M"] {
            #expect(ByteSize.parse(refused) == nil, "\(refused)")
        }
    }

    @Test("the config file refuses limits that would trap later: inf, 1e300, a size without a unit")
    func configBounds() throws {
        for line in ["job.timeout_s = inf", "job.time_limit_s = 1e300", "job.max_states = 1e300", "job.memory_limit = 256", "job.time_limit_s = 0"] {
            #expect(throws: ClusterConfig.Problem.self, "\(line)") { try ClusterConfig.parse(line, file: "c.conf") }
        }
        let config = try ClusterConfig.parse("job.time_limit_s = 2.5\njob.memory_limit = 2G\n", file: "c.conf")
        #expect(config.double("job.time_limit_s") == 2.5 && config.string("job.memory_limit") == "2G")
    }

    @Test("limits travel with the job, are part of its identity, and a limit of zero or no number is malformed")
    func wire() throws {
        let plain = Job(batch: "b", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil)
        let limited = Job(
            batch: "b", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil,
            limits: JobLimits(cpuSeconds: 1.5, memoryBytes: 256 << 20))
        // No limits add nothing: the fingerprints stored before limits existed stay valid.
        #expect(plain.fingerprint == JobFingerprint(kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil, options: JobReadOptions()))
        #expect(limited.fingerprint != plain.fingerprint)
        // So is a repetition past the first: every run of --repeats is a job of its own.
        let again = Job(batch: "b", id: 2, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil, repetition: 1)
        #expect(again.fingerprint != plain.fingerprint)
        for jobs in [[again], [limited, plain]] {
            let chunks = [JobChunk(id: ChunkID(1), jobs: jobs)]
            #expect(try WireMessage.decode(WireMessage.jobs(chunks).encoded()) == .jobs(chunks))
        }
        for limits in [JobLimits(cpuSeconds: 0), JobLimits(cpuSeconds: -1), JobLimits(cpuSeconds: .nan), JobLimits(cpuSeconds: .infinity), JobLimits(memoryBytes: 0), JobLimits(memoryBytes: -5)] {
            let job = Job(batch: "b", id: 1, attempt: 1, kind: .rushhour, puzzle: "p", solver: "bfs", maxStates: 9, timeoutSeconds: nil, limits: limits)
            #expect(throws: WireError.self, "\(limits)") { try WireMessage.decode(WireMessage.jobs([JobChunk(id: ChunkID(1), jobs: [job])]).encoded()) }
        }
    }

    @Test("a built-in search's memory limit lowers its budget; its CPU limit stops it after that much of the thread's CPU time")
    func builtInLimits() {
        let budget = JobRunner.limited(SolveOptions(memoryBudgetBytes: 1 << 30), by: JobLimits(memoryBytes: 1 << 20))
        #expect(budget.memoryBudgetBytes == 1 << 20)
        #expect(JobRunner.limited(SolveOptions(memoryBudgetBytes: 1 << 20), by: JobLimits(memoryBytes: 1 << 30)).memoryBudgetBytes == 1 << 20)
        let cpu = JobRunner.limited(SolveOptions(), by: JobLimits(cpuSeconds: 0.05))
        #expect(!cpu.isCancelled() && cpu.stopReason == .timeout)
        // Sleeping uses no CPU time: still not cancelled.
        usleep(80_000)
        #expect(!cpu.isCancelled())
        let start = ThreadClock.cpuSeconds()
        while ThreadClock.cpuSeconds() - start < 0.06 {}
        #expect(cpu.isCancelled())
        #expect(!JobRunner.limited(SolveOptions(), by: JobLimits()).isCancelled())
    }

    /// Unblock Me I-4 with its cluster of 58,419 boards: more than 50 ms of CPU for the
    /// reference solver. (bfs and bidirectional solve any Rush Hour board in about 10 ms of a
    /// release build, so they get a 15-puzzle scrambled by 60 moves: seconds and gigabytes.)
    static let slowBoard = "ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo"
    static let deepFifteen = "0 5 10 1 9 13 8 4 14 3 12 15 11 6 7 2"

    @Test("a CPU limit overshoots by at most 10 ms or 5%, and the error says the time used and the limit", arguments: ["bfs", "bidirectional", "reference"])
    func cpuLimitOvershoot(solver: String) {
        let (kind, puzzle): (PuzzleKind, String) = solver == "reference" ? (.rushhour, Self.slowBoard) : (.tiles, Self.deepFifteen)
        for limit in [0.02, 0.05] {
            let job = Job(batch: "b", id: 1, attempt: 1, kind: kind, puzzle: puzzle, solver: solver, maxStates: 1 << 30,
                          timeoutSeconds: nil, limits: JobLimits(cpuSeconds: limit))
            let result = JobRunner.run(job, worker: WorkerIdentity(host: "h", pid: 1), meter: PeakMemoryMeter())
            #expect(result.status == .cutoff && result.termination == .timeout, "\(solver) under \(limit) s: \(result.status)")
            let allowed = max(0.010, limit * 0.05)
            #expect(result.cpuSeconds <= limit + allowed, "\(solver) used \(result.cpuSeconds) s of CPU under a limit of \(limit) s")
            #expect(result.error?.contains("s of CPU time") == true && result.error?.contains("CPU limit \(limit.formatted(decimals: 3)) s") == true, "\(result.error ?? "")")
        }
    }

    @Test("/proc/PID/stat is read from its last parenthesis: a command name with spaces and parentheses moves no field")
    func statFields() throws {
        let fields = try #require(ProcessGroupSample.fields(ofStat:
            "4242 (my (odd) solver) R 4200 4100 4100 0 -1 4194304 1000 0 0 0 250 50 7 3 20 0 1 0 12345 1000000 2560 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"))
        #expect(fields.parent == 4200 && fields.group == 4100 && fields.cpuTicks == 310 && fields.residentPages == 2560)
        #expect(ProcessGroupSample.fields(ofStat: "12 (short) R 1") == nil)
        // This process, read for real, as its parent's tree; the root itself is left out.
        let sample = ProcessGroupSample.take(tree: getppid(), orphansOf: nil)
        #expect(sample.residentBytes > 0)
    }

    @Test("a control group's directory: its v1 mount (or the v2 one) joined with the group's path, less the mount's root")
    func cgroupDirectory() {
        let mountinfo = """
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
            35 31 0:32 /lxc/box /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
            40 31 0:33 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """
        let cgroups = "4:memory:/lxc/box/job\n2:cpu,cpuacct:/\n0::/user.slice\n"
        let directory = SolverCgroup.Hierarchy.directory
        #expect(directory("memory", cgroups, mountinfo) == "/sys/fs/cgroup/memory/job")
        #expect(directory("cpuacct", cgroups, mountinfo) == "/sys/fs/cgroup/cpu,cpuacct")
        #expect(directory(nil, cgroups, mountinfo) == "/sys/fs/cgroup/unified/user.slice")
        // cgroup v2 alone: no v1 hierarchy for a controller, the v2 group for the solvers.
        #expect(directory("memory", "0::/user.slice\n", mountinfo) == nil)
        #expect(directory("pids", cgroups, mountinfo) == nil)
        let v2Only = "25 1 0:26 /../.. /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
        #expect(directory(nil, "0::/system.slice/gridlock.service\n", v2Only) == "/sys/fs/cgroup/system.slice/gridlock.service")
        // A container's namespace: its group is its root.
        #expect(directory(nil, "0::/\n", v2Only) == "/sys/fs/cgroup")
        #expect(directory(nil, "1:name=systemd:/\n", v2Only) == nil)
    }

    /// This process's v2 group, where this process may make groups in it.
    static let v2Group: String? = {
        let cgroups = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        let mounts = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        guard getuid() == 0, let group = SolverCgroup.Hierarchy.directory(of: nil, cgroups: cgroups, mountinfo: mounts), access(group, W_OK) == 0 else {
            print("SKIP: cgroup v2 groups: no writable v2 hierarchy here")
            return nil
        }
        return group
    }()

    @Test("a v2 group counts the CPU time of a solver that moved into a group of its own below it, lists it, kills it and is removed whole",
          .enabled(if: v2Group != nil))
    func v2GroupHoldsSubgroups() throws {
        let parent = try #require(Self.v2Group)
        let cgroup = try #require(SolverCgroup(memoryLimitBytes: nil, parents: .init(version: .v2, directories: [parent])))
        let below = cgroup.directories[0] + "/mine"
        let solver = Process()
        solver.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Once in the group, it makes a group below it, moves there, and spins.
        solver.arguments = ["-c", "until grep -q '^0::.*/gridlock-' /proc/$$/cgroup; do sleep 0.01; done; mkdir \(below); echo $$ > \(below)/cgroup.procs; while :; do :; done"]
        try solver.run()
        defer { if solver.isRunning { kill(solver.processIdentifier, SIGKILL) } }
        #expect(SolverCgroup.write("\(solver.processIdentifier)", to: cgroup.directories[0] + "/cgroup.procs"))
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, SolverCgroup.pids(in: below) != [solver.processIdentifier] || cgroup.cpuSeconds < 0.1 { usleep(10_000) }
        #expect(SolverCgroup.pids(in: below) == [solver.processIdentifier])
        #expect(cgroup.members() == [solver.processIdentifier])
        #expect(cgroup.cpuSeconds >= 0.1 && (cgroup.keepsPeak || cgroup.peakBytes == nil) && cgroup.oomKills == 0)
        cgroup.remove()
        solver.waitUntilExit()
        #expect(solver.terminationReason == .uncaughtSignal && solver.terminationStatus == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: cgroup.directories[0]))
    }

    /// Whether this host's v2 group lends its children the memory controller.
    static let v2LendsMemory: Bool = {
        guard let group = v2Group else { return false }
        let lends = ((try? String(contentsOfFile: group + "/cgroup.subtree_control", encoding: .utf8)) ?? "").split(separator: " ")
            .contains { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "memory" }
        if !lends { print("SKIP: cgroup v2 memory limit: this host's v2 group lends no memory controller") }
        return lends
    }()

    @Test("a v2 group that holds memory stops a solver at its limit: the kernel's OOM kill is counted, its peak is the limit's",
          .enabled(if: v2LendsMemory))
    func v2GroupHoldsMemory() throws {
        let parent = try #require(Self.v2Group)
        let cgroup = try #require(SolverCgroup(memoryLimitBytes: 64 << 20, parents: .init(version: .v2, directories: [parent])))
        defer { cgroup.remove() }
        #expect(cgroup.holdsMemory && cgroup.keepsPeak)
        let solver = Process()
        solver.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // Once in the group, it allocates (bytes multiplied: every page touched) without end.
        solver.arguments = ["-c", "import time\nwhile '/gridlock-' not in open('/proc/self/cgroup').read(): time.sleep(0.01)\nheld = []\nwhile True: held.append(b'x' * 4_000_000)\n"]
        try solver.run()
        #expect(SolverCgroup.write("\(solver.processIdentifier)", to: cgroup.directories[0] + "/cgroup.procs"))
        solver.waitUntilExit()
        #expect(solver.terminationReason == .uncaughtSignal && solver.terminationStatus == SIGKILL)
        #expect(cgroup.oomKills >= 1)
        let peak = try #require(cgroup.peakBytes)
        #expect(peak > 48 << 20 && peak <= 64 << 20, "\(peak)")
    }

    @Test("flat-keyed control files: v2's cpu.stat and memory.events, v1's memory.oom_control")
    func flatKeyedFields() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gridlock-flat-\(getpid())").path
        defer { unlink(file) }
        try "usage_usec 410044\nuser_usec 410044\nsystem_usec 0\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(SolverCgroup.field("usage_usec", in: file) == 410_044 && SolverCgroup.field("system_usec", in: file) == 0)
        try "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(SolverCgroup.field("oom_kill", in: file) == 1 && SolverCgroup.field("oom", in: file) == 2)
        #expect(SolverCgroup.field("usage", in: file) == nil && SolverCgroup.field("oom_kill", in: file + "-gone") == nil)
    }

    @Test("job.external and job.external_serve may be given on several lines, each read as the flag reads it; a bad one names its line")
    func configExternalLines() throws {
        let config = try ClusterConfig.parse(
            "job.external = rushhour:a=python3 a.py\njob.external = rushhour:b=./b --x=1\njob.external_serve = sudoku:c=./c\n", file: "c.conf")
        #expect(config.lists["job.external"] == ["rushhour:a=python3 a.py", "rushhour:b=./b --x=1"])
        #expect(config.lists["job.external_serve"] == ["sudoku:c=./c"])
        #expect(throws: ClusterConfig.Problem.self) { try ClusterConfig.parse("job.max_states = 5\njob.external = rushhour:bfs=x\n", file: "c.conf") }
        do {
            _ = try ClusterConfig.parse("job.max_states = 5\njob.external = nokind\n", file: "c.conf")
        } catch let problem as ClusterConfig.Problem {
            #expect(problem.line == 2 && problem.description.hasPrefix("c.conf:2: `job.external`: "), "\(problem)")
        }
    }
}
