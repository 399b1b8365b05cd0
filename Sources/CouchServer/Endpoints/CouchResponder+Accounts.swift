import CouchProtocol
import DocumentFormat
import DocumentStore
import Foundation
import Hummingbird

/// The `_users` database: account documents read, written and deleted one at a time, each
/// write checked by `UserDocument`'s rules and its clear password replaced by a
/// `PasswordHash` before it is stored; no reply ever shows the hash.
///
/// Only the endpoints that cannot show a document body are served besides the documents
/// themselves (`accountEndpoints`), so there is one place where the hash is taken out.
extension CouchResponder {
    /// The `_users` endpoints served: none of them shows a document body (`_all_docs` and
    /// `_changes` are refused `include_docs`).
    static let accountEndpoints: Set<String> = ["_all_docs", "_changes", "_security", "_revs_diff", "_ensure_full_commit", "_compact"]

    /// The refusal of every other `_users` request (`_find`, `_bulk_get`, `_bulk_docs`,
    /// `POST /_users`, attachments, `_local` documents).
    static let accountsRefusal = CouchError(
        status: 403, error: "forbidden",
        reason: "The _users database serves account documents one at a time, so their password hashes never leave the server.")

    /// Refuses, before any handler runs, the `_users` requests that could show a document
    /// body (403 `accountsRefusal`) and the `_local` ID that holds `_security` (400).
    static func checkReservedRoute(_ request: CouchRequest) throws {
        switch request.route {
        case .localDocument(_, SecurityObject.storageKey):
            throw CouchError(status: 400, error: "illegal_docid", reason: "This _local document ID is reserved for the server.")
        case .database(UserAccounts.databaseName) where request.method == .post:
            throw accountsRefusal
        case .databaseEndpoint(UserAccounts.databaseName, let endpoint):
            guard accountEndpoints.contains(endpoint), try !request.query.bool("include_docs") else { throw accountsRefusal }
        case .attachment(UserAccounts.databaseName, _, _), .localDocument(UserAccounts.databaseName, _):
            throw accountsRefusal
        default:
            break
        }
    }

    /// `GET|HEAD|PUT|DELETE /_users/{id}`.
    func accountDocument(_ id: String, _ database: Database, _ request: CouchRequest) async throws -> Response {
        try CouchDocument.validate(id: id)
        let store = database.store
        switch request.method {
        case .get, .head:
            guard let revision = try await store.withReader({ store in try store.get(id: id) }) else { throw CouchError.missing }
            var json = try DocumentRenderer().render(revision, store: store).json
            json = UserDocument.withoutHash(json)
            return CouchReply.json(200, .object(json), headers: [(.eTag, "\"\(revision.rev)\"")])
        case .put, .delete:
            var incoming: CouchDocument
            if request.method == .put {
                // As in CouchDB, the body is JSON whatever its type; account documents
                // carry no attachments, so a multipart body is not taken.
                guard request.mediaType != "multipart/related" else { throw CouchError.badContentType }
                incoming = try await CouchDocument(request.jsonObjectBody())
            } else {
                incoming = try CouchDocument(["_deleted": true])
                if let match = request.headers[.ifMatch] {
                    guard let parsed = RevisionID(match.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) else {
                        throw CouchError.invalidRev
                    }
                    incoming.rev = parsed
                }
            }
            if let queryRev = try request.query.revision() {
                if let bodyRev = incoming.rev, bodyRev != queryRev {
                    throw CouchError.badRequest("Document rev from request body and query string have different values")
                }
                incoming.rev = queryRev
            }
            let user = request.user
            let isAdmin = request.isDatabaseAdmin
            let iterations = state.configuration.passwordIterations
            let document = incoming
            // Checked and hashed inside the write, against the revision it replaces, so no
            // other write can change the account between the check and the write.
            let saved = try await store.withWriter { store throws -> DocumentRevision in
                var prepared = document
                let parent = try document.rev.map { try store.get(id: id, rev: $0) } ?? store.get(id: id)
                prepared.body = try UserDocument.prepare(
                    document.body, id: id, deleted: document.deleted, stored: parent?.body,
                    user: user, isAdmin: isAdmin, iterations: iterations)
                return try Self.saveNow(prepared, id: id, store: store)
            }
            database.didWrite()
            return CouchReply.json(
                request.method == .put ? 201 : 200, DocumentWriteReply(id: id, rev: saved.rev.description).json,
                headers: [(.eTag, "\"\(saved.rev)\"")])
        default:
            throw CouchError.methodNotAllowed
        }
    }
}
