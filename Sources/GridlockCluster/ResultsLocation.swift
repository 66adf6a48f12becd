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
        } else if lowered.hasPrefix("postgresql:") || lowered.hasPrefix("postgres:") {
            // Not a file to create under that name: a URL with a slash missing.
            throw ResultsLocationError("--db \(PostgresURL.redacted(text)): write a PostgreSQL URL as postgresql://USER@HOST/DATABASE")
        } else if let scheme = lowered.range(of: "://").map({ lowered[..<$0.lowerBound] }), !scheme.isEmpty,
                  scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
            throw ResultsLocationError("--db \(PostgresURL.redacted(text)): a \(scheme):// database is not one gridlock keeps results in; give a SQLite file's path or a postgresql:// URL")
        } else {
            self = .sqlite(path: text)
        }
    }

    /// How a `--db` text may be shown: a URL without its password, anything else as it is.
    public static func shown(_ text: String) -> String {
        (try? ResultsLocation(text))?.description ?? PostgresURL.redacted(text)
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
        /// If the server offers it, encrypted but its certificate unchecked (as libpq's).
        case prefer
        /// Always, refusing a server without it; the certificate unchecked (as libpq's).
        case require
        /// Always, the certificate checked against the system's authorities and the host name.
        case verifyFull = "verify-full"
    }

    public var user: String
    public var password: String?
    /// A host name or address, or, starting with `/`, the directory of the server's socket.
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLS
    /// How long connecting may take (libpq's connect_timeout; 30 s by default).
    public var connectSeconds: Double
    /// How long any one statement may take before the store gives up, naming the URL: a
    /// stopped or unreachable server is an error, not a sink that waits forever (gridlock's
    /// own `timeout`; 120 s by default, past the statements a healthy server takes on
    /// millions of rows).
    public var statementSeconds: Double

    public var socketDirectory: String? { host.hasPrefix("/") ? host : nil }

    /// Parses libpq's URL form: `postgresql://[user[:password]@][host][:port][/dbname][?param=value&...]`,
    /// with `host=/socket/dir`, `port`, `user`, `password`, `dbname`, `sslmode` and
    /// `connect_timeout` among the parameters (each overrides the part it names). Percent
    /// escapes are decoded. Unknown parameters are refused, naming them, not ignored.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let shown = Self.redacted(text)
        func refuse(_ why: String) -> ResultsLocationError { ResultsLocationError("--db \(shown): \(why)") }
        // Checked before URLComponents, which refuses a port past Int's range as no URL at all.
        if let match = text.range(of: #"^[^/]*//[^/?]*:[0-9]+(?=[/?]|$)"#, options: .regularExpression),
           let colon = text[match].lastIndex(of: ":") {
            let digits = text[text.index(after: colon)..<match.upperBound]
            guard let port = Int(digits), (1...65_535).contains(port) else { throw refuse("port \(digits.prefix(12)) is not from 1 to 65535") }
        }
        guard let components = URLComponents(string: text) else {
            throw refuse("not a URL (is a character in the password not percent-encoded? write @ as %40, # as %23, / as %2F)")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgresql" || scheme == "postgres" else {
            throw refuse("not a postgresql:// URL")
        }
        user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
        // An IPv6 address keeps its brackets in the URL, not in the address.
        let named = components.percentEncodedHost.flatMap { $0.removingPercentEncoding }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }
        // No host: libpq's, PGHOST, else the server's socket where Debian keeps it.
        host = named.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PGHOST"] ?? Self.defaultSocketDirectory
        if let port = components.port {
            self.port = port
        } else {
            port = environment["PGPORT"].flatMap(Int.init).flatMap { (1...65_535).contains($0) ? $0 : nil } ?? 5432
        }
        let path = components.percentEncodedPath.removingPercentEncoding ?? ""
        database = path.hasPrefix("/") ? String(path.dropFirst()) : path
        if database.isEmpty, let named = environment["PGDATABASE"] { database = named }
        tls = .prefer
        connectSeconds = 30
        statementSeconds = 120
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
                guard let seconds = Double(value), seconds.isFinite, seconds >= 1, seconds <= 86_400 else {
                    throw refuse("\(item.name) \(value.printable) is not a number of seconds from 1 to 86400")
                }
                if item.name == "timeout" { statementSeconds = seconds } else { connectSeconds = seconds }
            default:
                throw refuse("unknown parameter '\(item.name.printable)' (known: host, port, user, password, dbname, sslmode, connect_timeout, timeout)")
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
            return "postgresql://\(user)@/\(database)?host=\(socketDirectory)\(port == 5432 ? "" : "&port=\(port)")".printable
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgresql://\(user)@\(shownHost):\(port)/\(database)".printable
    }

    /// The text with whatever sits between `://user:` and `@`, or after `password=`, blanked:
    /// for the messages about a URL that did not parse.
    public static func redacted(_ text: String) -> String {
        var shown = text
        // After the scheme and however many slashes were typed ("postgresql:/u:pw@h" too).
        if let scheme = shown.firstIndex(of: ":"),
           case let start = shown[shown.index(after: scheme)...].firstIndex(where: { $0 != "/" }) ?? shown.endIndex,
           let at = shown[start...].lastIndex(of: "@"), let colon = shown[start..<at].firstIndex(of: ":") {
            shown.replaceSubrange(shown.index(after: colon)..<at, with: "***")
        }
        var from = shown.startIndex
        while let key = shown.range(of: "password=", options: .caseInsensitive, range: from..<shown.endIndex) {
            let end = shown[key.upperBound...].firstIndex(of: "&") ?? shown.endIndex
            shown.replaceSubrange(key.upperBound..<end, with: "***")
            from = shown.index(key.upperBound, offsetBy: 3)
        }
        return String(shown.prefix(200)).printable
    }

    /// Where Debian's server keeps its socket, when a URL names no host.
    static let defaultSocketDirectory = "/var/run/postgresql"
}
