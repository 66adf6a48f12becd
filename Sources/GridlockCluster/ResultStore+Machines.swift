// The machines a batch ran on (MachineRecord), as its workers described them to the sink.

import GRDB
import GridlockCore
import GridlockWire

extension ResultStore {
    /// Keeps the first description of a host for a batch: its workers say the same, give or
    /// take the load.
    public func record(_ machine: MachineRecord, batch: String) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO machines (batch, host, cpu_model, cores, threads, governor, turbo, kernel, memory_bytes,
                        load_average, method, code_path, cpu_mhz, smt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [batch, machine.host, machine.cpuModel, machine.cores, machine.threads, machine.governor, machine.turbo,
                            machine.kernel, machine.memoryBytes, machine.loadAverage, machine.method, machine.codePath, machine.megahertz,
                            machine.smt])
        }
    }

    /// The machines of a batch (or of every batch), by batch and host. A row another program
    /// wrote with values no record holds is read as well as it can be, never trapped on.
    public func machines(batch: String? = nil) throws -> [(batch: String, machine: MachineRecord)] {
        try queue.read { db in
            let filter = batch == nil ? "" : "WHERE batch = ?"
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM machines \(filter) ORDER BY batch, host", arguments: StatementArguments(batch.map { [$0] } ?? []))
            return rows.map { row in
                func text(_ column: String) -> String? { (try? row.decode(String.self, forColumn: column)).map(Self.clipped) }
                func count(_ column: String) -> Int { max(0, (try? row.decode(Int.self, forColumn: column)) ?? 0) }
                let load = (try? row.decode(Double.self, forColumn: "load_average")) ?? 0
                let clock = (try? row.decode(Double.self, forColumn: "cpu_mhz")) ?? 0
                return (text("batch") ?? "?", MachineRecord(
                    host: text("host") ?? "?", cpuModel: text("cpu_model") ?? "unknown", cores: count("cores"), threads: count("threads"),
                    governor: text("governor"), turbo: text("turbo"), kernel: text("kernel") ?? "unknown", memoryBytes: count("memory_bytes"),
                    loadAverage: load.isFinite ? max(0, load) : 0, method: text("method") ?? "unknown", codePath: text("code_path") ?? "unknown",
                    megahertz: clock.isFinite && clock > 0 && clock < 1e6 ? clock : 0, smt: text("smt")))
            }
        }
    }

    /// At most a name long and printable: the text reaches a terminal.
    static func clipped(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(WireProtocol.maximumNameBytes))).printable
    }
}
