import Foundation
public import ServerTLS

/// How `recipes web` serves the book: where it listens and who may use it.
public struct WebConfiguration: Sendable {
    /// The address to bind (`127.0.0.1` by default).
    public var host: String
    /// The port (0 picks a free one).
    public var port: Int
    /// The password a browser logs in with; required when ``host`` is not a loopback
    /// address, since anyone on the network could otherwise read and change the book.
    public var password: String?
    /// Recipes shown per page of the book.
    public var pageSize: Int
    /// How often the store is looked at for changes made by other processes.
    public var changePollInterval: Duration
    /// The certificate chain and key to serve HTTPS with; `nil` serves plain HTTP. With it,
    /// the session cookie is `Secure` and every answer carries `Strict-Transport-Security`.
    public var tlsCertificate: ServerCertificate?

    /// Makes a configuration.
    public init(host: String = "127.0.0.1", port: Int = 8080, password: String? = nil, pageSize: Int = 50,
                changePollInterval: Duration = .milliseconds(200), tlsCertificate: ServerCertificate? = nil) {
        self.tlsCertificate = tlsCertificate
        self.host = host
        self.port = port
        self.password = password
        self.pageSize = pageSize
        self.changePollInterval = changePollInterval
    }

    /// Whether `host` is a loopback address, reachable from this machine only.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        return name == "localhost" || name == "::1" || name == "[::1]" || name.hasPrefix("127.")
    }

    /// Whether the book is served over HTTPS.
    public var servesTLS: Bool { tlsCertificate != nil }

    /// Whether a browser must log in: the server is reachable from other machines.
    public var requiresLogin: Bool { !Self.isLoopback(host) }
}
