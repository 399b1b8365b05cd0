public import RecipesKit
import DocumentStore
public import Foundation
public import Logging
public import Replication
import ObjectGraph
import DocumentIncrementalStore
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

    /// Settles conflicts through the object graph's one conflict API
    /// (``PersistentStoreCoordinator/resolveReplicaConflicts(policy:)``). `remote` is the
    /// deterministic ``ReplicaMergePolicy/winnerTrumps``; `local` is
    /// ``ReplicaMergePolicy/localTrumps``: the revision written in this store file (by any
    /// process, before or after a relaunch, as the datastore records) wins for every property
    /// it changed, and the stored winner where none of the conflicting revisions was.
    func resolveConflicts(prefer: ConflictPreference) throws -> Int {
        let policy: ReplicaMergePolicy = prefer == .local ? .localTrumps : .winnerTrumps
        return try store.container.coordinator.resolveReplicaConflicts(policy: policy).count
    }

    func refresh() throws {
        try store.incrementalStore.processExternalChanges()
    }
}
