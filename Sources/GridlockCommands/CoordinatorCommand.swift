// `gridlock coordinator`: the role that reads the input and hands jobs to the workers (one per
// batch; the sink stores what they send). The worker and the sink are in RoleCommands.swift.

import ArgumentParser
import Foundation
import Synchronization
import GridlockCluster
import GridlockCore
import GridlockWire
import Logging
import ZeroMQ

struct CoordinatorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinator",
        abstract: "Hand out the jobs of puzzle files to workers and follow each until it is stored.",
        discussion: """
            The input is read as workers ask for jobs, so a batch of any size starts at once and \
            runs in bounded memory. Restarted with the same files and --batch, it resumes: the \
            sink lists what it stored, with each job's fingerprint, and only the rest is solved. \
            An input that changed since is refused, naming the first line that differs, unless \
            --resume-changed is given.

            Example:
              gridlock coordinator data/rushhour/rush_18k.txt --batch big \\
                --bind tcp://*:5555 --sink tcp://sink:5556 --keys cluster-keys

            Exit status, once every job is stored (from the sink's acknowledgements): 0 every job \
            solved or proved unsolvable; 1 some record could not be read (invalid input), or the \
            input changed since the batch ran; 2 some job was cut off by a limit or failed; 3 \
            some answer disagrees with the one the input gave (wrong); 64 bad usage; 130 or 143 \
            stopped by SIGINT or SIGTERM before the end (run it again to resume).
            """
    )

    @Argument(help: "Puzzle files.", completion: .file())
    var files: [String]

    @OptionGroup var jobOptions: JobOptions

    @OptionGroup var config: ConfigOptions

    @Option(help: "The jobs endpoint to bind (config: coordinator.bind; default tcp://127.0.0.1:5555, loopback only: name an address, or tcp://*:5555, to take workers from other machines).")
    var bind: String?

    @Option(help: "The sink's results endpoint, where failed and invalid jobs are reported (config: sink.endpoint).")
    var sink: String?

    @Option(help: "The batch's name; workers and the sink file results under it.")
    var batch: String

    @OptionGroup var key: KeyOptions

    @OptionGroup var metrics: MetricsOption

    @OptionGroup var logs: LogFormatOption

    @Option(help: .hidden)
    var journal: String?

    @Flag(help: "Resume even though the input changed since the batch ran: keep the stored rows that still match their job and solve the rest.")
    var resumeChanged = false

    @Option(help: "Attempts before a job is recorded as failed (config: coordinator.attempts; default 3).")
    var attempts: Int?

    @Option(help: "Seconds without a heartbeat before a worker is presumed dead (config: coordinator.silence_limit_s; default 3).")
    var silenceLimit: Double?

    @Option(help: "Seconds a finished job may wait for the sink's acknowledgement (config: coordinator.store_timeout_s; default 10).")
    var storeTimeout: Double?

    @Option(help: "Seconds without a word from the sink (it says hello every second) before the batch stops with exit 1; 0: never. A warning comes every 10 s before (config: coordinator.sink_silence_s; default 120).")
    var sinkSilenceLimit: Double?

    @Option(help: "Seconds a worker may hold a job that has no time limit of its own, whatever its heartbeats say; then the job goes to another worker. A job with a limit is held at most that limit and 2 s. 0: without end (config: coordinator.lease_limit_s; default 3600).")
    var leaseLimit: Double?

    @OptionGroup var peers: PeerOptions

    @Option(help: "Jobs a worker may hold past their lease before it is quarantined: given no more jobs, named in a warning and in the batch's record. A worker whose answer the sink's replay refuses is quarantined at once. 0: never for leases (config: coordinator.quarantine_after; default 3).")
    var quarantineAfter: Int?

    func validate() throws {
        try BatchName.check(batch)
        try jobOptions.validate()
        if let attempts, !(1...1_000).contains(attempts) { throw ValidationError("--attempts must be from 1 to 1000") }
        for (name, value) in [("--silence-limit", silenceLimit), ("--store-timeout", storeTimeout)] {
            if let value, !(value > 0 && value <= 86_400) { throw ValidationError("\(name) must be a number of seconds from 0 (excluded) to 86400") }
        }
        if let sinkSilenceLimit, !(sinkSilenceLimit == 0 || (sinkSilenceLimit >= 1 && sinkSilenceLimit <= 86_400)) {
            throw ValidationError("--sink-silence-limit must be 0 (never) or a number of seconds from 1 to 86400")
        }
        if let leaseLimit, !Self.isLeaseLimit(leaseLimit) {
            throw ValidationError("--lease-limit must be 0 (without end) or a number of seconds from 1 to 604800")
        }
        if let quarantineAfter, !(0...1_000).contains(quarantineAfter) {
            throw ValidationError("--quarantine-after must be 0 (never) or a number of jobs from 1 to 1000")
        }
    }

    /// 0 (without end), or from a second to a week.
    static func isLeaseLimit(_ seconds: Double) -> Bool { seconds == 0 || (seconds >= 1 && seconds <= 604_800) }

    func run() throws {
        let log = logs.logger(role: "coordinator")
        try logs.run(log) { try runCoordinator(log) }
    }

    private func runCoordinator(_ log: Logger) throws {
        let file = try config.load()
        let sinkEndpoint = try ConfigFile.require(sink, file, "sink.endpoint", flag: "--sink")
        try KeyOptions.checkPorts([sinkEndpoint])
        if journal != nil {
            log.notice("--journal is no longer needed and is ignored: the sink's database says what is stored, by fingerprint")
        }
        try jobOptions.checkSolvers(file: file)
        let specification = jobOptions.specification(batch: batch, file: file)
        let reader = try JobReader(try PuzzleInput.jobInputs(files), specification: specification)
        var machine = CoordinatorMachine.Configuration(batch: batch, identity: .thisProcess)
        let bind = self.bind ?? file.string("coordinator.bind") ?? "tcp://127.0.0.1:5555"
        let (security, warnings) = try key.load(file, role: .coordinator, endpoints: [bind, sinkEndpoint])
        for warning in warnings { log.warning("\(warning)") }
        machine.key = security.key
        machine.workersAdmittedByTransport = security.curve != nil
        machine.maxAttempts = attempts ?? file.int("coordinator.attempts") ?? 3
        machine.silenceLimit = .seconds(silenceLimit ?? file.double("coordinator.silence_limit_s") ?? 3)
        machine.storeTimeout = .seconds(storeTimeout ?? file.double("coordinator.store_timeout_s") ?? 10)
        let sinkSilence = sinkSilenceLimit ?? file.double("coordinator.sink_silence_s") ?? 120
        guard sinkSilence == 0 || (sinkSilence >= 1 && sinkSilence <= 86_400) else {
            throw ValidationError("coordinator.sink_silence_s must be 0 (never) or a number of seconds from 1 to 86400")
        }
        machine.sinkSilenceLimit = sinkSilence == 0 ? nil : .milliseconds(Int64(sinkSilence * 1_000))
        let leaseLimit = leaseLimit ?? file.double("coordinator.lease_limit_s") ?? 3_600
        guard Self.isLeaseLimit(leaseLimit) else {
            throw ValidationError("coordinator.lease_limit_s must be 0 (without end) or a number of seconds from 1 to 604800")
        }
        machine.leaseLimit = leaseLimit == 0 ? nil : .milliseconds(Int64(leaseLimit * 1_000))
        let quarantineAfter = quarantineAfter ?? file.int("coordinator.quarantine_after") ?? 3
        guard (0...1_000).contains(quarantineAfter) else {
            throw ValidationError("coordinator.quarantine_after must be 0 (never) or a number of jobs from 1 to 1000")
        }
        machine.quarantineAfterLeaseEnds = quarantineAfter == 0 ? nil : quarantineAfter
        machine.jobsEndpoint = bind
        machine.resumeChanged = resumeChanged
        machine.paired = jobOptions.paired
        machine.jobsPerRecord = jobOptions.jobsPerRecord
        machine.servingSolverDigests = specification.servingSolverDigests
        machine.record = jobOptions.record(batch: batch, specification: specification, recipe: jobOptions.recipe(files: files, file: file, security: security.wire))
        machine.currentLoad = { MachineRecord.currentLoad() }
        var configuration = Coordinator.Configuration(bind: bind, sink: { sinkEndpoint }, machine: machine)
        configuration.log = { log.warning("\($0)") }
        configuration.curve = security.curve
        let progress = ProgressLine.logged(log, format: logs.logFormat)
        let observation = try metrics.start(file, key: "coordinator.metrics", role: .coordinator, log: { log.warning("\($0)") })
        defer { observation?.stop() }
        if let observation { log.info("metrics on http://\(observation.server.address)/metrics") }
        let refusals = RefusedConnections()
        configuration.peers = try peers.gate(file, key: "coordinator.max_peers", role: "coordinator")
        let outcome = try RoleLifetime.run(admitting: security.curve, refusals: refusals, log: configuration.log) { context, stop in
            try Coordinator.run(
                reader, configuration, context: context, stop: stop,
                bound: {
                    observation?.health.markBound()
                    log.info("bound \($0)")
                },
                progress: { state in
                    progress.show(state, sink: SinkCounters())
                    observation?.metrics.update(state)
                    observation?.metrics.updateRefused(refusals.count + (configuration.peers?.closedCount ?? 0))
                })
        }
        progress.finish()
        let final = outcome.progress
        log.info("""
            \(final.done) of \(final.read) stored (\(final.storedBefore) before this run, \(final.changed) changed), \
            \(final.failed) failed, \(final.reissued) re-issued, \(final.refuted) answers refused by the sink's replay, \
            \(final.quarantined) workers quarantined, \(final.dropped.malformed) malformed, \
            \(final.dropped.unexpected) unexpected and \(final.dropped.forged) forged frames dropped, \
            \(refusals.count) connections refused at the handshake, \(configuration.peers?.closedCount ?? 0) closed past --max-peers
            """)
        switch outcome.stop {
        case .complete?:
            // The sink's acknowledgements and pages say how each stored job ended.
            let tally = final.tally
            let line = "results: \(tally.summary)" + (tally.wrong > 0 ? ": \(tally.wrong) answers disagree with the input's" : "")
            if tally.wrong > 0 { log.error("\(line)") } else { log.info("\(line)") }
            if final.tally.exitCode != 0 { throw ExitCode(final.tally.exitCode) }
        case .inputChanged(let reason)?:
            throw CommandFailure(reason)
        case .sinkSilent?:
            throw CommandFailure("""
                \(outcome.stop!) (sinks connect to \(bind); this coordinator reports to \(sinkEndpoint)); start the sink, \
                then this coordinator again with --batch \(batch) to resume
                """)
        case .sinkStopped?:
            throw CommandFailure("""
                \(outcome.stop!); once it is mended, start the sink and this coordinator again with \
                --batch \(batch) to resume: only jobs not stored are solved
                """)
        case nil:
            // Stopped before the end: told to (a signal, an eviction), which is not how the batch
            // ended, so an orchestrator can tell it from cut-off jobs (2) and restart it.
            let signal = TerminationSignals.received.load(ordering: .relaxed)
            log.notice("stopped before the end by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); run it again with --batch \(batch) to resume")
            throw ExitCode(128 + (signal == 0 ? SIGTERM : signal))
        }
    }
}
