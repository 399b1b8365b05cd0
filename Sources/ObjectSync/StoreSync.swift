public import Foundation
package import DocumentStore
package import DocumentIncrementalStore
import DocumentFormat
import HTTPSupport
public import Logging
public import Replication

/// The steps of syncing one object store with one remote, written once for every model:
/// `ObjectContainer.sync` runs them in order, and an app with a sync
/// report of its own (the `recipes` program's) runs them as it likes.
///
/// Each step is safe to fail: replication checkpoints only what was durably written, a
/// batch holding another app's model metadata is refused before anything of it is written,
/// and documents the remote refuses stay pending for the next push.
public struct StoreSync: Sendable {
    /// The other side.
    public let remote: any ReplicationPeer
    /// The remote for people, its password masked.
    public let remoteDescription: String
    package let documentStore: DocumentStore
    package let incrementalStore: DocumentIncrementalStore
    let coordinator: PersistentStoreCoordinator
    let logger: Logger

    /// The steps for a store's parts and a remote peer.
    package init(documentStore: DocumentStore, incrementalStore: DocumentIncrementalStore, coordinator: PersistentStoreCoordinator,
                 remote: any ReplicationPeer, remoteDescription: String, logger: Logger) {
        self.documentStore = documentStore
        self.incrementalStore = incrementalStore
        self.coordinator = coordinator
        self.remote = remote
        self.remoteDescription = remoteDescription
        self.logger = logger
    }

    /// The replication peer for `url`: a CouchDB-compatible server (an http or https URL,
    /// reached with `clientOptions`) or another store file (a file URL).
    /// - Throws: `ObjectContainerError.unusableRemote` naming the remote, its
    ///   password masked.
    public static func peer(for url: URL, clientOptions: CouchClientOptions = .init(),
                            logger: Logger) throws(ObjectContainerError) -> any ReplicationPeer {
        do {
            if url.isFileURL {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                return LocalDatabase(store: try DocumentStore(url: url))
            }
            return try CouchDatabase(url: url.absoluteString, options: clientOptions, logger: logger)
        } catch {
            throw .unusableRemote(masked(url), cause: error)
        }
    }

    /// `url` for people: a path for a file, the URL with its password masked otherwise.
    public static func masked(_ url: URL) -> String {
        CredentialMask.masked(url.isFileURL ? url.path : url.absoluteString)
    }

    /// Whether the remote database is missing (a push creates it) or holds no document.
    public func remoteIsEmpty() async throws -> Bool {
        do {
            return try await remote.databaseInfo().documentCount == 0
        } catch ReplicationError.databaseNotFound {
            return true
        }
    }

    /// Copies the remote's new revisions into the store; `nil` when the remote database does
    /// not exist yet (the push creates it). A batch holding another app's model metadata
    /// throws `DocumentIncrementalStoreError.foreignModel` before anything of it is written.
    public func pull(progress: (@Sendable (ReplicationProgress) -> Void)? = nil) async throws -> ReplicationSummary? {
        var options = ReplicationOptions()
        options.admission = { [incrementalStore] revisions in
            let metadata = revisions.filter { $0.id == DocumentLayout.metadataDocumentID && !$0.deleted }
            guard !metadata.isEmpty else { return }
            try incrementalStore.checkIncomingMetadata(metadata.map { ($0.rev.description, $0.body) })
        }
        do {
            return try await Sync(store: documentStore, remote: remote, logger: logger).pull(options: options, observer: progress)
        } catch ReplicationError.databaseNotFound {
            logger.info("the remote database does not exist yet; the push will create it", metadata: ["remote": "\(remoteDescription)"])
            return nil
        }
    }

    /// Settles every object whose stored rows hold conflicting versions, as `policy`
    /// decides, and returns how many were settled.
    public func resolveConflicts(policy: ReplicaMergePolicy) throws -> Int {
        try coordinator.resolveReplicaConflicts(policy: policy).count
    }

    /// Copies the store's new revisions to the remote, creating the remote database if it is
    /// missing, and offers again what earlier pushes could not copy.
    public func push(progress: (@Sendable (ReplicationProgress) -> Void)? = nil) async throws -> ReplicationSummary {
        var options = ReplicationOptions()
        options.createTarget = true
        return try await Sync(store: documentStore, remote: remote, logger: logger).push(options: options, observer: progress)
    }

    /// Tells every context of the store which documents changed underneath it.
    public func refresh() throws {
        _ = try incrementalStore.processExternalChanges()
    }

    /// Fills a new store with first data: runs `seed` in a context of its own and saves what
    /// it inserted, but only when no entity of the model has an object in the store; returns
    /// whether it ran. A sync calls it only when the remote was empty before its pull, so
    /// two devices starting together do not both seed.
    public func seedIfEmpty(with seed: (ObjectContext) throws -> Void) throws -> Bool {
        let context = ObjectContext(coordinator: coordinator, name: "seed")
        for entity in coordinator.model.entities where entity.superentityName == nil {
            if try context.count(for: FetchRequest(entityName: entity.name)) > 0 { return false }
        }
        try seed(context)
        try context.save()
        return true
    }
}
