// `--metrics ADDRESS` of the coordinator, the sink and `gridlock batch`: Prometheus metrics on
// /metrics, and /healthz and /readyz for an orchestrator's probes (GridlockObservability).

import ArgumentParser
import GridlockCluster
import GridlockClusterBase
import GridlockObservability

struct MetricsOption: ParsableArguments {
    @Option(help: "Serve Prometheus metrics on http://ADDRESS/metrics, and /healthz and /readyz for probes: HOST:PORT, [IPv6]:PORT or :PORT for every interface, e.g. 127.0.0.1:9100 (config: ROLE.metrics).")
    var metrics: String?

    init() {}

    init(metrics: String?) {
        self.metrics = metrics
    }

    /// Starts the endpoint when asked for (flag, else the config file's `key`); nil otherwise.
    func start(_ file: ClusterConfig, key: String, role: MetricsRole, log: @escaping @Sendable (String) -> Void = { StandardError.write($0 + "\n") }) throws -> RoleObservation? {
        guard let text = metrics ?? file.string(key) else { return nil }
        let address: MetricsAddress
        do {
            address = try MetricsAddress(text)
        } catch let problem as MetricsAddress.Problem {
            throw ValidationError(problem.description)
        }
        let health = RoleHealth()
        let roleMetrics = RoleMetrics(role: role, health: health)
        let server: MetricsServer
        do {
            server = try MetricsServer(address: address, metrics: roleMetrics, health: health, log: log)
        } catch let failure as MetricsServer.Failure {
            throw CommandFailure(failure.description)
        }
        return RoleObservation(metrics: roleMetrics, health: health, server: server)
    }
}

/// A role's metrics endpoint while it runs.
struct RoleObservation {
    let metrics: RoleMetrics
    let health: RoleHealth
    let server: MetricsServer

    func stop() {
        health.markStopping()
        server.stop()
    }
}
