import Foundation
import Synchronization

/// What every request handler shares: the configuration, the databases, the session-cookie
/// signer and the identity CouchDB clients read from `GET /`.
final class ServerState: Sendable {
    let configuration: CouchServerConfiguration
    let registry: DatabaseRegistry
    /// The database events waiting to be written to `_global_changes`.
    let databaseEvents: DatabaseEventQueue
    let cookies: SessionCookie
    /// The request-body bytes all requests together may hold.
    let bodyBudget: RequestBodyBudget
    /// The `Host` values requests may carry.
    let hosts: HostAllowList
    /// The accounts of the `_users` database.
    let accounts: UserAccounts
    /// The server's UUID, stable across restarts on the same data directory.
    let uuid: String
    /// The server-side replication jobs (`POST /_replicate`, `_replicator`).
    let replications = ReplicationScheduler()
    private let stopping = Mutex<Bool>(false)
    private let port = Mutex<Int?>(nil)

    init(configuration: CouchServerConfiguration) {
        self.configuration = configuration
        let events = DatabaseEventQueue()
        self.databaseEvents = events
        self.registry = DatabaseRegistry(directory: configuration.dataDirectory, events: events)
        self.cookies = SessionCookie(lifetime: configuration.sessionLifetime, clock: configuration.sessionClock)
        self.bodyBudget = RequestBodyBudget(total: configuration.maxBufferedBodyBytes)
        self.hosts = HostAllowList(bind: configuration.host, publicHosts: configuration.publicHosts)
        self.accounts = UserAccounts(registry: registry)
        self.uuid = Self.loadUUID(in: configuration.dataDirectory)
    }

    /// Whether the server is shutting down (longpoll requests then answer at once).
    var isStopping: Bool { stopping.withLock { $0 } }

    /// The port the server listens on, once it does.
    var listeningPort: Int? {
        get { port.withLock { $0 } }
        set { port.withLock { $0 = newValue } }
    }

    /// Whether the server speaks HTTPS itself, so its session cookies are `Secure`.
    var servesTLS: Bool { configuration.tlsCertificate != nil }

    /// Marks the server as shutting down.
    func markStopping() { stopping.withLock { $0 = true } }

    private static func loadUUID(in directory: URL) -> String {
        let file = directory.appendingPathComponent(".server-uuid")
        if let text = try? String(contentsOf: file, encoding: .utf8),
           case let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines), trimmed.count == 32 {
            return trimmed
        }
        let fresh = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // Owner-only, as every file the server creates (0600): written by hand rather than
        // with `String.write`, which would create it with the umask's permissions. A folder
        // that cannot be written costs only this: the next start makes another UUID.
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(fresh.utf8), attributes: [.posixPermissions: 0o600])
        return fresh
    }
}
