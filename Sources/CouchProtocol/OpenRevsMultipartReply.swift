public import DocumentFormat
public import HTTPSupport
public import Foundation

/// The `multipart/mixed` reply of `GET /{db}/{docid}?open_revs=…`: one part per revision,
/// either `application/json` (a document without following attachments, or
/// `{"missing": rev}` marked `error="true"`) or `multipart/related` (the document, then one
/// part per attachment marked `"follows": true`, named by
/// `Content-Disposition: attachment; filename="…"`).
///
/// The one definition of that framing: the server writes its parts with
/// ``RevisionResult/appendPart(to:)`` and ``appendRelated(contentType:body:to:)``, the
/// replicator reads them here. Attachment bytes stay slices of the reply (held once, as
/// received); each is checked against its stub's length and MD5 digest, so a damaged
/// transfer is refused before anything reaches a store.
public struct OpenRevsMultipartReply: Sendable {
    /// One part of the reply.
    public enum Part: Sendable {
        /// A revision, its `follows` attachments carrying their parts' bytes.
        case document(CouchDocument)
        /// A revision the server does not have (the text asked for).
        case missing(String)
        /// A revision the server could not return.
        case error(DocumentFailure)
    }

    /// The parts, in order.
    public var parts: [Part]

    /// Reads a reply for document `documentID` whose `Content-Type` is `contentType`; a
    /// ``ReplyShapeError`` naming the document when the framing is broken, a part has an
    /// unexpected type, is not JSON, or holds a document the codec refuses (following bytes
    /// that do not match their stub included).
    public init(data: Data, contentType: String, documentID: String) throws(ReplyShapeError) {
        let body = try Self.multipart(data, contentType: contentType, context: "open_revs reply of \(documentID)")
        var parts: [Part] = []
        parts.reserveCapacity(body.parts.count)
        for part in body.parts {
            switch part.mediaType {
            case "application/json":
                let value: JSONValue
                do {
                    value = try JSONValue.parse(part.body)
                } catch {
                    throw ReplyShapeError("open_revs part of \(documentID) is not JSON: \(error)")
                }
                guard let object = value.objectValue else { throw ReplyShapeError("open_revs part of \(documentID) is not an object") }
                if object["_id"] != nil {
                    parts.append(.document(try Self.document(object, documentID: object["_id"]?.stringValue ?? "?")))
                } else {
                    switch try RevisionResult(json: value, documentID: documentID) {
                    case .ok(let document):
                        parts.append(.document(try Self.document(document, documentID: document["_id"]?.stringValue ?? documentID)))
                    case .missing(let rev): parts.append(.missing(rev))
                    case .error(let failure): parts.append(.error(DocumentFailure(json: failure, id: documentID, error: "error")))
                    }
                }
            case "multipart/related":
                parts.append(.document(try Self.related(part, documentID: documentID)))
            default:
                throw ReplyShapeError("open_revs part of \(documentID) has unexpected Content-Type \(part.contentType ?? "none")")
            }
        }
        self.parts = parts
    }

    /// Appends a revision with following attachments as one `multipart/related` part: `body`
    /// is a whole `multipart/related` body (the document JSON, then its attachments' parts,
    /// written with `MultipartWriter` framed `.tight`) whose
    /// `Content-Type` is `contentType`.
    public static func appendRelated<Output>(contentType: String, body: some DataProtocol,
                                             to writer: inout MultipartWriter<Output>) throws {
        try writer.appendPart(headers: [("Content-Type", contentType)], body: body)
    }

    /// A `multipart/related` part: the document JSON first, then its attachments' bytes,
    /// matched to their stubs and checked by the codec the server shares.
    private static func related(_ part: MultipartPart, documentID: String) throws(ReplyShapeError) -> CouchDocument {
        let related = try multipart(part.body, contentType: part.contentType ?? "", context: "multipart/related part of \(documentID)")
        guard let first = related.parts.first, first.mediaType == "application/json" else {
            throw ReplyShapeError("multipart/related part of \(documentID) does not start with the document JSON")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(first.body)
        } catch {
            throw ReplyShapeError("document part of \(documentID) is not JSON: \(error)")
        }
        guard let object = parsed.objectValue else { throw ReplyShapeError("document part of \(documentID) is not an object") }
        do throws(CouchError) {
            var document = try CouchDocument(object)
            try document.attachFollowingParts(related.parts.dropFirst())
            return document
        } catch {
            throw ReplyShapeError("document \(documentID): \(error.reason)")
        }
    }

    /// `object` read by the document codec; a ``ReplyShapeError`` naming `documentID` when it
    /// refuses it.
    private static func document(_ object: JSONObject, documentID: String) throws(ReplyShapeError) -> CouchDocument {
        do throws(CouchError) {
            return try CouchDocument(object)
        } catch {
            throw ReplyShapeError("document \(documentID): \(error.reason)")
        }
    }

    private static func multipart(_ data: Data, contentType: String, context: String) throws(ReplyShapeError) -> MultipartBody {
        do throws(MultipartFormatError) {
            return try MultipartBody(data: data, contentType: contentType)
        } catch {
            throw ReplyShapeError("\(context): \(error.description)")
        }
    }
}
