import Foundation
import GRDB
import DocumentFormat

/// The SQLite schema of a store file, created and upgraded by a GRDB migrator.
///
/// - `docs`: one row per document: its winner (row number, text, deletion flag) and the
///   sequence of its latest change, so reads and the changes feed never walk the tree.
/// - `revs`: the revision trees (parent pointers), a leaf flag, the canonical body (NULL for
///   stubs and compacted revisions) and the attachments' metadata as JSON.
/// - `attachment_chunks`: attachment bytes, once per digest, in chunks for streaming.
/// - `local_docs`, `meta` (store identity, sequence counter), `query_indexes` (declared indexes,
///   each backed by a table `query_index_<n>` of order-preserving keys, optionally limited to
///   the documents a partial filter selects).
/// - `text_indexes` (declared full-text fields, each backed by an FTS5 table `text_index_<n>`
///   of folded text with the trigram tokenizer, rowid = `doc_num`).
/// - `docs.conflicted` (v2): 1 while a document has more than one live leaf, so conflicts are
///   counted without walking the trees.
/// - `counters` (v3): document, live-document and index row counts (``StoreCounters``);
///   `query_indexes.counted` (v4): the index also counts its rows per leading key.
/// - `meta.created_at` (v5): microseconds since 1970 when the file was created (for files
///   from before v5, when v5 first opened them); it tells a recreated database from the old.
/// - `peer_revisions` (v6): per replication peer (a remote database instance) and document,
///   the leaf revisions that peer is known to hold (``DocumentStore/recordRevisions(_:heldBy:)``).
/// - `query_rank_<n>` (v7, and whenever such an index is built): for each query index of one
///   folded key, the buckets of its row positions (``IndexRanks``), kept by triggers on the
///   index table, so a late page of it is found without stepping over the rows before it.
/// - `revs.local` (v8): 1 for a revision a local edit made in this file (any process), 0 for
///   one that arrived by replication, so "the version written here" survives a relaunch
///   (``DocumentStore/latestLocalRevision(id:)``). Revisions from before v8 count as arrived.
enum StoreSchema {
    /// Bytes per stored attachment chunk.
    static let chunkSize = 256 * 1024

    /// The tables of a database that is not a store, or `nil` when it is one: empty, or
    /// holding the migrator's table and only tables a store has (possibly part-way through
    /// its first migration by another process).
    static func foreignTables(_ db: Database) throws -> [String]? {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        guard !tables.isEmpty else { return nil }
        return tables.contains("grdb_migrations") && (tables.count == 1 || tables.contains("docs")) ? nil : tables
    }

    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE docs (
                    doc_num INTEGER PRIMARY KEY,
                    doc_id TEXT NOT NULL UNIQUE,
                    winner_rev_num INTEGER NOT NULL,
                    deleted INTEGER NOT NULL,
                    seq INTEGER NOT NULL
                );
                CREATE UNIQUE INDEX docs_by_seq ON docs(seq);
                CREATE TABLE revs (
                    rev_num INTEGER PRIMARY KEY,
                    doc_num INTEGER NOT NULL,
                    rev TEXT NOT NULL,
                    generation INTEGER NOT NULL,
                    parent INTEGER,
                    deleted INTEGER NOT NULL,
                    leaf INTEGER NOT NULL,
                    body BLOB,
                    atts BLOB
                );
                CREATE UNIQUE INDEX revs_by_doc ON revs(doc_num, rev);
                CREATE TABLE attachments (
                    digest TEXT PRIMARY KEY NOT NULL,
                    length INTEGER NOT NULL
                );
                CREATE TABLE attachment_chunks (
                    digest TEXT NOT NULL,
                    idx INTEGER NOT NULL,
                    data BLOB NOT NULL
                );
                CREATE UNIQUE INDEX attachment_chunks_by_digest ON attachment_chunks(digest, idx);
                CREATE TABLE local_docs (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL);
                CREATE TABLE query_indexes (
                    index_num INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    fields TEXT NOT NULL
                );
                """)
            try db.execute(sql: "INSERT INTO meta(key, value) VALUES ('store_id', ?), ('last_seq', '0')",
                           arguments: [UUID().uuidString.lowercased()])
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                ALTER TABLE query_indexes ADD COLUMN partial TEXT NOT NULL DEFAULT '{}';
                CREATE TABLE text_indexes (
                    index_num INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    field TEXT NOT NULL,
                    partial TEXT NOT NULL
                );
                ALTER TABLE docs ADD COLUMN conflicted INTEGER NOT NULL DEFAULT 0;
                UPDATE docs SET conflicted = 1 WHERE doc_num IN (
                    SELECT doc_num FROM revs WHERE leaf = 1 AND deleted = 0 GROUP BY doc_num HAVING COUNT(*) > 1);
                CREATE INDEX docs_conflicted ON docs(doc_num) WHERE conflicted = 1;
                """)
        }
        migrator.registerMigration("v3") { db in try StoreCounters.create(db) }
        migrator.registerMigration("v4") { db in
            try db.execute(sql: "ALTER TABLE query_indexes ADD COLUMN counted INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v5") { db in
            let microseconds = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
            try db.execute(sql: "INSERT OR IGNORE INTO meta(key, value) VALUES ('created_at', ?)",
                           arguments: [String(microseconds)])
        }
        migrator.registerMigration("v6") { db in
            try db.execute(sql: """
                CREATE TABLE peer_revisions (
                    peer TEXT NOT NULL,
                    id TEXT NOT NULL,
                    revs TEXT NOT NULL,
                    PRIMARY KEY (peer, id)
                ) WITHOUT ROWID
                """)
        }
        migrator.registerMigration("v7") { db in
            for index in try QueryIndex.all(db) where index.keepsRanks && !index.hasRankTable { try IndexRanks(index: index).build(db) }
        }
        migrator.registerMigration("v8") { db in
            try db.execute(sql: "ALTER TABLE revs ADD COLUMN local INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }
}
