// CURVE and the ZAP handler against real libzmq sockets: who gets through, and who does not.

import Foundation
import Testing
@testable import ZeroMQ

@Suite("CURVE and ZAP")
struct CurveTests {
    @Test("a key survives Z85 both ways; 40 characters outside the alphabet, or 39, are no key")
    func z85() throws {
        let pair = try CurveKeyPair.generate()
        #expect(CurveKey(z85: pair.publicKey.z85) == pair.publicKey)
        #expect(CurveKeyPair(secretKey: pair.secretKey)?.publicKey == pair.publicKey)
        #expect(CurveKey(z85: String(pair.publicKey.z85.dropLast())) == nil)
        #expect(CurveKey(z85: String(repeating: "~", count: 40)) == nil)
        #expect(CurveKey(z85: String(repeating: "\"", count: 40)) == nil)
        // Neither half of a pair prints itself.
        #expect(!"\(pair)".contains(pair.secretKey.z85) && !"\(pair.secretKey)".contains(pair.secretKey.z85))
    }

    /// A CURVE PULL server admitting only `allowed`, and what each client got through.
    private func delivered(from clients: [(CurveRole?, String)], allowed: CurveKey) throws -> (Set<String>, [String]) {
        let context = try ZMQContext()
        let refusals = RefusalLog()
        let handler = try ZAPHandler(
            context: context,
            decide: { request in
                request.domain == "test.results" && request.publicKey == allowed ? .allow(user: "worker") : .deny(reason: "not in the allowlist")
            },
            denied: { request, reason in refusals.add("\(request.mechanism) \(reason)") })
        let server = try CurveKeyPair.generate()
        let pull = try ZMQSocket(context, .pull)
        try pull.set(.lingerMilliseconds(0))
        try pull.secure(.server(own: server, domain: "test.results"))
        try pull.bind("tcp://127.0.0.1:*")
        var pushes: [ZMQSocket] = []
        for (role, name) in clients {
            let push = try ZMQSocket(context, .push)
            try push.set(.lingerMilliseconds(0))
            if let role {
                // A client names the server it trusts; `nil` server means the real one.
                if case .client(let own, let serverKey) = role {
                    try push.secure(.client(own: own, server: serverKey == allowed ? server.publicKey : serverKey))
                }
            }
            try push.connect(pull.lastEndpoint)
            _ = try push.send([Array(name.utf8)], dontWait: true)
            pushes.append(push)
        }
        var seen = Set<String>()
        let deadline = Date(timeIntervalSinceNow: 1.5)
        while Date() < deadline {
            if try ZMQPoller.readable([pull], timeout: .milliseconds(100))[0], let frames = try pull.receive() {
                seen.insert(String(decoding: frames[0], as: UTF8.self))
            }
        }
        for push in pushes { push.close() }
        pull.close()
        handler.stop()
        context.terminate()
        return (seen, refusals.lines)
    }

    @Test("only the allowlisted key gets a message through; an unknown key and a plain socket get nothing")
    func allowlist() throws {
        let allowed = try CurveKeyPair.generate()
        let stranger = try CurveKeyPair.generate()
        // `allowed.publicKey` as the server key stands for "the real server's key" (see above).
        let (seen, refusals) = try delivered(
            from: [
                (.client(own: allowed, server: allowed.publicKey), "allowed"),
                (.client(own: stranger, server: allowed.publicKey), "stranger"),
                (nil, "plain"),
            ],
            allowed: allowed.publicKey)
        #expect(seen == ["allowed"])
        #expect(refusals.contains("CURVE not in the allowlist"), "\(refusals)")
    }

    @Test("a client that names another server key is never connected, even with an allowed key")
    func wrongServer() throws {
        let allowed = try CurveKeyPair.generate()
        let impostor = try CurveKeyPair.generate()
        let (seen, _) = try delivered(from: [(.client(own: allowed, server: impostor.publicKey), "misled")], allowed: allowed.publicKey)
        #expect(seen.isEmpty)
    }

    @Test("a request that is not ZAP 1.0 is refused, never allowed")
    func malformedRequests() {
        let allowAll: (ZAPRequest) -> ZAPDecision = { _ in .allow(user: "anyone") }
        let code = { (frames: [[UInt8]]) in
            String(decoding: ZAPHandler.answer(frames, decide: allowAll, denied: { _, _ in })[2], as: UTF8.self)
        }
        #expect(code([]) == "500")
        #expect(code([Array("2.0".utf8), [1], [], [], [], Array("NULL".utf8)]) == "500")
        #expect(code([Array("1.0".utf8), [1], [], [], [], Array("NULL".utf8)]) == "200")
        let reply = ZAPHandler.answer(
            [Array("1.0".utf8), [9, 9], Array("d".utf8), [], [], Array("CURVE".utf8), [UInt8](repeating: 1, count: 32)],
            decide: { $0.publicKey == nil ? .deny(reason: "no key") : .allow(user: "w") }, denied: { _, _ in })
        #expect(reply == [Array("1.0".utf8), [9, 9], Array("200".utf8), Array("OK".utf8), Array("w".utf8), []])
    }
}

private final class RefusalLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func add(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
