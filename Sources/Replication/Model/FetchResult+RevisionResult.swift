import CouchProtocol
import DocumentStore
import DocumentFormat

/// Revisions read from a remote database, from the `_bulk_get` and `open_revs` messages.
extension FetchResult {
    /// The revisions and failures of a `_bulk_get` reply, in order.
    /// - Throws: ``ReplyShapeError`` when a returned document cannot be stored as a revision.
    init(_ reply: BulkGetMessage.Response) throws(ReplyShapeError) {
        var result = FetchResult(revisions: [], failures: [])
        for entry in reply.results {
            for doc in entry.docs { try result.append(doc, documentID: entry.id ?? "?") }
        }
        self = result
    }

    /// The revisions and failures of a JSON `open_revs` reply for `documentID`, in order.
    /// - Throws: ``ReplyShapeError`` when a returned document cannot be stored as a revision.
    init(_ reply: OpenRevsReply, documentID: String) throws(ReplyShapeError) {
        var result = FetchResult(revisions: [], failures: [])
        for entry in reply.entries { try result.append(entry, documentID: documentID) }
        self = result
    }

    /// The revisions and failures of a multipart `open_revs` reply for `documentID`, in
    /// order; attachment bytes stay slices of the reply.
    /// - Throws: ``ReplyShapeError`` when a returned document cannot be stored as a revision.
    init(_ reply: OpenRevsMultipartReply, documentID: String) throws(ReplyShapeError) {
        var result = FetchResult(revisions: [], failures: [])
        for part in reply.parts {
            switch part {
            case .document(let document): result.revisions.append(try Self.revision(document, documentID: document.id ?? documentID))
            case .missing(let rev): result.failures.append(Self.missing(rev, documentID: documentID))
            case .error(let failure): result.failures.append(failure)
            }
        }
        self = result
    }

    private mutating func append(_ entry: RevisionResult, documentID: String) throws(ReplyShapeError) {
        switch entry {
        case .ok(let object):
            let id = object["_id"]?.stringValue ?? documentID
            let document: CouchDocument
            do throws(CouchError) {
                document = try CouchDocument(object)
            } catch {
                throw ReplyShapeError("document \(id): \(error.reason)")
            }
            revisions.append(try Self.revision(document, documentID: id))
        case .missing(let rev): failures.append(Self.missing(rev, documentID: documentID))
        case .error(let failure): failures.append(DocumentFailure(json: failure, id: documentID, error: "error"))
        }
    }

    /// `document` as a revision to store; a ``ReplyShapeError`` naming `documentID` when it
    /// lacks its ID or revision or an attachment still waits for its bytes.
    private static func revision(_ document: CouchDocument, documentID: String) throws(ReplyShapeError) -> ReplicatedRevision {
        do throws(CouchError) {
            return try document.replicatedRevision()
        } catch {
            throw ReplyShapeError("document \(documentID): \(error.reason)")
        }
    }

    /// A revision the source does not have: `not_found`, `missing`.
    private static func missing(_ rev: String, documentID: String) -> DocumentFailure {
        DocumentFailure(id: documentID, rev: RevisionID(rev), error: "not_found", reason: "missing")
    }
}
