import DocumentStore
import Foundation
import DocumentFormat

/// The request bodies of a replayed push, built before the clock starts so both clients send
/// the same bytes: per batch of changes, one `_revs_diff` body and the `_bulk_docs` bodies
/// (`new_edits:false`) the replicator would split the batch into.
struct ReplayDocuments {
    /// One batch of changes as the push sends it.
    struct Batch {
        /// `{"id": ["1-…"], …}` for the batch's documents.
        var revsDiff: Data
        /// `{"new_edits":false,"docs":[…]}`, one per concurrent write request.
        var bulkDocs: [Data]
        /// How many documents the batch holds.
        var documents: Int
    }

    /// The batches, in the order they are pushed.
    let batches: [Batch]

    /// `count` recipe documents from `RecipeDocumentFactory`, at a first revision each, every
    /// `attachmentEvery`-th (from the first) with an `attachmentBytes` thumbnail inline (base64),
    /// in batches of `batchSize`, each split into write requests as `Replicator.writeChunks`
    /// splits them (`Sources/Replication/Engine/Replicator.swift`): `connections` requests of
    /// at most `documentsPerWrite` documents.
    init(count: Int, attachmentEvery: Int?, attachmentBytes: Int, batchSize: Int, documentsPerWrite: Int, connections: Int) {
        let factory = RecipeDocumentFactory()
        var batches: [Batch] = []
        for start in stride(from: 0, to: count, by: batchSize) {
            let indices = Array(start..<min(start + batchSize, count))
            var diff = JSONObject()
            var documents: [JSONValue] = []
            for index in indices {
                let hash = Self.revisionHash(index)
                var body = factory.body(index)
                body["_id"] = .string(factory.id(index))
                body["_rev"] = .string("1-" + hash)
                body["_revisions"] = ["start": 1, "ids": [.string(hash)]]
                if let every = attachmentEvery, index % every == 0 {
                    let data = SyncBenchmark.bytes(attachmentBytes, seed: index)
                    body["_attachments"] = ["thumbnailImage": ["content_type": "image/jpeg", "revpos": 1,
                                                               "data": .string(data.base64EncodedString())]]
                }
                diff[factory.id(index)] = [.string("1-" + hash)]
                documents.append(.object(body))
            }
            let perRequest = max(1, min(documentsPerWrite, (documents.count + connections - 1) / max(1, connections)))
            let bulkDocs = stride(from: 0, to: documents.count, by: perRequest).map { first in
                JSONWriter.couchDB.data(["new_edits": false,
                                         "docs": .array(Array(documents[first..<min(first + perRequest, documents.count)]))])
            }
            batches.append(Batch(revsDiff: JSONWriter.couchDB.data(.object(diff)), bulkDocs: bulkDocs, documents: indices.count))
        }
        self.batches = batches
    }

    /// A deterministic 32-digit hexadecimal revision hash for document number `index`.
    private static func revisionHash(_ index: Int) -> String {
        var state = UInt64(truncatingIfNeeded: index) &+ 0x5EED
        var text = ""
        for _ in 0..<2 {
            state = state &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D
            var x = state ^ (state >> 29)
            x = x &* 0xBF58_476D_1CE4_E5B9
            let part = String(x, radix: 16)
            text += String(repeating: "0", count: 16 - part.count) + part
        }
        return text
    }
}
