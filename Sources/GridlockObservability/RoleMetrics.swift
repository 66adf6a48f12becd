// The numbers a running coordinator, sink or worker shows on /metrics (Prometheus text format),
// each role only its own. The roles keep their own counts (CoordinatorProgress, SinkCounters);
// this turns their snapshots, taken about twice a second, into Prometheus counters and gauges. A
// counter only rises, so each snapshot adds what rose since the last one.

import GridlockCluster
import GridlockClusterBase
import Prometheus

/// Whose metrics a process shows: `batch` runs the coordinator and the sink in one process.
public enum MetricsRole: Sendable, Hashable {
    case coordinator, sink, worker, batch

    var coordinates: Bool { self == .coordinator || self == .batch }
    var stores: Bool { self == .sink || self == .batch }
}

public final class RoleMetrics: @unchecked Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let health: RoleHealth
    private let coordinator: CoordinatorFamilies?
    private let sink: SinkFamilies?
    private let workerSolved: Counter?
    /// CURVE refusals: the roles that bind (coordinator, sink).
    private let connectionsRefused: Counter?

    // Each `last` field is written by one loop only (the coordinator's progress, the sink's
    // counters, a worker's socket loop), so no two threads share one; the Prometheus metrics
    // themselves are thread-safe.
    private var lastProgress = CoordinatorProgress()
    private var lastSink = SinkCounters()
    private var lastRefused = 0
    private var lastSolved = 0

    public init(role: MetricsRole, health: RoleHealth) {
        self.health = health
        let registry = self.registry
        coordinator = role.coordinates ? CoordinatorFamilies(registry) : nil
        sink = role.stores ? SinkFamilies(registry) : nil
        workerSolved = role == .worker
            ? registry.makeCounter(descriptor: name("worker_jobs_solved", "total", "Jobs this worker process solved and sent.")) : nil
        connectionsRefused = role == .worker ? nil
            : registry.makeCounter(descriptor: name("connections_refused", "total", "Connections refused: a CURVE key not in the allowlist, or past --max-peers."))
    }

    /// The coordinator's state, as its loop reports it.
    public func update(_ progress: CoordinatorProgress) {
        guard let coordinator else { return }
        add(progress.read, lastProgress.read, to: coordinator.jobsRead)
        add(progress.stored, lastProgress.stored, to: coordinator.jobsStored)
        add(progress.storedBefore, lastProgress.storedBefore, to: coordinator.jobsStoredBefore)
        add(progress.failed, lastProgress.failed, to: coordinator.jobsFailed)
        add(progress.reissued, lastProgress.reissued, to: coordinator.jobsReissued)
        add(progress.dropped, lastProgress.dropped, to: coordinator.rejected)
        coordinator.jobsQueued.set(Int64(progress.queued))
        coordinator.jobsInFlight.set(Int64(progress.inFlight))
        coordinator.workersConnected.set(Int64(progress.liveWorkers))
        lastProgress = progress
        health.turned()
    }

    /// The sink's counts, as its loop reports them.
    public func update(_ counters: SinkCounters) {
        guard let sink else { return }
        add(counters.stored, lastSink.stored, to: sink.resultsStored)
        add(counters.duplicates, lastSink.duplicates, to: sink.resultsDuplicate)
        add(counters.dropped, lastSink.dropped, to: sink.rejected)
        lastSink = counters
        health.turned()
    }

    /// A worker's count of jobs solved, from its socket loop.
    public func updateWorker(solved: Int) {
        guard let workerSolved else { return }
        add(solved, lastSolved, to: workerSolved)
        lastSolved = solved
        health.turned()
    }

    /// One group of results stored, and how long its transaction took.
    public func observeStore(_ duration: Duration, results: Int) {
        sink?.storeBatchSeconds.record(duration)
        sink?.storeBatchResults.record(Double(results))
    }

    /// Connections the ZAP handler refused so far.
    public func updateRefused(_ count: Int) {
        guard let connectionsRefused else { return }
        add(count, lastRefused, to: connectionsRefused)
        lastRefused = count
    }

    public func text() -> String { registry.emitToString() }
}

