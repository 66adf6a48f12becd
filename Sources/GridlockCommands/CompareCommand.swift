// `gridlock compare`: a batch's times against a baseline batch's, puzzle by puzzle, with a
// verdict per solver and band (BatchComparison), like criterion's "change: [-2.1% -1.0% +0.3%]".

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a batch's times with a baseline batch's, per solver and band, with intervals and a verdict.",
        usage: "gridlock compare <databases> ... [<options>]",
        discussion: """
            Each puzzle solved (or proved unsolvable) in both batches, same kind, solver and \
            puzzle text, gives one \
            ratio of times, new over baseline. Per kind, solver and band: the geometric mean of \
            those ratios with a 95% interval (a seeded bootstrap over the puzzles, so the same \
            batches always print the same interval; widened, when five or more pairs of worker \
            processes ran them, to a cluster-robust interval with Student's t over those pairs, \
            since each process's own speed moves all its times by several percent), and a verdict: slower or faster when the \
            whole interval lies beyond --threshold, otherwise no change (as criterion decides); \
            a group of fewer than 3 puzzles gets none ("too few pairs").

            A verdict is marked with * when the comparison itself is in doubt, each reason \
            said on standard error: a host's load past its hardware threads by one or more at \
            either batch's start or end, a different code path (x86-64-v4 against portable), different limits or \
            outside solver commands or versions, or a run-to-run spread (two runs of one job, \
            with --repeats) wider than --threshold.

            From one database, name both batches; from two, the first is the baseline's and the \
            second the new batch's (--baseline and --batch pick a batch in each; a database that \
            holds one batch needs no name). Batches run on other hosts, CPU models (as the \
            workers recorded them), builds or revisions are compared anyway, with a warning: \
            their differences are in the figures.

            --fail-above is a gate for CI, with a rule of its own: a group fails it when its \
            interval excludes no change and its estimate is slower by more than the given \
            percent, whether or not its whole interval clears --threshold (a regression \
            measured with a wide interval still fails the gate); a group of fewer than 3 \
            puzzles never fails it.

            Exit status: 0 no regression above --fail-above (or no --fail-above); 1 some group \
            slower by more than --fail-above percent, or a database or batch cannot be read; \
            64 bad usage.

            Example:
              gridlock batch data/samples/unblockme.txt --batch monday --db r.sqlite
              gridlock batch data/samples/unblockme.txt --batch tuesday --db r.sqlite
              gridlock compare r.sqlite --baseline monday --batch tuesday
              gridlock compare old.sqlite new.sqlite --fail-above 5  # (skip: two files)
            """
    )

    @Argument(help: "The results database (both batches), or two: the baseline's, then the new batch's.", completion: .file(extensions: ["sqlite", "db"]))
    var databases: [String]

    @Option(help: "The baseline batch (default: the database's only batch).")
    var baseline: String?

    @Option(help: "The new batch (default: the database's only batch, or with one database, the one that is not --baseline).")
    var batch: String?

    @Option(help: "Percent: a change counts only when its whole interval lies beyond it.")
    var threshold = 5.0

    @Option(help: "Percent: exit 1 when some group is slower by more than this, its interval above no change (for CI).")
    var failAbove: Double?

    @Option(help: "text or markdown, or csv, json or jsonl with plain numbers.")
    var format: ReportFormat = .text

    @Option(help: "Which time to compare: cpu (the solve's own CPU time: little moved by other processes on the machine) or wall (as the tables show).")
    var time: TimeBasis = .cpu

    func validate() throws {
        guard (1...2).contains(databases.count) else { throw ValidationError("give one results database (both batches) or two (baseline, then new)") }
        guard threshold >= 0, threshold < 1_000, threshold.isFinite else { throw ValidationError("--threshold must be a percentage from 0 to 1000") }
        if let failAbove, !(failAbove >= 0 && failAbove.isFinite) { throw ValidationError("--fail-above must be a percentage, 0 or more") }
    }

    func run() throws {
        let baseStore = try Self.open(databases[0])
        let newStore = databases.count == 2 ? try Self.open(databases[1]) : baseStore
        let (baseName, newName) = try names(baseStore, newStore)
        warnOfDifferences(baseStore, baseName, newStore, newName)
        var comparison = BatchComparison(basis: time)
        var (baseSpread, newSpread) = (RunSpread(basis: time), RunSpread(basis: time))
        try baseStore.forEachTimedRow(batch: baseName, basis: time) {
            comparison.addBaseline($0)
            baseSpread.add($0)
        }
        try newStore.forEachTimedRow(batch: newName, basis: time) {
            comparison.addNew($0)
            newSpread.add($0)
        }
        let caveats = Self.caveats(
            (baseStore, baseName, baseSpread), (newStore, newName, newSpread), threshold: threshold / 100)
        for caveat in caveats { StandardError.write("compare: warning: \(caveat.reason.rawValue): \(caveat.detail)".printable + "\n") }
        if baseSpread.typical == nil, newSpread.typical == nil {
            StandardError.write("compare: note: neither batch repeated its jobs, so their run-to-run spread is not known (--repeats 2 measures it)\n")
        }
        var rows = comparison.rows(threshold: threshold / 100)
        // A verdict, not "no change", given under a caveat is marked: the caveat may be all of it.
        let reasons = ComparisonCaveat.Reason.allCases.filter { reason in caveats.contains { $0.reason == reason } }.map(\.rawValue)
        for index in rows.indices where [.faster, .slower].contains(rows[index].verdict) { rows[index].caveats = reasons }
        guard !rows.isEmpty else {
            throw CommandFailure("no puzzle was solved in both \(baseName) and \(newName): nothing to compare\(time == .cpu ? " (with --time cpu; rows from an older build may hold no CPU times: try --time wall)" : "")".printable)
        }
        let tables = NumericTables(tables: [("groups", BatchComparison.Row.fields.map(\.name), rows.map { row in BatchComparison.Row.fields.map { $0.value(row) } })])
        switch format {
        case .text, .markdown:
            let header = ["kind", "solver", "band", "pairs", "baseline p50", "new p50", "change (95% CI)", "verdict"]
            let body = rows.map { row in
                [row.kind, row.solver, row.band, row.pairs.grouped, row.baselineMedianSeconds.milliseconds, row.newMedianSeconds.milliseconds,
                 row.ratio.map(Self.describe) ?? "-", row.verdict.rawValue + (row.caveats.isEmpty ? "" : " *")]
            }
            print("\(newName) against \(baseName):".printable)
            print(format == .text ? TextTable.aligned(header: header, rows: body) : TextTable.markdown(header: header, rows: body))
            if rows.contains(where: { !$0.caveats.isEmpty }) {
                print("* given under warnings (\(reasons.joined(separator: ", "))): see standard error; the change may be theirs")
            }
        case .csv: print(tables.csv("groups"))
        case .json: print(tables.json)
        case .jsonl: print(tables.jsonLines)
        }
        if let failAbove {
            let regressions = rows.filter { BatchComparison.failsGate($0.ratio, above: failAbove / 100) }
            if !regressions.isEmpty {
                let named = regressions.prefix(5).map { "\($0.solver) \($0.band) \(Self.describe($0.ratio!))" }.joined(separator: "; ")
                throw CommandFailure("\(regressions.count) groups slower by more than \(failAbove.formatted(decimals: 1))%: \(named)")
            }
        }
    }

    /// "+20.3% (+18.1% to +22.6%)".
    static func describe(_ ratio: PairedRatio) -> String {
        let percent = { (value: Double) in (value >= 1 ? "+" : "") + ((value - 1) * 100).formatted(decimals: 1) + "%" }
        return "\(percent(ratio.ratio)) (\(percent(ratio.low)) to \(percent(ratio.high)))"
    }

    static func open(_ path: String) throws -> ResultStore {
        try ResultsDatabase.open(path, readOnly: true)
    }

    /// The two batches, named or implied, each checked to exist.
    private func names(_ baseStore: ResultStore, _ newStore: ResultStore) throws -> (String, String) {
        let baseNames = try baseStore.batchNames()
        let newNames = databases.count == 2 ? try newStore.batchNames() : baseNames
        func pick(_ given: String?, _ names: [String], in path: String, excluding other: String?, role: String) throws -> String {
            if let given {
                guard names.contains(given) else {
                    throw CommandFailure("no batch named \(given) in \(path) (its batches: \(names.prefix(10).joined(separator: ", ")))".printable)
                }
                return given
            }
            let candidates = names.filter { $0 != other }
            guard candidates.count == 1 else {
                throw CommandFailure("\(path) holds \(names.count) batches (\(names.prefix(10).joined(separator: ", "))): name the \(role) with --\(role == "baseline" ? "baseline" : "batch")".printable)
            }
            return candidates[0]
        }
        let base = try pick(baseline, baseNames, in: baseStore.location.description, excluding: databases.count == 1 ? batch : nil, role: "baseline")
        let new = try pick(batch, newNames, in: newStore.location.description, excluding: databases.count == 1 ? base : nil, role: "new batch")
        if databases.count == 1, base == new { throw ValidationError("--baseline and --batch name the same batch, \(base)") }
        if databases.count == 2, base == new, baseStore.identity == newStore.identity {
            throw ValidationError("\(baseStore.location) and \(newStore.location) are one database, and both batches are \(base): that compares a batch with itself".printable)
        }
        return (base, new)
    }

    /// The caveats of the two batches' records; none where either has no record (a separate
    /// sink's database), which `warnOfDifferences` says.
    static func caveats(
        _ baseline: (store: ResultStore, batch: String, spread: RunSpread), _ new: (store: ResultStore, batch: String, spread: RunSpread), threshold: Double
    ) -> [ComparisonCaveat] {
        func side(_ role: String, _ given: (store: ResultStore, batch: String, spread: RunSpread)) -> ComparisonCaveat.Side? {
            guard let record = (try? given.store.batches())?.first(where: { $0.batch == given.batch }) else { return nil }
            let machines = ((try? given.store.machines(batch: given.batch)) ?? []).map(\.machine)
            return ComparisonCaveat.Side(role: role, batch: record, machines: machines, spread: given.spread)
        }
        guard let before = side("baseline", baseline), let after = side("new batch", new) else { return [] }
        return ComparisonCaveat.find(before, after, threshold: threshold)
    }

    /// Different hosts, builds or revisions are compared, but said.
    private func warnOfDifferences(_ baseStore: ResultStore, _ base: String, _ newStore: ResultStore, _ new: String) {
        guard let before = (try? baseStore.batches())?.first(where: { $0.batch == base }),
              let after = (try? newStore.batches())?.first(where: { $0.batch == new })
        else {
            StandardError.write("compare: warning: no record of where \(base) or \(new) ran (a separate sink's database): host, build and revision not checked".printable + "\n")
            return
        }
        var differences: [String] = []
        let models = { (store: ResultStore, batch: String) in Set(((try? store.machines(batch: batch)) ?? []).map(\.machine.cpuModel)) }
        let (modelsBefore, modelsAfter) = (models(baseStore, base), models(newStore, new))
        // Workers' CPUs, where both batches recorded them (MachineRecord): the strongest reason
        // two batches' times differ.
        if !modelsBefore.isEmpty, !modelsAfter.isEmpty, modelsBefore != modelsAfter {
            differences.append("CPU models (\(modelsBefore.sorted().joined(separator: " + ")) and \(modelsAfter.sorted().joined(separator: " + ")))")
        }
        if before.host != after.host { differences.append("hosts \(before.host) and \(after.host)") }
        if before.cores != after.cores { differences.append("\(before.cores) and \(after.cores) cores") }
        if before.configuration != after.configuration { differences.append("\(before.configuration) and \(after.configuration) builds") }
        if before.revision != after.revision { differences.append("revisions \(before.revision) and \(after.revision)") }
        if !differences.isEmpty {
            StandardError.write("compare: warning: the batches ran on different \(differences.joined(separator: ", ")): part of any change may be theirs".printable + "\n")
        }
    }
}
