public import CouchProtocol
public import DocumentStore

/// Pages through a changes feed to its end, the loop every reader of a feed needs: ask for a
/// page after the last sequence seen, hand it on, and stop at the page that ends the feed.
///
/// It reads a local store's feed (`DocumentStore.changes(since:limit:)`) and a replication
/// peer's (`ReplicationPeer.changes(since:limit:)`) the same way, so where a page ends and
/// where the next one starts is decided here only.
public enum ChangesFeed {
    /// Calls `body` with every change in `store` after `since`, oldest first, reading
    /// `pageSize` changes at a time, and returns the last sequence read (`since` when there
    /// was none), where a later walk resumes (`DocumentStore.forEachChange(since:batch:_:)`).
    /// - Throws: `DocumentStoreError` from the store, or what `body` throws.
    @discardableResult
    public static func forEachChange(in store: DocumentStore, since: Int64 = 0, pageSize: Int = 1000,
                                     _ body: (Change) throws -> Void) throws -> Int64 {
        try store.forEachChange(since: since, batch: pageSize, body)
    }

    /// The page of `peer`'s feed after `since` (`nil`: from the start), at most `pageSize`
    /// rows, and whether it ends the feed as it is now (it has fewer rows than asked for).
    /// The next page starts at the page's `lastSequence`.
    /// - Throws: what the peer throws (`ReplicationError`).
    public static func page(of peer: any ReplicationPeer, since: ReplicationSequence?,
                            pageSize: Int, selection: ChangesSelection? = nil) async throws -> (page: ChangesPage, isLast: Bool) {
        let page = try await peer.changes(since: since, limit: pageSize, selection: selection)
        return (page, page.reachedEnd ?? (page.rows.count < pageSize))
    }
}
