import DocumentFormat
import Foundation
import GRDB

/// The floor for writing recipe documents: the same JSON as rows of a bare SQLite table
/// (`id TEXT PRIMARY KEY, json BLOB`), the same attachment bytes as rows of a second one,
/// the store's file settings (WAL, `synchronous = FULL`), the same batches through prepared
/// statements. `recipes-bench store` sets the store's inserts against it and
/// `recipes-bench sync` its push and pull, each in the same run.
enum RawDocumentInsertAnchor {
    /// Seconds spent inserting documents `0..<docs` of `factory` into a new file in
    /// `folder`, `batch` per transaction (only the inserts are timed), and the file's size.
    /// With `attachmentEvery`, every such document also has the attachment
    /// ``RecipeDocumentFactory/write(_:into:attachmentEvery:attachmentBytes:idPrefix:)`` gives it.
    static func seconds(docs: Int, factory: RecipeDocumentFactory, batch: Int, attachmentEvery: Int? = nil, attachmentBytes: Int = 0,
                        in folder: URL) throws -> (seconds: Double, bytes: Int64) {
        let path = folder.appendingPathComponent("raw-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let raw = try DatabasePool(path: path, configuration: configuration)
        try raw.write { db in
            try db.execute(sql: "CREATE TABLE docs (id TEXT PRIMARY KEY NOT NULL, json BLOB NOT NULL)")
            try db.execute(sql: "CREATE TABLE attachments (id TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL)")
        }
        var total = 0.0
        for start in stride(from: 0, to: docs, by: batch) {
            let rows = (start..<min(start + batch, docs)).map { n in
                (factory.id(n), factory.body(n), factory.attachment(n, every: attachmentEvery, bytes: attachmentBytes))
            }
            let began = ContinuousClock.now
            try raw.write { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO docs(id, json) VALUES (?, ?)")
                let attach = try db.cachedStatement(sql: "INSERT INTO attachments(id, data) VALUES (?, ?)")
                for (id, body, attachment) in rows {
                    try insert.execute(arguments: [id, CanonicalJSON.encode(.object(body))])
                    if let attachment { try attach.execute(arguments: [id, attachment]) }
                }
            }
            let elapsed = ContinuousClock.now - began
            total += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        try raw.close()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        return (total, bytes)
    }
}
