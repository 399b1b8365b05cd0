public import DocumentStore
public import Foundation
public import Logging
public import ObjectGraph
public import DocumentIncrementalStore

extension RecipesStore {
    /// A sync of this store with the peer at `remoteURL`.
    public func sync(with remoteURL: URL, logger: Logger = Logger(label: "recipes.sync")) throws(RecipesError) -> RecipesSync {
        RecipesSync(
            documentStore: documentStore, storeURL: url, remote: try RemoteEndpoint.peer(for: remoteURL, logger: logger),
            remoteDescription: URLMasking.masked(remoteURL.isFileURL ? remoteURL.path : remoteURL.absoluteString),
            hooks: SyncHooks(store: self), logger: logger)
    }
}

/// Conflict resolution and refresh for a ``RecipesStore``, in object-graph terms.
final class SyncHooks: SyncStoreHooks, @unchecked Sendable {
    let store: RecipesStore
    private let lock = NSLock()
    /// The winning revision of every document changed here and not pushed yet, taken just
    /// before a pull: after it, these are the revisions written on this machine.
    private var localRevisions: [String: String] = [:]

    init(store: RecipesStore) {
        self.store = store
    }

    func willPull() throws {
        let pushedThrough = try RecipesSync.statusRecord(of: store.documentStore).pushedThrough
        var revisions: [String: String] = [:]
        try store.documentStore.forEachChange(since: pushedThrough) { change in
            guard !change.deleted, let winner = try store.documentStore.get(id: change.id) else { return }
            revisions[change.id] = winner.rev.description
        }
        lock.withLock { localRevisions = revisions }
    }

    func resolveConflicts(prefer: ConflictPreference) throws -> Int {
        let incremental = store.incrementalStore
        switch prefer {
        case .remote:
            return try incremental.resolveConflicts(policy: .storeTrumps).count
        case .local:
            let local = lock.withLock { localRevisions }
            return try incremental.resolveConflicts(policy: .custom { conflict in
                guard let mine = local[conflict.objectID.referenceString] else { return .keepWinner }
                if conflict.winner.version.token == mine { return .keepWinner }
                guard let row = conflict.others.first(where: { $0.version.token == mine }) else { return .keepWinner }
                var values: [String: AttributeValue] = [:]
                for key in conflict.conflictingProperties { if let value = row.attributes[key] { values[key] = value } }
                return .merged(values)
            }).count
        }
    }

    func refresh() throws {
        try store.incrementalStore.processExternalChanges()
    }
}
