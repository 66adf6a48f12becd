// `--time cpu|wall`: the one time a report's scores, ratios and charts are of (issue 43).

import ArgumentParser
import GridlockKinds

extension TimeBasis: ExpressibleByArgument {}

struct TimeOption: ParsableArguments {
    @Option(
        name: .customLong("time"),
        help: "The time that PAR-2, the virtual best solver, the ratios and the charts are of: cpu (the solver's own CPU time, steadier on a loaded machine) or wall. Every table names it.")
    var basis: TimeBasis = .cpu
}
