public import Foundation

/// How a `CouchServer` runs: where its databases live, where it listens, who may write, and
/// how large a request may be.
public struct CouchServerConfiguration: Sendable {
    /// Directory holding one store file per database; created when the first database is.
    public var dataDirectory: URL
    /// Address to bind; loopback by default so nothing is exposed unless asked.
    public var host: String
    /// Port to bind; 0 picks a free one (read it back from `CouchServer.start()`).
    public var port: Int
    /// The administrator account; `nil` means nobody can log in.
    public var credentials: ServerCredentials?
    /// Let requests without credentials write (CouchDB's "admin party"); off by default.
    public var allowAnonymousWrites: Bool
    /// Largest request body accepted, in bytes; larger ones get 413 `too_large`.
    public var maxRequestBodySize: Int
    /// Lifetime of `AuthSession` cookies in seconds.
    public var sessionLifetime: Int
    /// Longest a `feed=longpoll` request waits, in milliseconds (CouchDB's default is 60000).
    public var maxLongpollTimeout: Int
    /// Browser origins allowed to call the server (CORS), e.g. `http://localhost:8080`, or
    /// `*` for any; empty (the default) sends no CORS headers. Needed by PouchDB in a browser.
    public var corsOrigins: [String]

    /// Makes a configuration; every argument but the data directory has a safe default.
    public init(
        dataDirectory: URL,
        host: String = "127.0.0.1",
        port: Int = 5984,
        credentials: ServerCredentials? = nil,
        allowAnonymousWrites: Bool = false,
        maxRequestBodySize: Int = 64 * 1024 * 1024,
        sessionLifetime: Int = 600,
        maxLongpollTimeout: Int = 60_000,
        corsOrigins: [String] = []
    ) {
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.credentials = credentials
        self.allowAnonymousWrites = allowAnonymousWrites
        self.maxRequestBodySize = maxRequestBodySize
        self.sessionLifetime = sessionLifetime
        self.maxLongpollTimeout = maxLongpollTimeout
        self.corsOrigins = corsOrigins
    }
}
