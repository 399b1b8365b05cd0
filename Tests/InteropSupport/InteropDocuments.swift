import DocumentStore
public import Foundation
import DocumentFormat

/// The documents that make replication hard, written over CouchDB's HTTP API into any server
/// (ours or CouchDB), so a replication between the two is checked on all of them at once:
/// a small and a large (over 64 KB) attachment, a deleted document, a conflict between two
/// live branches, a conflict whose other branch is deleted, an ID that needs escaping, and
/// an attachment whose document was updated afterwards (so its `revpos` is older than the
/// revision).
public enum InteropDocuments {
    /// The IDs written by ``write(into:client:auth:)``.
    public static let ids = ["small-attachment", "large-attachment", "deleted", "conflicted", "conflicted-deleted", "recette d'été/1", "updated-after-attachment"]

    /// Bytes of the large attachment (deterministic, 96 KB, not compressible).
    public static let largeAttachment: Data = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: 96 * 1024)
        for index in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return Data(bytes)
    }()

    /// Writes the documents into `database`, which must exist.
    public static func write(into database: String, client: HTTPTestClient, auth: [String: String]) async throws {
        func put(_ id: String, _ body: JSONObject) async throws -> String {
            let reply = try await client.send("PUT", "/\(database)/\(DatabaseSnapshot.escaped(id))", json: .object(body), headers: auth)
            guard reply.status == 201, let rev = try reply.json().objectValue?["rev"]?.stringValue else {
                throw LiveCouchDBError("PUT /\(database)/\(id) answered \(reply.status): \(String(decoding: reply.body.prefix(500), as: UTF8.self))")
            }
            return rev
        }
        func inline(_ data: Data, _ type: String) -> JSONValue {
            ["content_type": .string(type), "data": .string(data.base64EncodedString())]
        }
        _ = try await put("small-attachment", [
            "kind": "note", "_attachments": ["note.txt": inline(Data("a small note\n".utf8), "text/plain")],
        ])
        _ = try await put("large-attachment", [
            "kind": "photo", "_attachments": ["photo.jpg": inline(largeAttachment, "image/jpeg")],
        ])
        let doomed = try await put("deleted", ["kind": "soon gone"])
        let deletion = try await client.send("DELETE", "/\(database)/deleted?rev=\(doomed)", headers: auth)
        guard deletion.status == 200 else { throw LiveCouchDBError("DELETE /\(database)/deleted answered \(deletion.status)") }
        _ = try await put("recette d'été/1", ["kind": "escaped", "name": "Crème brûlée"])
        let first = try await put("updated-after-attachment", [
            "kind": "photo", "_attachments": ["photo.jpg": inline(largeAttachment.prefix(70_000), "image/jpeg")],
        ])
        let current = try await client.send("GET", "/\(database)/updated-after-attachment", headers: auth.merging(["Accept": "application/json"]) { $1 })
        guard var body = try current.json().objectValue else { throw LiveCouchDBError("GET updated-after-attachment answered \(current.status)") }
        body["_rev"] = .string(first)
        body["kind"] = "photo, renamed"
        _ = try await put("updated-after-attachment", body)

        // Conflicts, inserted as a replicator would (new_edits:false), with 32-hex revision IDs.
        let base = String(repeating: "0", count: 31) + "1"
        func branch(_ id: String, _ hex: Character, _ body: JSONObject) -> JSONValue {
            var document = body
            document["_id"] = .string(id)
            document["_rev"] = .string("2-" + String(repeating: hex, count: 32))
            document["_revisions"] = ["start": 2, "ids": [.string(String(repeating: hex, count: 32)), .string(base)]]
            return .object(document)
        }
        let docs: [JSONValue] = [
            branch("conflicted", "a", ["kind": "branch a"]),
            branch("conflicted", "b", ["kind": "branch b"]),
            branch("conflicted-deleted", "c", ["kind": "live branch"]),
            branch("conflicted-deleted", "d", ["_deleted": true]),
        ]
        let bulk = try await client.send("POST", "/\(database)/_bulk_docs", json: ["new_edits": false, "docs": .array(docs)], headers: auth)
        guard bulk.status == 201 else {
            throw LiveCouchDBError("POST /\(database)/_bulk_docs answered \(bulk.status): \(String(decoding: bulk.body.prefix(500), as: UTF8.self))")
        }
    }
}
