import GRDB

/// Compaction: what a store no longer needs to keep, given back to the file system.
extension DocumentStoreWriting {
    /// Drops the bodies (and attachment references) of non-leaf revisions, keeping the tree's
    /// shape, prunes trees deeper than the revision limit, and deletes attachment bytes no
    /// revision refers to any more.
    public func compact() throws {
        try connection.writing { txn in
            let db = txn.db
            try db.execute(sql: "UPDATE revs SET body = NULL, atts = NULL WHERE leaf = 0 AND (body IS NOT NULL OR atts IS NOT NULL)")
            let deep = try Int64.fetchAll(db, sql: "SELECT DISTINCT doc_num FROM revs WHERE generation > ?",
                                          arguments: [txn.revisionLimit])
            for docNum in deep { try txn.stem(docNum: docNum) }
            try AttachmentStorage.collectGarbage(db)
        }
        // The log is emptied on the connection the writes used (asking GRDB for the writer
        // again from inside a held one would trap). Inside an open transaction it cannot be,
        // and is left for a later checkpoint.
        let connection = connection
        _ = try? connection.store.mapped {
            if let held = connection.held { return try held.checkpoint(.truncate) }
            return try connection.store.database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
    }
}
