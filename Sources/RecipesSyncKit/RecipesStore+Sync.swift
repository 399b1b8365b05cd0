public import RecipesKit
import DocumentStore
public import Foundation
public import Logging
public import Replication
import ObjectGraph
import DocumentIncrementalStore
import Synchronization
import DocumentFormat

extension RecipesStore {
    /// A sync of this store with the peer at `remoteURL` (a server is reached with `clientOptions`).
    public func sync(with remoteURL: URL, clientOptions: CouchClientOptions = .init(),
                     logger: Logger = Logger(label: "recipes.sync")) throws(RecipesError) -> RecipesSync {
        RecipesSync(
            documentStore: documentStore, storeURL: url,
            remote: try RemoteEndpoint.peer(for: remoteURL, clientOptions: clientOptions, logger: logger),
            remoteDescription: URLMasking.masked(remoteURL.isFileURL ? remoteURL.path : remoteURL.absoluteString),
            hooks: SyncHooks(store: self), logger: logger)
    }
}

/// Conflict resolution and refresh for a `RecipesStore`, in object-graph terms.
final class SyncHooks: SyncStoreHooks, Sendable {
    let store: RecipesStore
    /// The winning revision of every document changed here and not pushed yet, taken just
    /// before a pull: after it, these are the revisions written on this machine.
    private let localRevisions = Mutex<[String: String]>([:])

    init(store: RecipesStore) {
        self.store = store
    }

    /// Refuses a batch holding another app's `CDTISMetaData` for a different model before it
    /// is written: stored, it would keep this store from opening ever after.
    func checkIncoming(_ revisions: [TransferRevision]) throws {
        let metadata = revisions.filter { $0.id == DocumentLayout.metadataDocumentID && !$0.deleted }
        guard !metadata.isEmpty else { return }
        do {
            try store.incrementalStore.checkIncomingMetadata(metadata.map { ($0.rev.description, $0.body) })
        } catch let error as DocumentIncrementalStoreError {
            guard case .foreignModel(let difference) = error else { throw error }
            throw RecipesError.store(
                "the remote database holds another app's data for a different model (\(difference)); nothing of it was stored here. Sync this store only with a database of apps using the same recipes model",
                cause: error)
        }
    }

    func willPull() throws {
        let pushedThrough = try SyncStatusRecord.stored(in: store.documentStore).pushedThrough
        var revisions: [String: String] = [:]
        try store.documentStore.forEachChange(since: pushedThrough) { change in
            guard !change.deleted, let winner = try store.documentStore.get(id: change.id) else { return }
            revisions[change.id] = winner.rev.description
        }
        localRevisions.withLock { $0 = revisions }
    }

    /// Settles conflicts through the object graph's one conflict API
    /// (``PersistentStoreCoordinator/resolveReplicaConflicts(policy:)``). `remote` is the
    /// deterministic ``ReplicaMergePolicy/storeTrumps``; `local` prefers the revision this
    /// machine wrote (known from ``willPull()``, since the store instance that wrote it may
    /// be another process's) for every property it changed, and is `storeTrumps` where this
    /// machine wrote none of the conflicting revisions.
    func resolveConflicts(prefer: ConflictPreference) throws -> Int {
        let coordinator = store.container.coordinator
        switch prefer {
        case .remote:
            return try coordinator.resolveReplicaConflicts(policy: .storeTrumps).count
        case .local:
            let local = localRevisions.withLock { $0 }
            return try coordinator.resolveReplicaConflicts(policy: .custom { conflict in
                guard let mine = local[conflict.objectID.referenceString].map(RowVersion.init),
                      conflict.others.contains(where: { $0.version == mine }) else { return .storeTrumps }
                return .prefer(mine)
            }).count
        }
    }

    func refresh() throws {
        try store.incrementalStore.processExternalChanges()
    }
}
