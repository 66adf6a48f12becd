// The machines a report's batches ran on (MachineRecord), as a table, and the warning when the
// jobs ran on CPUs of more than one model.

import GridlockCluster
import GridlockCore
import GridlockWire

enum MachineTable {
    static let columns = ["batch", "host", "CPU", "MHz", "cores", "threads", "SMT", "governor", "turbo", "kernel", "memory", "load", "code path", "measured by"]
    static let fields = [
        "batch", "host", "cpu_model", "cpu_mhz", "cores", "threads", "smt", "governor", "turbo", "kernel", "memory_bytes", "load_average", "code_path",
        "method",
    ]

    static func row(_ batch: String, _ machine: MachineRecord) -> [String] {
        [batch, machine.host, machine.cpuModel, machine.megahertz > 0 ? machine.megahertz.formatted(decimals: 0) : "-", machine.cores.grouped,
         machine.threads.grouped, machine.smt ?? "-", machine.governor ?? "-", machine.turbo ?? "-", machine.kernel, machine.memoryBytes.bytes,
         machine.loadAverage.formatted(decimals: 2), machine.codePath, machine.method].map(\.printable)
    }

    static func values(_ batch: String, _ machine: MachineRecord) -> [ReportValue] {
        [.text(batch), .text(machine.host), .text(machine.cpuModel), .real(machine.megahertz > 0 ? machine.megahertz : nil), .integer(machine.cores),
         .integer(machine.threads), .text(machine.smt), .text(machine.governor), .text(machine.turbo), .text(machine.kernel), .integer(machine.memoryBytes),
         .real(machine.loadAverage), .text(machine.codePath), .text(machine.method)]
    }

    /// What to say when the machines differ in CPU model: a solver whose jobs went more to the
    /// faster model would look faster.
    static func mixedModels(_ machines: [MachineRecord]) -> String? {
        var hostsByModel: [String: Set<String>] = [:]
        for machine in machines { hostsByModel[machine.cpuModel, default: []].insert(machine.host) }
        guard hostsByModel.count > 1 else { return nil }
        let named = hostsByModel.keys.sorted().prefix(4).map { model in
            let hosts = hostsByModel[model]!.sorted()
            return "\(model) on \(hosts.prefix(3).joined(separator: ", "))\(hosts.count > 3 ? " and \(hosts.count - 3) more" : "")"
        }
        return ("the jobs ran on \(hostsByModel.count) CPU models (\(named.joined(separator: "; "))\(hostsByModel.count > 4 ? "; ..." : "")): "
            + "times differ between them, and a solver whose jobs went more to one is not compared like for like").printable
    }
}
