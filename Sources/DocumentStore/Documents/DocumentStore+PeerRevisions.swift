import Foundation
import GRDB
public import DocumentFormat

extension DocumentStoreWriting {
    /// Records that the database `peer` names holds each document's `revisions` (its leaf
    /// revisions as that database listed them in its changes feed, or as it accepted them),
    /// replacing what was recorded for those documents.
    ///
    /// A push asks ``DocumentStoreReading/documentsHeld(_:by:)`` before `_revs_diff`, so revisions that came from a
    /// remote, or went to it, are never offered back to it (README, "No echo"). `peer` should
    /// name one instance of a database (identity and creation time), so a database deleted
    /// and recreated under the same name starts with nothing recorded.
    public func recordRevisions(_ revisions: [String: [RevisionID]], heldBy peer: String) throws {
        guard !revisions.isEmpty else { return }
        try connection.writingDatabase { db in
            let statement = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO peer_revisions(peer, id, revs) VALUES (?, ?, ?)")
            for (id, revs) in revisions where !revs.isEmpty {
                try statement.execute(arguments: [peer, id, DocumentStore.revisionList(revs)])
            }
        }
    }

    /// Forgets what was recorded for every peer whose name starts with `prefix` except `keep`:
    /// the instances of a remote database that were replaced by a newer one.
    /// The rows of `keep` are skipped by key range, not read one by one: a sync that finds
    /// the same instance as last time costs two index seeks whatever it remembers.
    public func forgetPeers(withPrefix prefix: String, except keep: String?) throws {
        let end = prefix + "\u{10FFFF}"
        try connection.writingDatabase { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM peer_revisions WHERE peer >= ? AND peer < ?")
            guard let keep, keep >= prefix, keep < end else {
                try delete.execute(arguments: [prefix, end])
                return
            }
            try delete.execute(arguments: [prefix, keep])
            try db.cachedStatement(sql: "DELETE FROM peer_revisions WHERE peer > ? AND peer < ?")
                .execute(arguments: [keep, end])
        }
    }
}

extension DocumentStoreReading {
    /// The documents of `revisions` whose every listed revision `peer` is recorded to hold
    /// (see ``DocumentStoreWriting/recordRevisions(_:heldBy:)``).
    public func documentsHeld(_ revisions: [String: [RevisionID]], by peer: String) throws -> Set<String> {
        guard !revisions.isEmpty else { return [] }
        return try connection.reading { db in
            var held = Set<String>()
            // CROSS JOIN keeps the ID list as the outer loop: one primary-key lookup per ID
            // rather than a scan of everything recorded for the peer per ID.
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT p.id, p.revs FROM json_each(?) AS j
                CROSS JOIN peer_revisions AS p ON p.peer = ? AND p.id = j.value
                """, arguments: [TreeRows.idList(Array(revisions.keys)), peer])
            while let row = try cursor.next() {
                let id: String = row[0]
                let recorded = Set((row[1] as String).split(separator: " ").map(String.init))
                if let wanted = revisions[id], wanted.allSatisfy({ recorded.contains($0.description) }) { held.insert(id) }
            }
            return held
        }
    }

    /// How many documents are recorded for `peer`.
    public func recordedDocumentCount(heldBy peer: String) throws -> Int {
        try connection.reading { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM peer_revisions WHERE peer = ?", arguments: [peer]) ?? 0
        }
    }
}

extension DocumentStore {
    /// A document's revisions as stored: sorted, space-separated.
    static func revisionList(_ revisions: [RevisionID]) -> String {
        revisions.map(\.description).sorted().joined(separator: " ")
    }
}

