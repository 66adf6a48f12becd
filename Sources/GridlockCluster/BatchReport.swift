// The tables of a results database: per solver variant and difficulty band, counts by status,
// time percentiles, states examined, peak memory, and each variant's mean time as a ratio to
// the first variant's; then throughput per worker and per host.
//
// Bands are the Unblocker guide's Unblock Me categories, by optimal moves (the solve's own
// answer, or the file's expected answer when the solve gave none).

import GridlockCore

public enum BatchReport {
    public static let bands: [(name: String, range: ClosedRange<Int>)] = [
        ("14 or fewer", 0...14), ("Beginner 15-20", 15...20), ("Intermediate 21-25", 21...25),
        ("Advanced 26-30", 26...30), ("Expert 31+", 31...Int.max),
    ]

    public static func band(of row: StoredResult) -> String {
        guard let moves = row.moves ?? row.expectedMoves else { return row.status == "invalid" ? "invalid" : "unknown" }
        if moves < 0 { return "unsolvable" }
        return bands.first { $0.range.contains(moves) }?.name ?? "unknown"
    }

    public static let columns = [
        "solver", "band", "count", "solved", "unsolvable", "cutoff", "failed", "invalid", "mean", "p50", "p90",
        "p99", "max", "examined mean", "examined max", "peak RSS mean", "peak RSS max", "time vs first",
    ]

    /// One row per solver and band, solvers in the order first seen, bands in the guide's order.
    public static func rows(_ results: [StoredResult]) -> [[String]] {
        var solvers: [String] = []
        for row in results where !solvers.contains(row.solver) { solvers.append(row.solver) }
        let bandOrder = bands.map(\.name) + ["unsolvable", "unknown", "invalid"]
        var baselineMean: [String: Double] = [:]
        var rows: [[String]] = []
        for solver in solvers {
            let mine = results.filter { $0.solver == solver }
            for band in bandOrder + ["all"] {
                let group = band == "all" ? mine : mine.filter { self.band(of: $0) == band }
                guard !group.isEmpty else { continue }
                let times = group.filter { $0.status != "invalid" && $0.status != "failed" }.map(\.seconds).sorted()
                let mean = times.isEmpty ? 0 : times.reduce(0, +) / Double(times.count)
                if solver == solvers[0] { baselineMean[band] = mean }
                let ratio = baselineMean[band].flatMap { $0 > 0 ? (mean / $0).formatted(decimals: 2) + "x" : nil } ?? "-"
                let count = { (status: String) in group.filter { $0.status == status }.count.grouped }
                let examined = group.map(\.examined)
                let memory = group.map(\.peakRSSBytes)
                rows.append([
                    solver, band, group.count.grouped, count("solved"), count("unsolvable"), count("cutoff"),
                    count("failed"), count("invalid"), mean.milliseconds, quantile(times, 0.5).milliseconds,
                    quantile(times, 0.9).milliseconds, quantile(times, 0.99).milliseconds, (times.last ?? 0).milliseconds,
                    (examined.reduce(0, +) / max(1, examined.count)).grouped, (examined.max() ?? 0).grouped,
                    (memory.reduce(0, +) / max(1, memory.count)).bytes, (memory.max() ?? 0).bytes, ratio,
                ])
            }
        }
        return rows
    }

    /// Jobs and jobs per second of solving time, per worker and per host.
    public static func throughputRows(_ results: [StoredResult]) -> [[String]] {
        let solvedByWorkers = results.filter { $0.status != "invalid" && !($0.status == "failed" && $0.examined == 0) }
        func rows(by key: (StoredResult) -> String, kind: String) -> [[String]] {
            Dictionary(grouping: solvedByWorkers, by: key).sorted { $0.key < $1.key }.map { name, group in
                let busy = group.map(\.seconds).reduce(0, +)
                return [kind, name, group.count.grouped, busy.milliseconds,
                        busy > 0 ? (Double(group.count) / busy).formatted(decimals: 0) : "-"]
            }
        }
        return rows(by: \.host, kind: "host") + rows(by: \.worker, kind: "worker")
    }

    public static let throughputColumns = ["by", "name", "jobs", "busy", "jobs per busy second"]

    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