private struct CoordinatorFamilies {
    let jobsRead, jobsStored, jobsStoredBefore, jobsFailed, jobsReissued: Counter
    let jobsQueued, jobsInFlight, workersConnected: Gauge
    let rejected: [Rejection: Counter]

    init(_ registry: PrometheusCollectorRegistry) {
        jobsRead = registry.makeCounter(descriptor: name("jobs_read", "total", "Jobs read from the input by the coordinator."))
        jobsStored = registry.makeCounter(descriptor: name("jobs_stored", "total", "Jobs the sink acknowledged as stored, this run."))
        jobsStoredBefore = registry.makeCounter(
            descriptor: name("jobs_stored_before", "total", "Jobs found stored by an earlier run of the batch (resumed)."))
        jobsFailed = registry.makeCounter(descriptor: name("jobs_failed", "total", "Jobs recorded as failed after their attempts."))
        jobsReissued = registry.makeCounter(
            descriptor: name("jobs_reissued", "total", "Jobs handed out again: their worker died, fell silent or overran."))
        jobsQueued = registry.makeGauge(descriptor: name("jobs_queued", "", "Jobs read and not yet handed to a worker."))
        jobsInFlight = registry.makeGauge(descriptor: name("jobs_in_flight", "", "Jobs handed to workers or awaiting the sink."))
        workersConnected = registry.makeGauge(descriptor: name("workers_connected", "", "Workers heard from within the silence limit."))
        rejected = byReason(registry, name("coordinator_frames_rejected", "total", "Frames the coordinator refused, by reason."))
    }
}

private struct SinkFamilies {
    let resultsStored, resultsDuplicate: Counter
    let rejected: [Rejection: Counter]
    let storeBatchSeconds: DurationHistogram
    let storeBatchResults: ValueHistogram

    init(_ registry: PrometheusCollectorRegistry) {
        resultsStored = registry.makeCounter(descriptor: name("results_stored", "total", "Results the sink stored (new rows)."))
        resultsDuplicate = registry.makeCounter(
            descriptor: name("results_duplicate", "total", "Results of jobs already stored (a re-issued job finished twice)."))
        rejected = byReason(
            registry, name("sink_results_rejected", "total", "Frames and results the sink refused (forged: no lease for their sender), by reason."))
        storeBatchSeconds = registry.makeDurationHistogram(
            descriptor: name("store_batch", "seconds", "How long the sink took to store one group of results (one transaction)."),
            buckets: [.microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100),
                      .milliseconds(500), .seconds(1), .seconds(5)])
        storeBatchResults = registry.makeValueHistogram(
            descriptor: name("store_batch_results", "", "Results in each group the sink stored."), buckets: [1, 8, 64, 512, 4_096])
    }
}

private func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
    MetricNameDescriptor(namespace: "gridlock", metricName: metric, unitName: unit, helpText: help)
}

private func byReason(_ registry: PrometheusCollectorRegistry, _ name: MetricNameDescriptor) -> [Rejection: Counter] {
    var counters: [Rejection: Counter] = [:]
    for reason in [Rejection.malformed, .unexpected, .forged] {
        counters[reason] = registry.makeCounter(descriptor: name, labels: [("reason", reason.rawValue)])
    }
    return counters
}

private func add(_ now: Int, _ before: Int, to counter: Counter) {
    if now > before { counter.increment(by: Int64(now - before)) }
}

private func add(_ now: DropCounts, _ before: DropCounts, to counters: [Rejection: Counter]) {
    add(now.malformed, before.malformed, to: counters[.malformed]!)
    add(now.unexpected, before.unexpected, to: counters[.unexpected]!)
    add(now.forged, before.forged, to: counters[.forged]!)
}
