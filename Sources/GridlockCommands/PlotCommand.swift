// `gridlock plot cactus|scatter DB -o FILE.svg`: the competitions' plots as SVG files, for
// papers (the HTML report draws the same ones).

import ArgumentParser
import Foundation
import GridlockCharts
import GridlockCluster
import GridlockWire

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a cactus plot or a per-puzzle scatter plot of solvers as SVG.",
        usage: "gridlock plot cactus|scatter <db> -o <file.svg> [<options>]",
        discussion: """
            cactus: one line per solver of a kind, its right answers' times sorted: a line that \
            reaches further right solved more puzzles, one lower solved them faster (time on a \
            log scale). scatter: one dot per puzzle, the first solver's time across and the \
            second's up (log-log), with the diagonal, the 2x lines and, when the batch had one, \
            the limit; a puzzle a solver did not answer right sits past the limit (at twice it, \
            or at twice the slowest time without a limit), in red. Times are of --time: CPU \
            time by default, or wall, as report's scores take them.

            Examples:
              gridlock plot cactus DB -o cactus.svg
              gridlock plot scatter DB --solvers bfs,reference -o scatter.svg

            Exit status: 0 written; 1 the database, batch or solvers hold nothing to draw, or \
            the file cannot be written; 64 bad usage.
            """)

    enum Plot: String, ExpressibleByArgument, CaseIterable {
        case cactus, scatter
    }

    @Argument(help: "cactus or scatter.")
    var plot: Plot

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The kind whose solvers are drawn (default: the first kind in the database).")
    var kind: PuzzleKind?

    @Option(help: "scatter: the two solvers, across then up (default: the kind's first two).")
    var solvers: String?

    @Option(name: [.short, .customLong("output")], help: "The SVG file to write.", completion: .file(extensions: ["svg"]))
    var output: String

    func validate() throws {
        if let solvers, solvers.split(separator: ",").count != 2 { throw ValidationError("--solvers takes two solvers: --solvers bfs,bidirectional") }
        if solvers != nil, plot == .cactus { throw ValidationError("--solvers is for scatter; a cactus plot draws every solver of the kind") }
    }

    @OptionGroup var time: TimeOption

    func run() throws {
        let store = try database.open()
        let names = solvers.map { $0.split(separator: ",").map(String.init) }.map { ($0[0], $0[1]) }
        let plots = try CompetitionPlots.read(store, batch: database.batch, kind: kind, pair: names, basis: time.basis)
        guard let kind = plots.kind, !plots.solvers.isEmpty else { throw CommandFailure("\(database.db) holds no job to draw\(self.kind.map { " of kind \($0.rawValue)" } ?? "")") }
        let svg: String
        switch plot {
        case .cactus:
            svg = CactusPlot.svg(plots.series, limit: plots.limit, chart: "cactus", title: "Puzzles solved against \(time.basis.label) time, \(kind.rawValue)".printable)
        case .scatter:
            let pair = names ?? (plots.solvers.count >= 2 ? (plots.solvers[0], plots.solvers[1]) : nil)
            guard let pair, plots.solvers.contains(pair.0), plots.solvers.contains(pair.1) else {
                throw CommandFailure("a scatter plot needs two \(kind.rawValue) solvers; \(database.db) has \(plots.solvers.joined(separator: ", "))".printable)
            }
            svg = PairScatterPlot.svg(plots.pairs, names: (pair.0.printable, pair.1.printable), limit: plots.limit, chart: "scatter",
                                      title: "\(pair.1) against \(pair.0), \(time.basis.label) time per puzzle".printable)
        }
        do {
            try OutputFile.write(Data(svg.utf8), to: output, inputs: database.files)
        } catch {
            throw CommandFailure("cannot write \(output): \(error)")
        }
    }
}
