public import DocumentFormat

extension DocumentStoreWriting {
    /// CouchDB's purge: for each document, removes the given leaf revisions (with the
    /// ancestors only they had) as if they had never been written, all in one transaction.
    /// A document left without revisions disappears, from `_changes` too; otherwise its
    /// winner is chosen again among the leaves left. Returns, per document asked for, the
    /// revisions purged (revisions that are not leaves, or unknown, are passed over).
    public func purge(_ requests: [String: [RevisionID]]) throws -> [String: [RevisionID]] {
        try connection.writing { txn in
            var result: [String: [RevisionID]] = [:]
            for (id, revisions) in requests { result[id] = try txn.purge(id: id, revisions: revisions) }
            return result
        }
    }
}

