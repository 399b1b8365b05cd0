import AsyncBridge
import CouchProtocol
import DocumentStore
import Foundation
import Hummingbird

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
            let stored = try await BlockingWork.run { try database.store.getLocal(id: id) }
            guard var body = stored else { throw CouchError.missing }
            let counter = body.removeValue(forKey: Self.localRevisionKey)?.intValue ?? 1
            body["_id"] = .string(fullID)
            body["_rev"] = .string("0-\(counter)")
            return CouchReply.json(200, .object(body))
        case .put:
            var object = try request.jsonObjectBody()
            let bodyRev = object.removeValue(forKey: "_rev")
            // CouchDB's replicator sends `_revisions: {start: 0, ids: ["N"]}` with checkpoints;
            // local documents have no history, so it carries nothing to keep.
            object.removeValue(forKey: "_revisions")
            let incoming = try CouchDocument(object)
            let given = bodyRev?.stringValue ?? request.query["rev"]
            var counter: Int64 = 1
            if let given {
                guard given.hasPrefix("0-"), let previous = Int64(given.dropFirst(2)) else { throw CouchError.invalidRev }
                counter = previous + 1
            }
            var body = incoming.body
            body[Self.localRevisionKey] = .int(counter)
            let stored = body
            try await BlockingWork.run { try database.store.putLocal(id: id, body: stored) }
            return CouchReply.json(201, ["ok": true, "id": .string(fullID), "rev": .string("0-\(counter)")],
                                   headers: [(.location, "\(request.baseURL)/\(Self.pathEncode(database.name.name))/\(Self.pathEncode(fullID))")])
        case .delete:
            let existed = try await BlockingWork.run { () throws -> Bool in
                guard try database.store.getLocal(id: id) != nil else { return false }
                try database.store.deleteLocal(id: id)
                return true
            }
            guard existed else { throw CouchError.missing }
            return CouchReply.json(200, ["ok": true, "id": .string(fullID), "rev": "0-0"])
        default:
            throw CouchError.methodNotAllowed
        }
    }
}
