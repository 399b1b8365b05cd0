import DocumentStore
import Foundation

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
                    revisions.append(try decode(object, following: [:]))
                } else {
                    let (revision, failure) = try openRevsEntry(value, documentID: documentID)
                    if let revision { revisions.append(revision) }
                    if let failure { failures.append(failure) }
                }
            case "multipart/related":
                revisions.append(try relatedRevision(part, documentID: documentID))
            default:
                throw ShapeError("open_revs part of \(documentID) has unexpected Content-Type \(part.headers["content-type"] ?? "none")")
            }
        }
        return FetchResult(revisions: revisions, failures: failures)
    }

    /// A `multipart/related` part: the document JSON first, then its attachments' bytes.
    private static func relatedRevision(_ part: MultipartBody.Part, documentID: String) throws -> TransferRevision {
        let related = try multipart(part.body, contentType: part.headers["content-type"] ?? "",
                                    context: "multipart/related part of \(documentID)")
        guard let first = related.parts.first, first.mediaType == "application/json" else {
            throw ShapeError("multipart/related part of \(documentID) does not start with the document JSON")
        }
        let document: JSONObject
        do {
            guard let object = try JSONValue.parse(first.body).objectValue else {
                throw ShapeError("document part of \(documentID) is not an object")
            }
            document = object
        } catch let error as ShapeError {
            throw error
        } catch {
            throw ShapeError("document part of \(documentID) is not JSON: \(error)")
        }
        let stubs = document["_attachments"]?.objectValue ?? [:]
        var unnamed = stubs.filter { $0.value.objectValue?["follows"]?.boolValue == true }.map(\.key)
        var following: [String: Data] = [:]
        for attachment in related.parts.dropFirst() {
            if let encoding = attachment.headers["content-encoding"], encoding.lowercased() != "identity" {
                throw ShapeError("attachment part of \(documentID) came with Content-Encoding \(encoding); it must be requested without compression")
            }
            let name: String
            if let filename = attachment.filename {
                name = filename
            } else if unnamed.count == 1 {
                name = unnamed[0]
            } else {
                throw ShapeError("attachment part of \(documentID) has no Content-Disposition filename to match it to a stub")
            }
            guard stubs[name]?.objectValue?["follows"]?.boolValue == true else {
                throw ShapeError("attachment part \(name) of \(documentID) matches no stub marked follows")
            }
            guard following[name] == nil else { throw ShapeError("attachment \(name) of \(documentID) came twice") }
            following[name] = attachment.body
            unnamed.removeAll { $0 == name }
        }
        return try decode(document, following: following)
    }

    private static func decode(_ document: JSONObject, following: [String: Data]) throws -> TransferRevision {
        do {
            return try CouchDocumentCoding.decodeRevision(document, following: following)
        } catch let error as CouchDocumentCoding.ShapeError {
            throw ShapeError(error.description)
        }
    }

    private static func multipart(_ data: Data, contentType: String, context: String) throws -> MultipartBody {
        do {
            return try MultipartBody(data: data, contentType: contentType)
        } catch let error as MultipartBody.FormatError {
            throw ShapeError("\(context): \(error.description)")
        }
    }
}
