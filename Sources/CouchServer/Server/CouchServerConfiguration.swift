public import Foundation
public import ServerTLS
public import Replication

/// How a `CouchServer` runs: where its databases live, where it listens, who may read and
/// write, which host names it answers to, and how large requests may be.
public struct CouchServerConfiguration: Sendable {
    /// Directory holding one store file per database; created when the first database is.
    public var dataDirectory: URL
    /// Address to bind; loopback by default so nothing is exposed unless asked.
    public var host: String
    /// Port to bind; 0 picks a free one (read it back from `CouchServer.start()`).
    public var port: Int
    /// More names clients may address the server by (the `Host` header), besides the
    /// loopback names and the bound address; see `HostAllowList` for the rule.
    public var publicHosts: [String]
    /// The administrator account; `nil` means nobody can log in.
    public var credentials: ServerCredentials?
    /// What requests without credentials may do; `.none` (CouchDB 3's default) by default.
    public var anonymousAccess: AnonymousAccess
    /// Largest request body accepted, in bytes; larger ones get 413 `too_large`.
    public var maxRequestBodySize: Int
    /// Request-body bytes the server holds at once across all requests. A request whose
    /// declared length does not fit waits for others to finish (up to `bodyBudgetWait`),
    /// then gets 503; one larger than the whole budget gets 413.
    public var maxBufferedBodyBytes: Int
    /// Longest a request waits for room in `maxBufferedBodyBytes`.
    public var bodyBudgetWait: Duration
    /// Most entries one request may list: `_all_docs` `keys`, `_bulk_get` `docs`,
    /// `_revs_diff` IDs, `_bulk_docs` `docs`; more get 400 `bad_request`.
    public var maxEntriesPerRequest: Int
    /// Lifetime of `AuthSession` cookies in seconds.
    public var sessionLifetime: Int
    /// The wall clock session cookies are dated, renewed and expired by (`Date.init` unless
    /// set): a test moves it on to see a cookie renewed and expire without waiting minutes.
    public var sessionClock: @Sendable () -> Date = { Date() }
    /// Longest a `feed=longpoll` request waits, in milliseconds (CouchDB's default is 60000).
    public var maxLongpollTimeout: Int
    /// Browser origins allowed to call the server (CORS), e.g. `http://localhost:8080`, or
    /// `*` for any; empty (the default) sends no CORS headers. Needed by PouchDB in a browser.
    public var corsOrigins: [String]
    /// How long a connection may send nothing, between requests or in the middle of a
    /// request's head or body, before the server closes it: a client that announced a
    /// 10 MB body and sent 20 bytes holds a connection and a body reservation this long at
    /// most. A reply being written (a longpoll wait, a continuous feed) is not idle.
    public var idleTimeout: Duration
    /// How long a shutdown (SIGTERM, SIGINT, `CouchServer.stop()`) waits for requests in
    /// flight to finish before it cancels them and closes their connections, so the server
    /// stops within about this long whatever clients do.
    public var shutdownGracePeriod: Duration
    /// PBKDF2 rounds for passwords written to `_users` (CouchDB 3.4's default, 600,000, by
    /// default). Stored accounts keep the rounds they were hashed with.
    public var passwordIterations: Int

    /// How long a server-side replication (`POST /_replicate` with `continuous`, or a
    /// `_replicator` document) waits after a failure before it tries again, in state
    /// `crashing`; the delay doubles after each further failure, up to
    /// `replicationMaxRetryDelay`, and starts over after a success.
    public var replicationRetryDelay: Duration = .seconds(5)
    /// The longest delay between two attempts of a crashing server-side replication.
    public var replicationMaxRetryDelay: Duration = .seconds(300)
    /// CA certificates a server-side replication trusts, besides the system's, for an
    /// `https://` source or target (a household CA); `nil`: the system's alone. Verification
    /// is never turned off.
    public var trustedCertificates: TrustedCertificates?

    /// The certificate chain and key to serve HTTPS with; `nil` (the default) serves plain
    /// HTTP. With it, session cookies are `Secure`, and ``CouchServer/reloadCertificate()``
    /// (or SIGHUP, for a server started with `handleSignals`) presents a renewed certificate
    /// to new connections without a restart.
    public var tlsCertificate: ServerCertificate?

    /// Makes a configuration; every argument but the data directory has a safe default.
    public init(
        dataDirectory: URL,
        host: String = "127.0.0.1",
        port: Int = 5984,
        publicHosts: [String] = [],
        credentials: ServerCredentials? = nil,
        anonymousAccess: AnonymousAccess = .none,
        maxRequestBodySize: Int = 64 * 1024 * 1024,
        maxBufferedBodyBytes: Int = 256 * 1024 * 1024,
        bodyBudgetWait: Duration = .seconds(30),
        maxEntriesPerRequest: Int = 100_000,
        sessionLifetime: Int = 600,
        maxLongpollTimeout: Int = 60_000,
        corsOrigins: [String] = [],
        idleTimeout: Duration = .seconds(60),
        shutdownGracePeriod: Duration = .seconds(5),
        passwordIterations: Int = 600_000
    ) {
        self.passwordIterations = passwordIterations
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.publicHosts = publicHosts
        self.credentials = credentials
        self.anonymousAccess = anonymousAccess
        self.maxRequestBodySize = maxRequestBodySize
        self.maxBufferedBodyBytes = maxBufferedBodyBytes
        self.bodyBudgetWait = bodyBudgetWait
        self.maxEntriesPerRequest = maxEntriesPerRequest
        self.sessionLifetime = sessionLifetime
        self.maxLongpollTimeout = maxLongpollTimeout
        self.corsOrigins = corsOrigins
        self.idleTimeout = idleTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
