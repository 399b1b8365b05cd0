/// What one `ObjectContainer.sync` did.
public struct SyncResult: Sendable, Hashable {
    /// Documents the pull wrote into the store.
    public var pulled = 0
    /// Documents the push wrote to the remote.
    public var pushed = 0
    /// Objects whose conflicting versions were settled.
    public var conflictsResolved = 0
    /// Whether the seed ran (the remote and the store were both empty).
    public var seeded = false
    /// Documents the remote refused (`id: reason`); they stay pending and are offered again
    /// by the next push.
    public var refused: [String] = []
}
