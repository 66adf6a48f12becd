// What an endpoint says about who can reach it: the roles warn when one without keys is open
// to other machines.

import GridlockCore

public enum Endpoint {
    /// What is wrong with a TCP endpoint's port, or nil: libzmq reads `tcp://host:99999` as
    /// port 34463 (the number modulo 65536) and binds it, so a typo became another port.
    public static func problem(_ endpoint: String) -> String? {
        guard endpoint.hasPrefix("tcp://") else { return nil }
        var address = endpoint.dropFirst("tcp://".count)
        if let separator = address.lastIndex(of: ";") { address = address[address.index(after: separator)...] }
        guard let colon = address.lastIndex(of: ":"), !address.hasSuffix("]") else {
            return "\(endpoint.printable) has no port: write tcp://HOST:PORT (or tcp://*:* to bind any free port)"
        }
        let port = address[address.index(after: colon)...]
        if port == "*" { return nil }
        guard !port.isEmpty, port.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(port), (1...65_535).contains(number) else {
            return "\(endpoint.printable): the port must be from 1 to 65535 (or * for any free one when binding), not '\(port.excerpt())'"
        }
        return nil
    }

    /// Whether only this machine can reach `endpoint`: ipc:// and inproc://, or TCP on a
    /// loopback address (127.0.0.0/8, ::1, localhost). A wildcard (`*`, 0.0.0.0), a name or
    /// any other address is reachable from elsewhere; so is anything unreadable.
    public static func isOnThisMachine(_ endpoint: String) -> Bool {
        if endpoint.hasPrefix("ipc://") || endpoint.hasPrefix("inproc://") { return true }
        guard endpoint.hasPrefix("tcp://") else { return false }
        var host = endpoint.dropFirst("tcp://".count)
        // A connect may name a source first: tcp://source;destination.
        if let separator = host.lastIndex(of: ";") { host = host[host.index(after: separator)...] }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            return host[host.index(after: host.startIndex)..<close] == "::1"
        }
        guard let colon = host.lastIndex(of: ":") else { return false }
        host = host[..<colon]
        if host == "localhost" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil } && octets[0] == "127"
    }
}
