// A batch's recipe (BatchRecipe) as `report` prints it under the batch's line and as the
// batches table exports it: the command that runs it again, how it was measured, the load
// around it, and each outside solver with its version.

import Foundation
import GridlockCluster
import GridlockCore
import GridlockWire

enum RecipeText {
    /// A batch as every report describes it: where and how it ran, its limits, then its recipe.
    static func batchLines(_ batch: BatchRecord) -> [String] {
        let head = "batch \(batch.batch): \(batch.jobs) jobs, started \(batch.started) on \(batch.host) (\(batch.cores) cores), "
            + "\(batch.configuration) build, revision \(batch.revision), solvers \(batch.solvers), limits \(batch.limitsText ?? "none")"
        return [head.printable] + lines(batch)
    }

    /// The lines under a batch's line; one saying there is no recipe for a batch recorded
    /// before them.
    static func lines(_ batch: BatchRecord) -> [String] {
        guard let recipe = batch.recipe else { return ["  (recorded before batches kept their recipe: `gridlock rerun` cannot repeat it)"] }
        var lines = ["  command: " + commandLine(recipe)]
        lines.append("  measured: " + measurement(recipe, cores: batch.cores))
        if let security = recipe.security { lines.append("  wire: " + security.summary) }
        if let quarantined = recipe.quarantined { lines.append("  quarantined (given no more jobs): " + quarantined.joined(separator: "; ")) }
        for solver in recipe.outsideSolvers {
            lines.append("  outside solver \(solver.kind):\(solver.name)\(solver.serving ? " (serving)" : ""): \(solver.command); version: \(solver.version ?? "none printed")")
        }
        return lines.map(\.printable)
    }

    /// "gridlock batch --solver bfs --paired /data/a.txt", each argument quoted for a POSIX shell
    /// where it needs to be; "(N files left out)" where the record holds none.
    static func commandLine(_ recipe: BatchRecipe) -> String {
        let files = recipe.files.isEmpty ? ["(its files were too many to record)"] : recipe.files.map(shellQuoted)
        return (["gridlock", "batch"] + recipe.options.map(shellQuoted) + files).joined(separator: " ")
    }

    /// "rushhour:ext=./ext (version: ext 1.2); ..." for the batches table's export.
    static func outsideSolvers(_ recipe: BatchRecipe) -> String {
        recipe.outsideSolvers.map { "\($0.kind):\($0.name)=\($0.command)\($0.serving ? " (serving)" : "") (version: \($0.version ?? "none"))" }
            .joined(separator: "; ")
    }

    /// "2 workers, pinned one CPU each, paired, 3 repeats; load 0.42 at start, 1.90 at end on 2 cores".
    static func measurement(_ recipe: BatchRecipe, cores: Int) -> String {
        var parts: [String] = []
        if recipe.workers > 0 { parts.append("\(recipe.workers) workers") }
        parts.append(recipe.pinning.map { "pinned \($0)" } ?? "not pinned")
        parts.append(recipe.paired ? "paired" : "not paired")
        parts.append(recipe.repeats == 1 ? "1 run a job" : "\(recipe.repeats) runs a job")
        let load = "load \(recipe.loadAtStart.formatted(decimals: 2)) at start, "
            + (recipe.loadAtEnd.map { "\($0.formatted(decimals: 2)) at end" } ?? "end not recorded") + " on \(cores) cores"
        return parts.joined(separator: ", ") + "; " + load
    }

    /// The text as one shell word: bare when it holds only characters no shell treats specially.
    static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./:=,@+%".unicodeScalars.contains(scalar))
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
