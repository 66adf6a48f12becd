// The machines a batch ran on (MachineRecord), as the machines table keeps them: one row per
// host of a batch, as its workers described it to the sink.

import GRDB
import GridlockCore
import GridlockWire

extension MachineRecord {
    /// Records a host of a batch, or leaves the row stored before: its workers say the same,
    /// give or take the load. Legal in both dialects but for the placeholders.
    package static func insertSQL(placeholder: (Int) -> String) -> String {
        let columns = "batch, host, cpu_model, cores, threads, governor, turbo, kernel, memory_bytes, load_average, method, code_path, cpu_mhz, smt"
        let values = (1...14).map(placeholder).joined(separator: ", ")
        return "INSERT INTO machines (\(columns)) VALUES (\(values)) ON CONFLICT (batch, host) DO NOTHING"
    }

    /// The values `insertSQL` binds, in its order.
    package func storedValues(batch: String) -> [DatabaseValue] {
        [batch.databaseValue, host.databaseValue, cpuModel.databaseValue, cores.databaseValue, threads.databaseValue, governor.databaseValue,
         turbo.databaseValue, kernel.databaseValue, memoryBytes.databaseValue, loadAverage.databaseValue, method.databaseValue,
         codePath.databaseValue, megahertz.databaseValue, smt.databaseValue]
    }

    /// A stored row, its cells looked up by column name, read as well as it can be: a row
    /// another program wrote with values no record holds is never trapped on.
    package static func stored(_ cell: (String) -> DatabaseValue) -> (batch: String, machine: MachineRecord) {
        func text(_ column: String) -> String? { (try? StoredValue.text(cell(column), column)).map(clipped) }
        func count(_ column: String) -> Int { max(0, (try? StoredValue.integer(cell(column), column)) ?? 0) }
        func number(_ column: String) -> Double { (try? StoredValue.real(cell(column), column)) ?? 0 }
        let load = number("load_average")
        let clock = number("cpu_mhz")
        return (text("batch") ?? "?", MachineRecord(
            host: text("host") ?? "?", cpuModel: text("cpu_model") ?? "unknown", cores: count("cores"), threads: count("threads"),
            governor: text("governor"), turbo: text("turbo"), kernel: text("kernel") ?? "unknown", memoryBytes: count("memory_bytes"),
            loadAverage: load.isFinite ? max(0, load) : 0, method: text("method") ?? "unknown", codePath: text("code_path") ?? "unknown",
            megahertz: clock.isFinite && clock > 0 && clock < 1e6 ? clock : 0, smt: text("smt")))
    }

    /// At most a name long and printable: the text reaches a terminal.
    static func clipped(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(WireProtocol.maximumNameBytes))).printable
    }
}
