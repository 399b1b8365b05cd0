import Foundation
import GRDB
public import DocumentFormat

extension DocumentStoreWriting {
    /// Writes a local document: never replicated, no history, not in the changes feed. The ID
    /// may be given with or without its `_local/` prefix.
    public func putLocal(id: String, body: JSONObject) throws {
        let key = try DocumentStore.localKey(id)
        let bytes = try StoreTransaction.encodeBody(body, id: "_local/" + key)
        try connection.writingDatabase { db in
            try db.execute(sql: "INSERT OR REPLACE INTO local_docs(id, body) VALUES (?, ?)",
                           arguments: [key, Data(bytes)])
        }
    }

    /// Reads a local document and writes what `change` makes of it, in one write
    /// transaction, so no other write can slip between the read and the write (a revision
    /// check in `change` then holds). `change` gets the stored body (`nil` if absent) and
    /// returns the new body, or `nil` to delete the document; whatever it throws aborts the
    /// write and is rethrown.
    public func updateLocal(id: String, _ change: (JSONObject?) throws -> JSONObject?) throws {
        let key = try DocumentStore.localKey(id)
        var failure: (any Error)?
        try connection.writingDatabase { db in
            let stored = try Data.fetchOne(db, sql: "SELECT body FROM local_docs WHERE id = ?", arguments: [key])
                .map(JSONValue.parseObject)
            let body: JSONObject?
            do {
                body = try change(stored)
            } catch {
                failure = error
                return
            }
            guard let body else {
                try db.execute(sql: "DELETE FROM local_docs WHERE id = ?", arguments: [key])
                return
            }
            let bytes = try StoreTransaction.encodeBody(body, id: "_local/" + key)
            try db.execute(sql: "INSERT OR REPLACE INTO local_docs(id, body) VALUES (?, ?)",
                           arguments: [key, Data(bytes)])
        }
        if let failure { throw failure }
    }

    /// Deletes a local document; deleting an absent one changes nothing.
    public func deleteLocal(id: String) throws {
        let key = try DocumentStore.localKey(id)
        try connection.writingDatabase { db in try db.execute(sql: "DELETE FROM local_docs WHERE id = ?", arguments: [key]) }
    }
}

extension DocumentStoreReading {
    /// Reads a local document, nil if absent.
    public func getLocal(id: String) throws -> JSONObject? {
        let key = try DocumentStore.localKey(id)
        return try connection.reading { db in
            try Data.fetchOne(db, sql: "SELECT body FROM local_docs WHERE id = ?", arguments: [key])
                .map(JSONValue.parseObject)
        }
    }
}

extension DocumentStore {
    static func localKey(_ id: String) throws -> String {
        let key = id.hasPrefix("_local/") ? String(id.dropFirst("_local/".count)) : id
        guard !key.isEmpty else { throw DocumentStoreError.invalidDocumentID(id) }
        return key
    }
}

