public import RecipesKit
public import Replication

/// What a sync asks of the store above the datastore: merging conflicting revisions in
/// object-graph terms, and refreshing the object graph after documents changed underneath.
public protocol SyncStoreHooks: Sendable {
    /// Looks at each batch a pull is about to write and throws, before anything of it is
    /// written, when the remote holds data this store cannot take (another app's model).
    func checkIncoming(_ revisions: [TransferRevision]) throws
    /// Resolves every document with conflicting revisions (losing revisions are deleted so
    /// every replica converges) and returns how many documents were resolved.
    func resolveConflicts(prefer: ConflictPreference) throws -> Int
    /// Tells the object graph which documents changed underneath it.
    func refresh() throws
}
