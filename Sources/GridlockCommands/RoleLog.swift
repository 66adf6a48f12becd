// `--log-format` of the roles, and the logger their lines go through (RoleLogHandler: time,
// level, role; text or one JSON object a line).

import ArgumentParser
import GridlockObservability
import Logging

extension LogFormat: ExpressibleByArgument {}

struct LogFormatOption: ParsableArguments {
    @Option(help: "How log lines are written to standard error: text (time, level, role, message) or json (one object a line, for a log collector).")
    var logFormat: LogFormat = .text

    func logger(role: String) -> Logger {
        let format = logFormat
        return Logger(label: "gridlock.\(role)") { _ in RoleLogHandler(role: role, format: format) }
    }

    /// Runs a role's body; with JSON logs, whatever stops it (a bad option value, an
    /// unreadable file, a failure later) is logged as a JSON error line, and the process exits
    /// as it would have (64 for bad usage, 1 otherwise), so a log collector sees why. Only
    /// flags that cannot be parsed at all are answered as usage text, before any role starts.
    func run<T>(_ logger: Logger, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let exit as ExitCode {
            throw exit
        } catch let usage as ValidationError where logFormat == .json {
            logger.error("\(usage.message)")
            throw ExitCode.validationFailure
        } catch where logFormat == .json {
            logger.error("\(error)")
            throw ExitCode.failure
        }
    }
}

extension ProgressLine {
    /// The line as a log record where no terminal shows it in place (or logs are JSON).
    static func logged(_ logger: Logger, format: LogFormat) -> ProgressLine {
        ProgressLine(log: { logger.info("\($0)") }, inPlace: format == .text && StandardError.isTerminal)
    }
}
