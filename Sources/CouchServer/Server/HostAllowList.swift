import Foundation

/// The `Host` header values the server answers, so a web page whose name was rebound to
/// this machine's address (DNS rebinding) cannot read or write through a visitor's browser.
///
/// Always accepted: the loopback names (`localhost`, `127.0.0.1`, `[::1]`), the bound
/// address itself, and every configured public host. A server bound to a wildcard address
/// (`0.0.0.0`, `::`) also accepts any IP address literal, since it answers on all of them and
/// a rebinding attack needs a name. A port, when the header has one, must be the one the
/// server listens on. A request without `Host` (HTTP/1.0) is accepted: browsers always send
/// one.
struct HostAllowList: Sendable {
    private let names: Set<String>
    private let acceptsAnyAddress: Bool

    init(bind: String, publicHosts: [String]) {
        let bound = Self.normalized(bind)
        var names: Set<String> = ["localhost", "127.0.0.1", "::1", bound]
        for host in publicHosts { names.insert(Self.normalized(host)) }
        self.names = names
        acceptsAnyAddress = ["0.0.0.0", "::", ""].contains(bound)
    }

    /// Whether `authority` (the `Host` header: `name`, `name:port`, `[v6]:port`) names this
    /// server listening on `port` (`nil`: not known yet, any port matches).
    func accepts(_ authority: String?, port: Int?) -> Bool {
        guard let authority else { return true }
        guard let (host, hostPort) = Self.split(authority) else { return false }
        if let hostPort, let port, hostPort != port { return false }
        if names.contains(host) { return true }
        return acceptsAnyAddress && Self.isAddressLiteral(host)
    }

    /// The host part and the port of an authority; `nil` when it is malformed.
    static func split(_ authority: String) -> (host: String, port: Int?)? {
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard host.firstIndex(of: ":") == colon else { return nil }
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { return nil }
        var port: Int?
        if let portText {
            guard let value = Int(portText), (0...65535).contains(value) else { return nil }
            port = value
        }
        return (normalized(String(host)), port)
    }

    /// A host name lowercased without a trailing dot and without IPv6 brackets.
    static func normalized(_ host: String) -> String {
        var text = host.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddressLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
