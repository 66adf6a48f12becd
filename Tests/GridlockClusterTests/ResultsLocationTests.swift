// `--db` as a path or a PostgreSQL URL: what each part means, what is refused, and that no
// message ever shows the password.

import GridlockCluster
import Testing

struct ResultsLocationTests {
    private let noEnvironment: [String: String] = [:]

    @Test("a path is SQLite, whatever it is called; a postgresql:// or postgres:// URL is PostgreSQL")
    func pathOrURL() throws {
        #expect(try ResultsLocation("results.sqlite") == .sqlite(path: "results.sqlite"))
        #expect(try ResultsLocation("/tmp/a b/postgres.db") == .sqlite(path: "/tmp/a b/postgres.db"))
        guard case .postgres = try ResultsLocation("postgresql://u@h/d") else { Issue.record("not PostgreSQL"); return }
        guard case .postgres = try ResultsLocation("POSTGRES://u@h/d") else { Issue.record("not PostgreSQL"); return }
    }

    @Test("a URL of another scheme is refused, not created as a file of that name")
    func otherSchemes() {
        #expect(throws: ResultsLocationError.self) { try ResultsLocation("mysql://u@h/d") }
        #expect(throws: ResultsLocationError.self) { try ResultsLocation("sqlite:///tmp/x.sqlite") }
    }

    @Test("user, password, host, port and database, percent escapes decoded")
    func parts() throws {
        let url = try PostgresURL("postgresql://al%40ice:p%40ss%23word@db.example.org:6543/team%20results", environment: noEnvironment)
        #expect(url.user == "al@ice")
        #expect(url.password == "p@ss#word")
        #expect(url.host == "db.example.org")
        #expect(url.port == 6543)
        #expect(url.database == "team results")
        #expect(url.tls == .prefer)
        #expect(url.socketDirectory == nil)
    }

    @Test("libpq's defaults: port 5432, the database named after the user, the password from PGPASSWORD, no host the local socket")
    func defaults() throws {
        let url = try PostgresURL("postgresql://bob@localhost", environment: ["PGPASSWORD": "secret"])
        #expect(url.port == 5432)
        #expect(url.database == "bob")
        #expect(url.password == "secret")
        #expect(url.statementSeconds == 120)
        let named = try PostgresURL("postgresql:///results", environment: ["PGUSER": "carol"])
        #expect(named.user == "carol")
        #expect(named.socketDirectory == "/var/run/postgresql")
        let fromEnvironment = try PostgresURL("postgresql://", environment: ["PGUSER": "dan", "PGHOST": "db", "PGPORT": "6000", "PGDATABASE": "r"])
        #expect(fromEnvironment.description == "postgresql://dan@db:6000/r")
    }

    @Test("an IPv6 address, its brackets only in the URL")
    func ipv6() throws {
        let url = try PostgresURL("postgresql://u@[::1]:5433/d?sslmode=disable", environment: noEnvironment)
        #expect(url.host == "::1")
        #expect(url.port == 5433)
        #expect(url.description == "postgresql://u@[::1]:5433/d")
        #expect(!url.sendsInTheClear)
    }

    @Test("a socket directory as ?host=, the parameters override the parts they name")
    func parameters() throws {
        let url = try PostgresURL(
            "postgresql://u@ignored:1/d?host=/run/pg&port=5433&dbname=other&sslmode=require&connect_timeout=5", environment: noEnvironment)
        #expect(url.socketDirectory == "/run/pg")
        #expect(url.port == 5433)
        #expect(url.database == "other")
        #expect(url.tls == .require)
        #expect(url.connectSeconds == 5)
        #expect(url.statementSeconds == 120)
        #expect(try PostgresURL("postgresql://u@h/d?timeout=30", environment: noEnvironment).statementSeconds == 30)
    }

    @Test("bad ports, modes, timeouts and unknown parameters are refused, naming what is wrong", arguments: [
        ("postgresql://u@h/d?port=0", "port 0"),
        ("postgresql://u@h/d?port=70000", "port 70000"),
        ("postgresql://u@h/d?sslmode=verify-ca", "sslmode verify-ca"),
        ("postgresql://u@h/d?connect_timeout=-1", "connect_timeout -1"),
        ("postgresql://u@h/d?connect_timeout=nan", "connect_timeout nan"),
        ("postgresql://u@h/d?application_name=x", "unknown parameter 'application_name'"),
        ("postgresql://u@h/a/b", "holds a /"),
        ("postgresql://u@h:70000/d", "port 70000"),
        ("postgresql://u@h:99999999999999999999/d", "port"),
        ("postgresql://u@h/d?timeout=0.5", "timeout 0.5"),
    ])
    func refused(text: String, reason: String) {
        do {
            _ = try PostgresURL(text, environment: noEnvironment)
            Issue.record("\(text) was taken")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
    }

    @Test("the password is never shown: not in the description, not in a refusal")
    func passwordNeverShown() throws {
        let url = try PostgresURL("postgresql://u:hunter2@h:5432/d?sslmode=disable", environment: noEnvironment)
        #expect(url.password == "hunter2")
        #expect(url.description == "postgresql://u@h:5432/d")
        #expect(!"\(ResultsLocation.postgres(url))".contains("hunter2"))
        for text in ["postgresql://u:hunter2@h/d?port=0", "postgresql://u@h/d?password=hunter2&bogus=1", "postgresql://u:hunter2@h/d?sslmode=x",
                     "postgresql://u@h/d?Password=hunter2&PASSWORD=hunter2", "postgressql://u:hunter2@h/d", "postgresql:/u:hunter2@h/d"] {
            do {
                _ = try ResultsLocation(text)
                Issue.record("\(text) was taken")
            } catch {
                #expect(!"\(error)".contains("hunter2"), "\(error)")
            }
            #expect(!ResultsLocation.shown(text).contains("hunter2"), "\(ResultsLocation.shown(text))")
        }
    }

    @Test("in the clear only where TLS is off towards another machine")
    func inTheClear() throws {
        #expect(try PostgresURL("postgresql://u@db.example.org/d?sslmode=disable", environment: noEnvironment).sendsInTheClear)
        #expect(try !PostgresURL("postgresql://u@127.0.0.1/d?sslmode=disable", environment: noEnvironment).sendsInTheClear)
        #expect(try !PostgresURL("postgresql://u@/d?host=/run/pg&sslmode=disable", environment: noEnvironment).sendsInTheClear)
        #expect(try !PostgresURL("postgresql://u@db.example.org/d", environment: noEnvironment).sendsInTheClear)
    }

    @Test("a socket directory is shown as libpq writes it")
    func socketShown() throws {
        #expect(try PostgresURL("postgresql://u@/d?host=/run/pg", environment: noEnvironment).description == "postgresql://u@/d?host=/run/pg")
    }
}
