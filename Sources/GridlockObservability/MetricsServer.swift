// The HTTP endpoint of `--metrics ADDRESS`: GET /metrics (Prometheus text format), /healthz and
// /readyz (200 or 503 with the reason). FlyingFox serves it on Swift concurrency's own threads;
// the role's socket loops stay on theirs. Requests time out after 5 s, so a client that opens a
// connection and sends nothing holds nothing for long.

import FlyingFox
import FlyingSocks
import Foundation

public final class MetricsServer: @unchecked Sendable {
    private let server: HTTPServer
    private let task: Task<Void, Never>
    /// The address it listens on, with the port resolved (for `:0`).
    public let address: String

    /// Starts serving `metrics` and `health` at `address` ("host:port", "[v6]:port" or ":port"
    /// for every interface); throws when the address is bad or cannot be bound.
    public init(address parsed: MetricsAddress, metrics: RoleMetrics, health: RoleHealth) throws {
        let text = parsed.text
        let socketAddress: any SocketAddress = switch parsed.host {
        case nil: sockaddr_in6.inet6(port: parsed.port)
        case .v4(let host)?: try sockaddr_in.inet(ip4: host, port: parsed.port)
        case .v6(let host)?: try sockaddr_in6.inet6(ip6: host, port: parsed.port)
        }
        // Its own log lines would repeat, unasked, what the error thrown here says.
        let server = HTTPServer(address: socketAddress, timeout: 5, logger: .disabled)
        self.server = server
        let failure = Locked<String?>(nil)
        // Signalled once listening, or as soon as serving fails (a taken port): whichever first.
        let settled = DispatchSemaphore(value: 0)
        task = Task {
            await server.appendRoute("GET /metrics") { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: Data(metrics.text().utf8))
            }
            await server.appendRoute("GET /healthz") { _ in Self.answer(health.livenessProblem()) }
            await server.appendRoute("GET /readyz") { _ in Self.answer(health.readinessProblem()) }
            do {
                try await server.run()
            } catch SocketError.failed(let call, _, let message) {
                failure.set("\(call.lowercased()): \(message)")
            } catch {
                failure.set("\(error)")
            }
            settled.signal()
        }
        let waited = Locked<String?>(nil)
        Task {
            do {
                try await server.waitUntilListening(timeout: 5)
            } catch {
                waited.set("not listening after 5 s")
            }
            settled.signal()
        }
        settled.wait()
        if let problem = failure.get() ?? waited.get() {
            task.cancel()
            throw MetricsServer.Failure(description: "cannot serve metrics on \(text): \(problem)")
        }
        address = Self.describe(server, fallback: text)
    }

    /// The address could not be bound (it is taken, or not this machine's).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Stops serving; waits up to a second for open requests.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        let server = self.server
        Task {
            await server.stop(timeout: 1)
            done.signal()
        }
        _ = done.wait(timeout: .now() + 2)
        task.cancel()
    }

    private static func answer(_ problem: String?) -> HTTPResponse {
        HTTPResponse(statusCode: problem == nil ? .ok : .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                     body: Data(((problem ?? "ok") + "\n").utf8))
    }

    private static func describe(_ server: HTTPServer, fallback: String) -> String {
        let result = Locked<String>(fallback)
        let done = DispatchSemaphore(value: 0)
        Task {
            switch await server.listeningAddress {
            case .ip4(let host, let port)?: result.set("\(host):\(port)")
            case .ip6(let host, let port)?: result.set("[\(host)]:\(port)")
            default: break
            }
            done.signal()
        }
        done.wait()
        return result.get()
    }
}

/// `--metrics`'s address: "host:port" (IPv4 address or `localhost`), "[v6]:port", or ":port"
/// (every interface).
public struct MetricsAddress: Sendable, Hashable {
    public enum Host: Sendable, Hashable {
        case v4(String)
        case v6(String)
    }

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public var host: Host?
    public var port: UInt16
    /// As the user wrote it.
    public var text: String

    public init(_ text: String) throws {
        self.text = text
        let bad = Problem(description: "--metrics \(text): expected HOST:PORT (an IPv4 address or localhost), [IPv6]:PORT or :PORT (every interface), e.g. 127.0.0.1:9100")
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { throw bad }
        self.port = port
        let host = text[..<colon]
        if host.isEmpty {
            self.host = nil
        } else if host.hasPrefix("["), host.hasSuffix("]"), host.count > 2 {
            self.host = .v6(String(host.dropFirst().dropLast()))
        } else if host == "localhost" {
            self.host = .v4("127.0.0.1")
        } else {
            let octets = host.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { throw bad }
            self.host = .v4(String(host))
        }
    }
}

/// A value shared between a Task and the thread waiting for it.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
