// `gridlock rerun`: runs a batch again from its record alone (BatchRecipe): the same files,
// solvers, outside solvers' commands, limits, workers, pinning, pairing and repeats, as a new
// batch beside the first, so `compare` can set the two side by side.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore
import GridlockWire

struct RerunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rerun",
        abstract: "Run a recorded batch again, from what its database recorded of it, as a new batch.",
        usage: "gridlock rerun <database> [--batch <name>] [--as <name>] [<options>]",
        discussion: """
            Every batch records what it takes to run it again: its files, its solvers and every \
            outside solver's command (and the first line its --version printed), its limits, \
            --workers, --pin, --paired and --repeats (`gridlock report` prints it as "command:"). \
            rerun runs `gridlock batch` with exactly those, into the same database unless --db \
            names another, as a batch named after the first (NAME-rerun, -rerun-2, ...) unless \
            --as names it. An outside solver whose --version now prints another line is run \
            anyway, with a warning: the comparison is then between two builds.

            A batch recorded before recipes, one that read standard input, or one of more files \
            than its record holds cannot be rerun; the error says which.

            The outside solvers' commands run as the database recorded them, through /bin/sh: \
            rerun only databases you trust. --dry-run prints what would run, and runs nothing.

            Examples:
              gridlock batch data/samples/unblockme.txt --db r.sqlite --batch first
              gridlock rerun r.sqlite --batch first --as second
              gridlock compare r.sqlite --baseline first --batch second

            Exit status: as `gridlock batch`; 1 also when the batch cannot be rerun.
            """
    )

    @Argument(help: "The results database holding the batch.", completion: .file(extensions: ["sqlite", "db"]))
    var database: String

    @Option(help: "The batch to run again (default: the database's only batch).")
    var batch: String?

    @Option(name: .customLong("as"), help: "The new batch's name (default: the first's with -rerun).")
    var newName: String?

    @Option(help: "The database the new batch goes to (default: the one read).")
    var db: String?

    @Flag(help: "Print the command the rerun would run, and run nothing.")
    var dryRun = false

    func validate() throws {
        if let newName { try BatchName.check(newName) }
    }

    func run() throws {
        let store = try CompareCommand.open(database)
        let recorded = try store.batches()
        let name = try batch ?? Self.onlyBatch(recorded, in: store.location.description)
        guard let environment = recorded.first(where: { $0.batch == name }) else {
            throw CommandFailure("no batch named \(name) in \(store.location) (its batches: \(recorded.prefix(10).map(\.batch).joined(separator: ", ")))".printable)
        }
        let recipe = try Self.replayable(environment)
        let target = db ?? database
        // As messages show it: a URL's password is never printed (the batch reads PGPASSWORD).
        let shownTarget = ResultsLocation.shown(target)
        // The target's batches, read without making the file: a dry run writes nothing.
        let taken = ResultsDatabase.exists(target) ? Set(try CompareCommand.open(target).batchNames()) : []
        let fresh = newName ?? Self.freshName(after: name, taken: taken)
        // A name the target has would resume that batch (and, finished, solve nothing).
        if taken.contains(fresh) {
            throw CommandFailure("\(shownTarget) has a batch named \(fresh) already: name the rerun with another --as".printable)
        }
        // The files after "--": a recorded path that begins with '-' is a file, not an option.
        let arguments = recipe.options + ["--db", target, "--batch", fresh, "--"] + recipe.files
        let shownArguments = recipe.options + ["--db", shownTarget, "--batch", fresh, "--"] + recipe.files
        StandardError.write("rerun: gridlock batch \(shownArguments.map(RecipeText.shellQuoted).joined(separator: " "))".printable + "\n")
        // Nothing of the record runs before this: not even an outside solver's --version.
        if dryRun { return }
        for solver in recipe.outsideSolvers {
            let now = OutsideSolverVersion.ask(solver.command)
            if let was = solver.version, now != was {
                StandardError.write("rerun: warning: \(solver.name)'s --version said '\(was)' then and says \(now.map { "'\($0)'" } ?? "nothing") now: the two batches ran different builds of it".printable + "\n")
            }
        }
        var command: BatchCommand
        do {
            command = try BatchCommand.parse(arguments)
        } catch {
            throw CommandFailure("batch \(name)'s recorded options no longer parse: \(BatchCommand.message(for: error))".printable)
        }
        try command.validate()
        try command.run()
    }

    /// The recipe, if the batch can be run from it alone; else why not.
    static func replayable(_ batch: BatchRecord) throws -> BatchRecipe {
        guard let recipe = batch.recipe else {
            throw CommandFailure("""
                batch \(batch.batch) was recorded before batches kept what it takes to run them again: its record says only solvers \
                \(batch.solvers), limits \(batch.limitsText ?? "none"); run `gridlock batch` with those yourself
                """.printable)
        }
        guard !recipe.files.isEmpty else {
            throw CommandFailure("batch \(batch.batch) read more files than its record holds: run `gridlock batch \(recipe.options.map(RecipeText.shellQuoted).joined(separator: " ")) FILES...` yourself".printable)
        }
        if recipe.files.contains("-") {
            throw CommandFailure("batch \(batch.batch) read its puzzles from standard input, which no record keeps: pipe the same puzzles to `\(RecipeText.commandLine(recipe))`".printable)
        }
        let missing = recipe.files.filter { !FileManager.default.fileExists(atPath: $0) }
        guard missing.isEmpty else {
            throw CommandFailure("batch \(batch.batch)'s input is gone: \(missing.prefix(5).joined(separator: ", "))\(missing.count > 5 ? " and \(missing.count - 5) more" : "")".printable)
        }
        return recipe
    }

    static func onlyBatch(_ batches: [BatchRecord], in path: String) throws -> String {
        guard batches.count == 1 else {
            throw CommandFailure("\(path) holds \(batches.count) recorded batches (\(batches.prefix(10).map(\.batch).joined(separator: ", "))): name one with --batch".printable)
        }
        return batches[0].batch
    }

    /// NAME-rerun, else NAME-rerun-2, -3, ...: a name no batch of the target has, at most a
    /// name long.
    static func freshName(after name: String, taken: Set<String>) -> String {
        BatchName.unused(String(decoding: Array(name.utf8.prefix(BatchName.maximumBytes - 16)), as: UTF8.self) + "-rerun", taken: taken)
    }
}
