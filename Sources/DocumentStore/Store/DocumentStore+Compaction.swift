import GRDB

/// Compaction: what a store no longer needs to keep, given back to the file system.
extension DocumentStore {
    /// Drops the bodies (and attachment references) of non-leaf revisions, keeping the tree's
    /// shape, prunes trees deeper than the revision limit, and deletes attachment bytes no
    /// revision refers to any more.
    public func compact() throws {
        try writing { txn in
            let db = txn.db
            try db.execute(sql: "UPDATE revs SET body = NULL, atts = NULL WHERE leaf = 0 AND (body IS NOT NULL OR atts IS NOT NULL)")
            let deep = try Int64.fetchAll(db, sql: "SELECT DISTINCT doc_num FROM revs WHERE generation > ?",
                                          arguments: [txn.revisionLimit])
            for docNum in deep { try txn.stem(docNum: docNum) }
            try AttachmentStorage.collectGarbage(db)
        }
        // Inside ``withWriter(_:)`` the writer connection is held already: asking GRDB for it
        // again would trap, so the checkpoint runs on the held one.
        _ = try? mapped {
            if let scope = AccessScope.current, scope.store == ObjectIdentifier(self), scope.writes {
                return try database.unsafeReentrantWrite { try $0.checkpoint(.truncate) }
            }
            return try database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
    }
}
