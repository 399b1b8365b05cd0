import CouchProtocol
import DocumentFormat
import DocumentStore
import Hummingbird

/// `GET /{db}/_design/{name}/_info`: a design document's view-index information, in the
/// shape CouchDB 3.4.3 gives it (`{"name":…,"view_index":{…}}`). This server builds no view
/// index, so the index is always up to date with nothing pending, running or compacting;
/// its `signature` follows the design document's revision.
extension CouchResponder {
    /// Answers the request; 404 `missing` when there is no such design document, 405 for
    /// methods other than GET and HEAD.
    func designInfo(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allow(request, [.get])
        let (design, sequence) = try await database.store.withReader { store in
            (try store.get(id: id), try store.lastSequence)
        }
        guard let design else { throw CouchError.missing }
        let pending: JSONValue = ["minimum": 0, "preferred": 0, "total": 0]
        let index: JSONObject = [
            "updates_pending": pending, "waiting_commit": false, "waiting_clients": 0, "updater_running": false,
            "update_seq": .int(sequence), "sizes": ["file": 0, "external": 0, "active": 0],
            "signature": .string(design.rev.hash), "purge_seq": 0,
            "language": design.body["language"] ?? "javascript", "compact_running": false,
            "collator_versions": [],
        ]
        return CouchReply.json(200, ["name": .string(String(id.dropFirst("_design/".count))), "view_index": .object(index)])
    }
}
