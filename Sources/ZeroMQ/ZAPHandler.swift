// The ZeroMQ Authentication Protocol (ZAP, RFC 27) handler of one context. A CURVE server
// socket proves its own key, but on its own accepts any client key at all: libzmq asks the
// context's ZAP handler, at inproc://zeromq.zap.01, about each client's handshake, and refuses
// the connection when the handler says no. With no handler bound, it accepts everyone, so the
// handler must be running before any CURVE server socket binds.
//
// The handler runs on a thread of its own (a REP socket, polled with a timeout so it notices
// `stop`); what it answers is the caller's `decide`, a pure function of the request.

import CZeroMQ
import Foundation

/// One client's handshake, as libzmq describes it to the handler.
public struct ZAPRequest: Sendable, Hashable {
    /// The server socket's ZAP_DOMAIN: which socket is asking.
    public var domain: String
    /// The client's address ("127.0.0.1" for TCP; empty for IPC).
    public var address: String
    /// "CURVE", "PLAIN" or "NULL".
    public var mechanism: String
    /// The client's public key, for CURVE.
    public var publicKey: CurveKey?

    public init(domain: String, address: String, mechanism: String, publicKey: CurveKey?) {
        self.domain = domain
        self.address = address
        self.mechanism = mechanism
        self.publicKey = publicKey
    }
}

public enum ZAPDecision: Sendable, Hashable {
    /// The connection goes on; `user` is what the handler calls the client.
    case allow(user: String)
    /// The connection is closed; `reason` is the status text.
    case deny(reason: String)
}

public final class ZAPHandler: @unchecked Sendable {
    public static let endpoint = "inproc://zeromq.zap.01"

    private let stopRequested = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Binds the handler on `context` and starts answering; throws if it cannot bind (another
    /// handler holds the endpoint). `decide` runs on the handler's thread; `denied` is told of
    /// each refusal, for the operator's log.
    public init(
        context: ZMQContext, decide: @escaping @Sendable (ZAPRequest) -> ZAPDecision,
        denied: @escaping @Sendable (ZAPRequest, String) -> Void = { _, _ in }
    ) throws {
        let bound = DispatchSemaphore(value: 0)
        let bindError = Locked<ZMQError?>(nil)
        let thread = Thread { [stopRequested, finished] in
            defer { finished.signal() }
            let socket: ZMQSocket
            do {
                socket = try ZMQSocket(context, .rep)
                try socket.set(.lingerMilliseconds(0))
                try socket.bind(Self.endpoint)
            } catch {
                bindError.withLock { $0 = error as? ZMQError }
                bound.signal()
                return
            }
            bound.signal()
            defer { socket.close() }
            while !stopRequested.withLock({ $0 }) {
                do {
                    guard try ZMQPoller.readable([socket], timeout: .milliseconds(100))[0], let frames = try socket.receive() else { continue }
                    let reply = Self.answer(frames, decide: decide, denied: denied)
                    try socket.send(reply)
                } catch let error as ZMQError where error.isTermination {
                    return
                } catch {
                    continue  // A REP socket out of step recovers on the next request.
                }
            }
        }
        thread.name = "zap-handler"
        thread.start()
        bound.wait()
        if let error = bindError.withLock({ $0 }) {
            finished.wait()
            throw error
        }
    }

    /// Stops answering and closes the handler's socket; waits for its thread. Call before the
    /// context terminates (which waits for every socket, the handler's too).
    public func stop() {
        let first = stopRequested.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { finished.wait() }
    }

    deinit {
        stop()
    }

    /// The reply to one request (RFC 27): version, request id, status code and text, user id,
    /// metadata. A request that is not ZAP 1.0 is refused with 400 (or 500 when it cannot be
    /// read at all), never allowed.
    static func answer(
        _ frames: [[UInt8]], decide: (ZAPRequest) -> ZAPDecision, denied: (ZAPRequest, String) -> Void
    ) -> [[UInt8]] {
        let text = { (index: Int) in frames.indices.contains(index) ? String(decoding: frames[index], as: UTF8.self) : "" }
        let requestID = frames.count > 1 ? frames[1] : []
        func reply(_ code: String, _ reason: String, user: String = "") -> [[UInt8]] {
            [Array("1.0".utf8), requestID, Array(code.utf8), Array(reason.utf8), Array(user.utf8), []]
        }
        guard frames.count >= 6, text(0) == "1.0" else { return reply("500", "not a ZAP 1.0 request") }
        let mechanism = text(5)
        let publicKey = mechanism == "CURVE" && frames.count == 7 && frames[6].count == 32 ? CurveKey(bytes: frames[6]) : nil
        let request = ZAPRequest(domain: text(2), address: text(3), mechanism: mechanism, publicKey: publicKey)
        switch decide(request) {
        case .allow(let user):
            return reply("200", "OK", user: user)
        case .deny(let reason):
            denied(request, reason)
            return reply("400", reason)
        }
    }
}

/// A value shared between the handler's thread and its owner.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
