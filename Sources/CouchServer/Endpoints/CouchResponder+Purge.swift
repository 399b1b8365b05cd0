import CouchProtocol
import DocumentFormat
import DocumentStore
import Hummingbird

/// `POST /{db}/_purge`.
extension CouchResponder {
    /// Removes leaf revisions as if they had never been written (``PurgeReply``). The body
    /// maps document IDs to arrays of revisions; at most ``maximumPurgedRevisions`` in all.
    func purge(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allowOnly(request, [.post])
        guard let body = try await request.jsonBody().objectValue else {
            throw CouchError.badRequest("Request body must be a JSON object")
        }
        var requests: [String: [RevisionID]] = [:]
        var count = 0
        for (id, value) in body {
            guard let array = value.arrayValue else { throw CouchError.badRequest("Invalid list of revisions") }
            var revisions: [RevisionID] = []
            for element in array {
                guard let text = element.stringValue, let rev = RevisionID(text) else { throw CouchError.invalidRev }
                revisions.append(rev)
            }
            count += revisions.count
            requests[id] = revisions
        }
        try checkEntryCount(max(count, body.count), of: "revisions")
        let asked = requests
        let purged = try await database.store.withWriter { store in try store.purge(asked) }
        database.didWrite()
        return CouchReply.json(201, PurgeReply(purged: purged).json)
    }
}
