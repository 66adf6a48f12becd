// The one way a command opens its results database from `--db` (or a positional argument):
// a SQLite file's path, or a PostgreSQL URL where the build has PostgreSQL.

import ArgumentParser
import Foundation
import GridlockCluster
import GridlockCore
#if PostgreSQL
import GridlockPostgres
#endif

enum ResultsDatabase {
    /// The help text's words for what `--db` takes.
    static let help = "The results database: a SQLite file, or a postgresql:// URL (in a build with PostgreSQL; password in PGPASSWORD)."

    /// Opens the store `text` names. A reader (`readOnly`) never creates one: a SQLite file
    /// that is not there is "no such database", not an empty one made for it.
    static func open(_ text: String, readOnly: Bool) throws -> ResultStore {
        switch try location(text) {
        case .sqlite(let path):
            if readOnly, !FileManager.default.fileExists(atPath: path) { throw ValidationError("no such database: \(path)".printable) }
            return try ResultStore(path: path, readOnly: readOnly)
        case .postgres(let url):
            if url.sendsInTheClear {
                StandardError.write("gridlock: warning: \(url) has sslmode=disable: results and the password cross the network in the clear\n")
            }
            #if PostgreSQL
            return ResultStore(backend: try PostgresResults(url, readOnly: readOnly))
            #else
            throw withoutPostgres(url)
            #endif
        }
    }

    /// Refuses, before anything starts, a `--db` this build cannot open: a URL that does not
    /// parse (64), or PostgreSQL in a build without it (1).
    static func check(_ text: String) throws {
        guard case .postgres(let url) = try location(text) else { return }
        #if !PostgreSQL
        throw withoutPostgres(url)
        #else
        _ = url
        #endif
    }

    private static func withoutPostgres(_ url: PostgresURL) -> CommandFailure {
        CommandFailure("\(url): this gridlock was built without PostgreSQL; build it with `swift build -c release --traits PostgreSQL` (docs/postgresql.md)")
    }

    /// Where `text` says the results are; a URL that does not parse is a usage error (64).
    static func location(_ text: String) throws -> ResultsLocation {
        do {
            return try ResultsLocation(text)
        } catch let error as ResultsLocationError {
            throw ValidationError(error.description)
        }
    }

    /// Whether `text` names a store that already exists (a SQLite file that is there, or any
    /// PostgreSQL database, which the server keeps), so that its batch names can be read.
    static func exists(_ text: String) -> Bool {
        switch try? ResultsLocation(text) {
        case .sqlite(let path): FileManager.default.fileExists(atPath: path)
        case .postgres: true
        case nil: false
        }
    }

    /// The files a SQLite database keeps beside it (none for PostgreSQL): what an `-o` file
    /// must not be.
    static func files(_ text: String) -> [String] {
        guard case .sqlite(let path) = try? ResultsLocation(text) else { return [] }
        return [path, path + "-wal", path + "-shm"]
    }
}
