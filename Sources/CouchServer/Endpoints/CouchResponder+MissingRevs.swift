import CouchProtocol
import DocumentFormat
import DocumentStore
import Hummingbird

/// `POST /{db}/_missing_revs`.
extension CouchResponder {
    /// Which of the offered revisions the database lacks, as `_revs_diff` finds them, in
    /// CouchDB's older reply shape (``MissingRevsReply``).
    func missingRevs(_ database: Database, _ request: CouchRequest) async throws -> Response {
        try Self.allowOnly(request, [.post])
        guard let offered = try await request.jsonBody().objectValue else {
            throw CouchError.badRequest("Request body must be a JSON object")
        }
        try checkEntryCount(offered.count, of: "document IDs")
        let asked = try RevsDiffMessage.Request(json: offered)
        let revisions = asked.revisions
        let diff = try await database.store.withReader { store in try store.revsDiff(revisions) }
        return CouchReply.json(200, MissingRevsReply(RevsDiffMessage.Response(entries: diff, unparseable: asked.unparseable)).json)
    }
}
