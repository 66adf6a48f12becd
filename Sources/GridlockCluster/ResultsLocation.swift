// Where a results database is, as `--db` names it: a SQLite file's path, or a PostgreSQL URL
// (postgresql://user@host:port/dbname, as libpq writes it). Parsed here, without the client,
// so that a build without PostgreSQL still reads the URL and says what it lacks, and no
// message ever prints a password.

import Foundation
import GridlockCore

public enum ResultsLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresURL)

    /// A `postgresql://` or `postgres://` URL is PostgreSQL; anything else is a SQLite path
    /// (a file named like a URL of another scheme is refused rather than created).
    public init(_ text: String) throws {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") {
            self = .postgres(try PostgresURL(text))
        } else if let scheme = lowered.range(of: "://").map({ lowered[..<$0.lowerBound] }), !scheme.isEmpty,
                  scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
            throw ResultsLocationError("--db \(String(text.prefix(40)).printable): a \(scheme):// database is not one gridlock keeps results in; give a SQLite file's path or a postgresql:// URL")
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): url.description
        }
    }
}

/// A `--db` that names no database gridlock can keep results in.
public struct ResultsLocationError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// A PostgreSQL connection URL: who, where (a host and port, or a Unix socket's directory),
/// which database, whether TLS is needed, how long to wait. The password may be in the URL or
/// in PGPASSWORD (preferred: a command line shows in `ps`); it is kept but never printed.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    public enum TLS: String, Sendable, Hashable, CaseIterable {
        /// Never: a server on loopback or a socket.
        case disable
        /// If the server offers it.
        case prefer
        /// Always, refusing a server without it.
        case require
    }

    public var user: String
    public var password: String?
    /// A host name or address, or, starting with `/`, the directory of the server's socket.
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLS
    /// How long any one statement may take before the store gives up, naming the URL: a
    /// stopped or unreachable server is an error, not a sink that waits forever.
    public var timeoutSeconds: Double

    public var socketDirectory: String? { host.hasPrefix("/") ? host : nil }

    /// Parses libpq's URL form: `postgresql://[user[:password]@][host][:port][/dbname][?param=value&...]`,
    /// with `host=/socket/dir`, `port`, `user`, `password`, `dbname`, `sslmode` and
    /// `connect_timeout` among the parameters (each overrides the part it names). Percent
    /// escapes are decoded. Unknown parameters are refused, naming them, not ignored.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let shown = Self.redacted(text)
        func refuse(_ why: String) -> ResultsLocationError { ResultsLocationError("--db \(shown): \(why)") }
        guard let components = URLComponents(string: text) else {
            throw refuse("not a URL (is a character in the password not percent-encoded? write @ as %40, # as %23, / as %2F)")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgresql" || scheme == "postgres" else {
            throw refuse("not a postgresql:// URL")
        }
        user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
        host = components.percentEncodedHost.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        port = components.port ?? 5432
        let path = components.percentEncodedPath.removingPercentEncoding ?? ""
        database = path.hasPrefix("/") ? String(path.dropFirst()) : path
        tls = .prefer
        timeoutSeconds = 60
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "host": host = value
            case "port":
                guard let number = Int(value), (1...65_535).contains(number) else { throw refuse("port \(value.printable) is not from 1 to 65535") }
                port = number
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "sslmode":
                guard let mode = TLS(rawValue: value) else {
                    throw refuse("sslmode \(value.printable) is not one of \(TLS.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = mode
            case "connect_timeout", "timeout":
                guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                    throw refuse("\(item.name) \(value.printable) is not a number of seconds from 1 to 86400")
                }
                timeoutSeconds = seconds
            default:
                throw refuse("unknown parameter '\(item.name.printable)' (known: host, port, user, password, dbname, sslmode, connect_timeout)")
            }
        }
        if database.isEmpty { database = user }
        guard !host.isEmpty else { throw refuse("no host") }
        guard !user.isEmpty else { throw refuse("no user") }
        guard !database.contains("/") else { throw refuse("the database name \(database.printable) holds a /") }
    }

    /// Whether results and the password would cross a network in the clear: TLS turned off
    /// towards a host that is not this machine. Not refused (a private network may be
    /// trusted), but the opener says so.
    public var sendsInTheClear: Bool {
        socketDirectory == nil && tls == .disable && !(host == "localhost" || host == "::1" || host.hasPrefix("127."))
    }

    /// `postgresql://user@host:port/dbname`, with the socket directory as libpq writes it and
    /// never the password.
    public var description: String {
        let user = user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? user
        let database = database.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? database
        if let socketDirectory {
            return "postgresql://\(user)@/\(database)?host=\(socketDirectory)".printable
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgresql://\(user)@\(shownHost):\(port)/\(database)".printable
    }

    /// The text with whatever sits between `://user:` and `@`, or after `password=`, blanked:
    /// for the messages about a URL that did not parse.
    static func redacted(_ text: String) -> String {
        var shown = text
        if let scheme = shown.range(of: "://"), let at = shown[scheme.upperBound...].lastIndex(of: "@"),
           let colon = shown[scheme.upperBound..<at].firstIndex(of: ":") {
            shown.replaceSubrange(shown.index(after: colon)..<at, with: "***")
        }
        if let key = shown.range(of: "password=") {
            let end = shown[key.upperBound...].firstIndex(of: "&") ?? shown.endIndex
            shown.replaceSubrange(key.upperBound..<end, with: "***")
        }
        return String(shown.prefix(200)).printable
    }
}
