// CURVE keys (libzmq's CurveZMQ: Curve25519 with libsodium). A key is 32 bytes, written as 40
// characters of Z85 in files. A secret key never prints: a key pair describes itself by its
// public half, so a log line or an error message cannot leak the other.

import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

public struct CurveKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The 32 bytes, as the socket options take them.
    public let bytes: [UInt8]

    /// A key written in Z85 (40 characters); nil for anything else.
    public init?(z85 text: some StringProtocol) {
        let characters = Array(text.utf8)
        guard characters.count == 40 else { return nil }
        var decoded = [UInt8](repeating: 0, count: 32)
        // zmq_z85_decode checks each character against the alphabet and returns NULL on one
        // outside it; the string it reads must end with a NUL.
        let ok = (characters + [0]).withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { (try? check(zmq_z85_decode(&decoded, $0.baseAddress), "z85_decode")) != nil }
        }
        guard ok else { return nil }
        bytes = decoded
    }

    init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "a CURVE key is 32 bytes")
        self.bytes = bytes
    }

    /// Not the key: it may be a secret one. `z85` writes it out, where that is meant.
    public var description: String { "CURVE key" }
    public var debugDescription: String { description }

    /// The key in Z85, as files hold it.
    public var z85: String {
        var text = [CChar](repeating: 0, count: 41)
        // 32 bytes always encode (a multiple of 4): the check cannot fail here.
        _ = bytes.withUnsafeBufferPointer { try? check(zmq_z85_encode(&text, $0.baseAddress, 32), "z85_encode") }
        return String(decoding: text.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

public struct CurveKeyPair: Sendable, Hashable, CustomStringConvertible {
    public let publicKey: CurveKey
    public let secretKey: CurveKey

    /// The pair of a secret key (its public half is worked out from it); nil if libzmq cannot.
    public init?(secretKey: CurveKey) {
        var publicText = [CChar](repeating: 0, count: 41)
        let secretText = secretKey.z85.utf8CString
        let derived = secretText.withUnsafeBufferPointer { (try? check(zmq_curve_public(&publicText, $0.baseAddress), "curve_public")) != nil }
        guard derived, let publicKey = CurveKey(z85: String(decoding: publicText.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        else { return nil }
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// A fresh random pair (libsodium's generator).
    public static func generate() throws(ZMQError) -> CurveKeyPair {
        var publicText = [CChar](repeating: 0, count: 41)
        var secretText = [CChar](repeating: 0, count: 41)
        try check(zmq_curve_keypair(&publicText, &secretText), "curve_keypair")
        let text = { (buffer: [CChar]) in String(decoding: buffer.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        guard let secret = CurveKey(z85: text(secretText)), let pair = CurveKeyPair(secretKey: secret) else {
            throw ZMQError(errno: EINVAL, operation: "curve_keypair")
        }
        return pair
    }

    /// Only the public half: a pair may be logged.
    public var description: String { "CURVE key pair \(publicKey.z85)" }
}

/// What one socket needs to speak CURVE.
public enum CurveRole: Sendable, Hashable {
    /// A bound socket: proves it holds `own`, and asks the ZAP handler about each client
    /// (`domain` tells the handler which socket asks).
    case server(own: CurveKeyPair, domain: String)
    /// A connecting socket: proves it holds `own`, and talks only to the holder of `server`.
    case client(own: CurveKeyPair, server: CurveKey)
}

extension ZMQSocket {
    /// Makes the socket speak CURVE; call before bind or connect.
    public func secure(_ role: CurveRole) throws(ZMQError) {
        switch role {
        case .server(let own, let domain):
            try set(ZMQOption(code: ZMQ_ZAP_DOMAIN, name: "ZAP_DOMAIN", value: .bytes(Array(domain.utf8))))
            try set(ZMQOption(code: ZMQ_CURVE_SERVER, name: "CURVE_SERVER", value: .int(1)))
            try set(ZMQOption(code: ZMQ_CURVE_SECRETKEY, name: "CURVE_SECRETKEY", value: .bytes(own.secretKey.bytes)))
        case .client(let own, let server):
            try set(ZMQOption(code: ZMQ_CURVE_SERVERKEY, name: "CURVE_SERVERKEY", value: .bytes(server.bytes)))
            try set(ZMQOption(code: ZMQ_CURVE_PUBLICKEY, name: "CURVE_PUBLICKEY", value: .bytes(own.publicKey.bytes)))
            try set(ZMQOption(code: ZMQ_CURVE_SECRETKEY, name: "CURVE_SECRETKEY", value: .bytes(own.secretKey.bytes)))
        }
    }
}
