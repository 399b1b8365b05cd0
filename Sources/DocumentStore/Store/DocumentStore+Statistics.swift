import Foundation
import GRDB
import DocumentFormat

extension DocumentStoreReading {
    /// Documents whose tree has more than one live leaf (conflicts to resolve), counted from a
    /// flag each write keeps in step, without walking any tree.
    public func conflictedDocumentCount() throws -> Int {
        try connection.reading { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM docs WHERE conflicted = 1") ?? 0 }
    }

    /// The IDs of the documents with conflicts, in ID order.
    public func conflictedDocumentIDs() throws -> [String] {
        // Sorted here, not by the query: ORDER BY doc_id makes SQLite walk every document
        // in ID order instead of the partial index of the few conflicted ones.
        try connection.reading { db in
            try String.fetchAll(db, sql: "SELECT doc_id FROM docs WHERE conflicted = 1").sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }

    /// Whether any document whose ID starts with `prefix` is stored, live or deleted.
    public func hasDocuments(withIDPrefix prefix: String) throws -> Bool {
        try connection.reading { db in
            guard let first = try String.fetchOne(db, sql: "SELECT doc_id FROM docs WHERE doc_id >= ? ORDER BY doc_id LIMIT 1",
                                                  arguments: [prefix]) else { return false }
            return first.hasPrefix(prefix)
        }
    }
}

