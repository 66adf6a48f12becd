// A batch's recipe (BatchRecipe) from the options it was started with: each value as the jobs
// got it, a config file's included, written as `gridlock batch` reads it back, so `rerun`
// needs nothing but the record.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockClusterBase
import GridlockCore
import GridlockWire

extension JobOptions {
    /// The options that decide every job, resolved against `file`.
    func recipeOptions(file: ClusterConfig = ClusterConfig()) -> [String] {
        let specification = specification(batch: "-", file: file)
        var options: [String] = []
        if let solver { options += ["--solver", solver] }
        if let kind = reading.puzzleKind { options += ["--kind", kind.rawValue] }
        if let goal = reading.goal { options += ["--goal", goal.rawValue] }
        if let size = reading.size { options += ["--size", size] }
        for outside in (try? external.solvers(file: file)) ?? [] {
            options += [outside.mode == .serve ? "--external-serve" : "--external", "\(outside.kind.rawValue):\(outside.name)=\(outside.command)"]
        }
        options += ["--max-states", "\(specification.maxStates)"]
        if let timeout = specification.timeoutSeconds { options += ["--timeout", "\(timeout)"] }
        if let cpu = specification.limits.cpuSeconds { options += ["--time-limit", "\(cpu)"] }
        // In KiB, which ByteSize reads back exactly: a bare number it refuses.
        if let memory = specification.limits.memoryBytes { options += ["--memory-limit", memory % 1024 == 0 ? "\(memory / 1024)K" : "\(Double(memory) / 1024)K"] }
        if paired { options.append("--paired") }
        if repeats != 1 { options += ["--repeats", "\(repeats)"] }
        if let maxRecordBytes { options += ["--max-record-bytes", "\(maxRecordBytes)"] }
        return options
    }

    /// The recipe of a batch of `files`; `versions` asks each outside solver its version
    /// (only where the solvers run: `batch`, not a coordinator).
    func recipe(
        files: [String], workers: Int = 0, placement: PinOptions? = nil, memoryBudget: MemoryBudgetOption? = nil,
        file: ClusterConfig = ClusterConfig(), versions: Bool = false, security: WireSecurity
    ) -> BatchRecipe {
        var options = recipeOptions(file: file)
        if workers > 0 { options += ["--workers", "\(workers)"] }
        // The budget used, given or not: the default is a share of this machine's memory, and
        // it decides which searches are cut off.
        if let memoryBudget { options += ["--memory-budget", "\(Double(memoryBudget.bytes) / Double(1 << 30))"] }
        let pinning = placement.flatMap { $0.pin ? ($0.noSMT ? "one CPU each, no SMT sibling" : "one CPU each") : nil }
        if let placement, placement.pin { options += placement.noSMT ? ["--pin", "--no-smt"] : ["--pin"] }
        let working = FileManager.default.currentDirectoryPath
        let outside = ((try? external.solvers(file: file)) ?? []).map { solver in
            OutsideSolverRecord(
                kind: solver.kind.rawValue, name: solver.name, command: solver.command, serving: solver.mode == .serve,
                version: versions ? OutsideSolverVersion.ask(solver.command) : nil)
        }
        return BatchRecipe(
            options: options, files: files.map { $0 == "-" || $0.hasPrefix("/") ? $0 : working + "/" + $0 }, outsideSolvers: outside,
            workers: workers, pinning: pinning, paired: paired, repeats: repeats, loadAtStart: MachineRecord.currentLoad(),
            security: security
        ).bounded()
    }
}

/// The first line `COMMAND --version` prints: what distinguishes two builds of one solver
/// where the command line is the same.
///
/// Asked in a process of its own (`gridlock solver-version`, hidden), never in the caller's:
/// the command is anyone's, and what it leaves behind (a child escaped with setsid) must be
/// reaped and killed by a process that has no other children, as a worker does with its
/// solvers; in `batch` it would be the workers.
enum OutsideSolverVersion {
    /// Nil unless it exits 0 within two seconds with a line on standard output.
    static func ask(_ command: String) -> String? {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: WorkerSupervisor.currentExecutable)
        probe.arguments = ["solver-version", "--", command]
        let output = Pipe()
        probe.standardOutput = output
        probe.standardError = FileHandle.nullDevice
        probe.standardInput = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return nil }
        // The probe gives up on the command after two seconds; it is given five in all.
        let deadline = Date(timeIntervalSinceNow: 5)
        while probe.isRunning, Date() < deadline { usleep(20_000) }
        if probe.isRunning {
            kill(probe.processIdentifier, SIGKILL)
            probe.waitUntilExit()
            return nil
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile().prefix(WireProtocol.maximumNameBytes + 1), as: UTF8.self)
        guard probe.terminationStatus == 0 else { return nil }
        let version = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return version.isEmpty ? nil : version
    }

    /// In the probe's own process: the command run once with `--version` and no input.
    static func probe(_ command: String) -> String? {
        guard let run = try? ExternalProcess(command: command + " --version").run(input: [], deadline: ContinuousClock.now + .seconds(2)),
              run.ending == .exited(0)
        else { return nil }
        // Printable ASCII only, at most a name long: the line reaches terminals, the wire and SQLite.
        let line = run.output.prefix { $0 != UInt8(ascii: "\n") }.filter { (0x20..<0x7F).contains($0) }.prefix(WireProtocol.maximumNameBytes)
        let version = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return version.isEmpty ? nil : version
    }
}

/// `gridlock solver-version -- COMMAND`: prints what `COMMAND --version` says (OutsideSolverVersion).
struct SolverVersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solver-version", abstract: "Print an outside solver's version line (used by batch).", shouldDisplay: false)

    @Argument(help: "The solver's command, as --external gives it.")
    var command: String

    func run() throws {
        // This process has no children but the solver's: whatever of it is left is killed.
        ExternalProcess.reapsEveryChild.store(true, ordering: .relaxed)
        guard let version = OutsideSolverVersion.probe(command) else { throw ExitCode(1) }
        print(version)
    }
}
