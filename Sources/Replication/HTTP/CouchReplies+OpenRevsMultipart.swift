import CouchProtocol
import DocumentStore
public import Foundation
import DocumentFormat

extension CouchReplies {
    /// `GET /db/{id}?open_revs=[…]` with `Accept: multipart/mixed`: one part per revision,
    /// either `application/json` (a document without following attachments, or
    /// `{"missing": rev}`) or `multipart/related` (the document, then one part per attachment
    /// marked `"follows": true`, named by `Content-Disposition: attachment; filename="…"`).
    ///
    /// Attachment bytes stay slices of the reply; each is checked against its stub's length
    /// and MD5 digest, so a damaged transfer is refused before anything reaches the store.
    public static func openRevsMultipart(_ data: Data, contentType: String, documentID: String) throws -> FetchResult {
        let body = try multipart(data, contentType: contentType, context: "open_revs reply of \(documentID)")
        var revisions: [TransferRevision] = []
        var failures: [DocumentFailure] = []
        for part in body.parts {
            switch part.mediaType {
            case "application/json":
                let value: JSONValue
                do {
                    value = try JSONValue.parse(part.body)
                } catch {
                    throw ShapeError("open_revs part of \(documentID) is not JSON: \(error)")
                }
                guard let object = value.objectValue else { throw ShapeError("open_revs part of \(documentID) is not an object") }
                if object["_id"] != nil {
                    revisions.append(try decode(object))
                } else {
                    let (revision, failure) = try openRevsEntry(value, documentID: documentID)
                    if let revision { revisions.append(revision) }
                    if let failure { failures.append(failure) }
                }
            case "multipart/related":
                revisions.append(try relatedRevision(part, documentID: documentID))
            default:
                throw ShapeError("open_revs part of \(documentID) has unexpected Content-Type \(part.contentType ?? "none")")
            }
        }
        return FetchResult(revisions: revisions, failures: failures)
    }

    /// A `multipart/related` part: the document JSON first, then its attachments' bytes,
    /// matched to their stubs and checked by the codec the server shares.
    private static func relatedRevision(_ part: MultipartPart, documentID: String) throws -> TransferRevision {
        let related = try multipart(part.body, contentType: part.contentType ?? "",
                                    context: "multipart/related part of \(documentID)")
        guard let first = related.parts.first, first.mediaType == "application/json" else {
            throw ShapeError("multipart/related part of \(documentID) does not start with the document JSON")
        }
        let object: JSONObject
        do {
            guard let parsed = try JSONValue.parse(first.body).objectValue else {
                throw ShapeError("document part of \(documentID) is not an object")
            }
            object = parsed
        } catch let error as ShapeError {
            throw error
        } catch {
            throw ShapeError("document part of \(documentID) is not JSON: \(error)")
        }
        do throws(CouchError) {
            var document = try CouchDocument(object)
            try document.attachFollowingParts(related.parts.dropFirst())
            return try TransferRevision(document)
        } catch {
            throw ShapeError("document \(documentID): \(error.reason)")
        }
    }

    private static func decode(_ document: JSONObject) throws -> TransferRevision {
        do throws(CouchError) {
            return try TransferRevision(CouchDocument(document))
        } catch {
            throw ShapeError("document \(document["_id"]?.stringValue ?? "?"): \(error.reason)")
        }
    }

    private static func multipart(_ data: Data, contentType: String, context: String) throws -> MultipartBody {
        do throws(MultipartFormatError) {
            return try MultipartBody(data: data, contentType: contentType)
        } catch {
            throw ShapeError("\(context): \(error.description)")
        }
    }
}
