import CouchProtocol
import DocumentStore
import Foundation
import Hummingbird
import DocumentFormat
import HTTPSupport

/// `GET|PUT|DELETE /{db}/_local/{id}`: non-replicated documents such as replication
/// checkpoints, with CouchDB's `0-N` revisions.
extension CouchResponder {
    /// Body member holding a local document's revision counter inside the store.
    static let localRevisionKey = "couchserver_local_rev"

    func localDocument(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        guard !id.isEmpty else { throw CouchError(status: 400, error: "illegal_docid", reason: "Document id must not be empty") }
        let fullID = "_local/" + id
        switch request.method {
        case .get, .head:
            let stored = try await database.store.withReader { store in try store.getLocal(id: id) }
            guard var body = stored else { throw CouchError.missing }
            let counter = body.removeValue(forKey: Self.localRevisionKey)?.intValue ?? 1
            body["_id"] = .string(fullID)
            body["_rev"] = .string("0-\(counter)")
            return CouchReply.json(200, .object(body))
        case .put:
            var object = try await request.jsonObjectBody()
            let bodyRev = object.removeValue(forKey: "_rev")
            // CouchDB's replicator sends `_revisions: {start: 0, ids: ["N"]}` with checkpoints;
            // local documents have no history, so it carries nothing to keep.
            object.removeValue(forKey: "_revisions")
            let incoming = try CouchDocument(object)
            let given = try Self.localRevision(bodyRev.map { $0.isNull ? nil : $0 } ?? request.query["rev"].map { .string($0) })
            let body = incoming.body
            let counter = try await database.store.withWriter { store throws -> Int64 in
                var written: Int64 = 0
                try store.updateLocal(id: id) { stored in
                    written = try Self.nextLocalRevision(stored: stored, given: given)
                    var updated = body
                    updated[Self.localRevisionKey] = .int(written)
                    return updated
                }
                return written
            }
            return CouchReply.json(201, DocumentWriteReply(id: fullID, rev: "0-\(counter)").json,
                                   headers: [(.location, "\(request.baseURL)/\(PercentEncoding.pathSegment(database.name.name))/\(CouchDocument.encodedPath(of: fullID))")])
        case .delete:
            // Like PUT: only the current revision may delete, so a stale writer cannot remove
            // a checkpoint another one has moved on.
            let ifMatch = request.headers[.ifMatch].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            let given = try Self.localRevision((request.query["rev"] ?? ifMatch).map { .string($0) })
            try await database.store.withWriter { store in
                try store.updateLocal(id: id) { stored in
                    guard let stored else { throw CouchError.missing }
                    let current = stored[Self.localRevisionKey]?.intValue ?? 1
                    guard let given, given == current else { throw CouchError.conflict }
                    return nil
                }
            }
            return CouchReply.json(200, DocumentWriteReply(id: fullID, rev: "0-0").json)
        default:
            throw CouchError.methodNotAllowed
        }
    }

    /// The counter of a `0-N` revision given with a write (`nil` when none was given).
    /// - Throws: 400 "Invalid rev format" unless it is `0-N` with N in `0...WireNumber.maximum`.
    static func localRevision(_ value: JSONValue?) throws -> Int64? {
        guard let value else { return nil }
        guard let text = value.stringValue, text.hasPrefix("0-"), let counter = WireNumber.count(text.dropFirst(2)) else {
            throw CouchError.invalidRev
        }
        return Int64(counter)
    }

    /// The counter a write gets: creating a local document needs no revision (or `0-0`);
    /// updating one needs its current revision. Stricter than CouchDB 3.4.3, which lets a
    /// write without `_rev` overwrite, so a stale writer cannot replace a checkpoint.
    /// - Throws: 409 `conflict` when the given revision is missing or stale for an existing
    ///   document, or names a revision of one that does not exist; 400 when the counter is
    ///   at ``WireNumber/maximum`` and cannot advance.
    static func nextLocalRevision(stored: JSONObject?, given: Int64?) throws -> Int64 {
        guard let stored else {
            guard given == nil || given == 0 else { throw CouchError.conflict }
            return 1
        }
        let current = stored[localRevisionKey]?.intValue ?? 1
        guard let given, given == current else { throw CouchError.conflict }
        guard current < WireNumber.maximum else {
            throw CouchError.badRequest("Local document revision 0-\(current) cannot be advanced; delete the document and write it again")
        }
        return current + 1
    }
}
