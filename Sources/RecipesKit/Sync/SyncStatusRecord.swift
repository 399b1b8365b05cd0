/// Per-machine sync state kept in the local document `_local/recipes-sync`: the last
/// report, and the store sequence up to which local changes are known to be on the remote
/// (so `status` can count pending changes).
public struct SyncStatusRecord: Sendable, Equatable, Codable {
    /// The last sync's report.
    public var lastSync: SyncReport?
    /// Local changes up to this sequence have been pushed (or came from the remote).
    public var pushedThrough: Int64

    /// Makes a record.
    public init(lastSync: SyncReport?, pushedThrough: Int64) {
        self.lastSync = lastSync
        self.pushedThrough = pushedThrough
    }

    /// The local document's ID.
    public static let recordID = "recipes-sync"
}
