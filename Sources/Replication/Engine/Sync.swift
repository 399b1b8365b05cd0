public import DocumentStore
public import Logging

/// The usual way to replicate a local store with one remote database: `pull`, `push`, or
/// `sync` (pull then push). The remote may be a server (`CouchDatabase`) or another local
/// store (`LocalDatabase`).
///
/// ```swift
/// let sync = try Sync(store: store, remoteURL: "http://user:pass@127.0.0.1:5984/recipes")
/// let result = try await sync.sync()
/// ```
public struct Sync: Sendable {
    /// The local store.
    public let store: DocumentStore
    /// The other database.
    public let remote: any ReplicationPeer
    private let logger: Logger

    /// Pairs a store with any peer.
    public init(store: DocumentStore, remote: any ReplicationPeer, logger: Logger = Logger(label: "recipes.replication")) {
        self.store = store
        self.remote = remote
        self.logger = logger
    }

    /// Pairs a store with a remote database by URL (`http(s)://[user:password@]host[:port]/db`).
    public init(store: DocumentStore, remoteURL: String, clientOptions: CouchClientOptions = .init(),
                logger: Logger = Logger(label: "recipes.replication")) throws {
        self.init(store: store, remote: try CouchDatabase(url: remoteURL, options: clientOptions, logger: logger), logger: logger)
    }

    /// Copies what the remote has and the store lacks. A missing remote database is
    /// `ReplicationError.databaseNotFound`.
    public func pull(options: ReplicationOptions = .init(),
                     observer: (@Sendable (ReplicationProgress) -> Void)? = nil) async throws -> ReplicationSummary {
        var pullOptions = options
        pullOptions.createTarget = false
        return try await Replicator(source: remote, target: LocalDatabase(store: store), options: pullOptions,
                                    logger: logger, observer: observer).run()
    }

    /// Copies what the store has and the remote lacks; creates the remote database only when
    /// `options.createTarget` is set.
    public func push(options: ReplicationOptions = .init(),
                     observer: (@Sendable (ReplicationProgress) -> Void)? = nil) async throws -> ReplicationSummary {
        try await Replicator(source: LocalDatabase(store: store), target: remote, options: options,
                             logger: logger, observer: observer).run()
    }

    /// Pull, then push: afterwards both sides hold every revision (conflicts included).
    public func sync(options: ReplicationOptions = .init(),
                     observer: (@Sendable (ReplicationProgress) -> Void)? = nil) async throws -> SyncSummary {
        let pulled = try await pull(options: options, observer: observer)
        let pushed = try await push(options: options, observer: observer)
        return SyncSummary(pull: pulled, push: pushed)
    }
}

/// The two halves of a `sync`.
public struct SyncSummary: Sendable {
    /// What the pull did.
    public var pull: ReplicationSummary
    /// What the push did.
    public var push: ReplicationSummary
}
