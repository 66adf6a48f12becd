// What an endpoint says about who can reach it: the roles warn when one without keys is open
// to other machines.

public enum Endpoint {
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
