// The numbers a running coordinator, sink or worker shows on /metrics (Prometheus text format). The
// roles keep their own counts (CoordinatorProgress, SinkCounters); this turns their snapshots,
// taken about twice a second, into Prometheus counters and gauges. A counter only rises, so each
// snapshot adds what rose since the last one.

import GridlockCluster
import Prometheus

public final class RoleMetrics: @unchecked Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let health: RoleHealth

    // The coordinator's.
    private let jobsRead: Counter
    private let jobsStored: Counter
    private let jobsStoredBefore: Counter
    private let jobsFailed: Counter
    private let jobsReissued: Counter
    private let jobsQueued: Gauge
    private let jobsInFlight: Gauge
    private let workersConnected: Gauge
    private let coordinatorRejected: [Rejection: Counter]
    // The sink's.
    private let resultsStored: Counter
    private let resultsDuplicate: Counter
    private let sinkRejected: [Rejection: Counter]
    private let storeBatchSeconds: DurationHistogram
    private let storeBatchResults: ValueHistogram
    // A worker's.
    private let workerSolved: Counter
    // Both.
    private let connectionsRefused: Counter

    // Each `last` field is written by one loop only (the coordinator's progress, the sink's
    // counters, a worker's socket loop), so no two threads share one; the Prometheus metrics
    // themselves are thread-safe.
    private var lastProgress = CoordinatorProgress()
    private var lastSink = SinkCounters()
    private var lastRefused = 0
    private var lastSolved = 0

    public init(health: RoleHealth) {
        self.health = health
        let registry = self.registry
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "gridlock", metricName: metric, unitName: unit, helpText: help)
        }
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
        coordinatorRejected = Self.byReason(
            registry, name("coordinator_frames_rejected", "total", "Frames the coordinator refused, by reason."))
        resultsStored = registry.makeCounter(descriptor: name("results_stored", "total", "Results the sink stored (new rows)."))
        resultsDuplicate = registry.makeCounter(
            descriptor: name("results_duplicate", "total", "Results of jobs already stored (a re-issued job finished twice)."))
        sinkRejected = Self.byReason(
            registry, name("sink_results_rejected", "total", "Frames and results the sink refused (forged: no lease for their sender), by reason."))
        storeBatchSeconds = registry.makeDurationHistogram(
            descriptor: name("store_batch", "seconds", "How long the sink took to store one group of results (one transaction)."),
            buckets: [.microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100),
                      .milliseconds(500), .seconds(1), .seconds(5)])
        storeBatchResults = registry.makeValueHistogram(
            descriptor: name("store_batch_results", "", "Results in each group the sink stored."), buckets: [1, 8, 64, 512, 4_096])
        workerSolved = registry.makeCounter(descriptor: name("worker_jobs_solved", "total", "Jobs this worker process solved and sent."))
        connectionsRefused = registry.makeCounter(
            descriptor: name("connections_refused", "total", "CURVE connections refused: a key not in the allowlist."))
    }

    private static func byReason(_ registry: PrometheusCollectorRegistry, _ name: MetricNameDescriptor) -> [Rejection: Counter] {
        var counters: [Rejection: Counter] = [:]
        for reason in [Rejection.malformed, .unexpected, .forged] {
            counters[reason] = registry.makeCounter(descriptor: name, labels: [("reason", reason.rawValue)])
        }
        return counters
    }

    /// The coordinator's state, as its loop reports it.
    public func update(_ progress: CoordinatorProgress) {
        Self.add(progress.read, lastProgress.read, to: jobsRead)
        Self.add(progress.stored, lastProgress.stored, to: jobsStored)
        Self.add(progress.storedBefore, lastProgress.storedBefore, to: jobsStoredBefore)
        Self.add(progress.failed, lastProgress.failed, to: jobsFailed)
        Self.add(progress.reissued, lastProgress.reissued, to: jobsReissued)
        Self.add(progress.dropped, lastProgress.dropped, to: coordinatorRejected)
        jobsQueued.set(Int64(progress.queued))
        jobsInFlight.set(Int64(progress.inFlight))
        workersConnected.set(Int64(progress.liveWorkers))
        lastProgress = progress
        health.turned()
    }

    /// The sink's counts, as its loop reports them.
    public func update(_ counters: SinkCounters) {
        Self.add(counters.stored, lastSink.stored, to: resultsStored)
        Self.add(counters.duplicates, lastSink.duplicates, to: resultsDuplicate)
        Self.add(counters.dropped, lastSink.dropped, to: sinkRejected)
        lastSink = counters
        health.turned()
    }

    /// A worker's count of jobs solved, from its socket loop.
    public func updateWorker(solved: Int) {
        Self.add(solved, lastSolved, to: workerSolved)
        lastSolved = solved
        health.turned()
    }

    /// One group of results stored, and how long its transaction took.
    public func observeStore(_ duration: Duration, results: Int) {
        storeBatchSeconds.record(duration)
        storeBatchResults.record(Double(results))
    }

    /// Connections the ZAP handler refused so far.
    public func updateRefused(_ count: Int) {
        Self.add(count, lastRefused, to: connectionsRefused)
        lastRefused = count
    }

    public func text() -> String { registry.emitToString() }

    private static func add(_ now: Int, _ before: Int, to counter: Counter) {
        if now > before { counter.increment(by: Int64(now - before)) }
    }

    private static func add(_ now: DropCounts, _ before: DropCounts, to counters: [Rejection: Counter]) {
        add(now.malformed, before.malformed, to: counters[.malformed]!)
        add(now.unexpected, before.unexpected, to: counters[.unexpected]!)
        add(now.forged, before.forged, to: counters[.forged]!)
    }
}
