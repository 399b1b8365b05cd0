import DocumentStore
import Foundation

/// A document as a client writes it (PUT body, `_bulk_docs` element, multipart JSON part),
/// split into CouchDB's special members and the plain body the store keeps.
struct IncomingDocument: Sendable {
    /// `_id`, if given.
    var id: String?
    /// `_rev`, if given.
    var rev: RevisionID?
    /// `_deleted: true`.
    var deleted: Bool
    /// The body without `_` members.
    var body: JSONObject
    /// `_revisions` expanded to revision IDs, newest first; `nil` when absent.
    var revisions: [RevisionID]?
    /// `_attachments`, or `nil` when the member is absent.
    var attachments: [String: IncomingAttachment]?

    /// Special members CouchDB accepts in a written document; any other `_` member is refused.
    private static let acceptedSpecial: Set<String> = [
        "_id", "_rev", "_deleted", "_attachments", "_revisions", "_revs_info", "_conflicts",
        "_deleted_conflicts", "_local_seq",
    ]

    /// Parses `object`; 400 with CouchDB's error names when a member is malformed.
    init(_ object: JSONObject) throws {
        var body = JSONObject()
        for (key, value) in object where !key.hasPrefix("_") { body[key] = value }
        for key in object.keys where key.hasPrefix("_") && !Self.acceptedSpecial.contains(key) {
            throw CouchError.badSpecialMember(key)
        }
        self.body = body
        switch object["_id"] {
        case nil: id = nil
        case .string(let text): id = text
        default: throw CouchError.badRequest("Document id must be a string")
        }
        switch object["_rev"] {
        case nil, .null: rev = nil
        case .string(let text):
            guard let parsed = RevisionID(text) else { throw CouchError.invalidRev }
            rev = parsed
        default: throw CouchError.invalidRev
        }
        deleted = object["_deleted"]?.boolValue ?? false
        if let revisions = object["_revisions"] {
            guard let start = revisions.objectValue?["start"]?.intValue, start > 0,
                  let ids = revisions.objectValue?["ids"]?.arrayValue, !ids.isEmpty, ids.count <= start
            else { throw CouchError.badRequest("_revisions must be {\"start\": N, \"ids\": [...]}") }
            var history = [RevisionID]()
            for (offset, element) in ids.enumerated() {
                guard let hash = element.stringValue, !hash.isEmpty else {
                    throw CouchError.badRequest("_revisions ids must be strings")
                }
                history.append(RevisionID(generation: Int(start) - offset, hash: hash))
            }
            if let rev, rev != history[0] {
                throw CouchError.badRequest("_rev \(rev) does not match _revisions")
            }
            self.revisions = history
        } else {
            revisions = nil
        }
        if let attachments = object["_attachments"] {
            guard let members = attachments.objectValue else {
                throw CouchError.badRequest("_attachments must be a JSON object")
            }
            var parsed = [String: IncomingAttachment]()
            for (name, value) in members { parsed[name] = try IncomingAttachment(name: name, json: value) }
            self.attachments = parsed
        } else {
            attachments = nil
        }
    }

    /// Whether an ID can name a stored document: not `_`-prefixed, or a design document.
    static func isDocumentID(_ id: String) -> Bool {
        !id.hasPrefix("_") || (id.hasPrefix("_design/") && id != "_design/")
    }

    /// Checks a document ID the way CouchDB does for documents (not `_local`): non-empty and
    /// not starting with `_`, except design documents `_design/<name>`.
    static func validate(id: String) throws {
        if id.isEmpty { throw CouchError(status: 400, error: "illegal_docid", reason: "Document id must not be empty") }
        if id == "_design/" { throw CouchError(status: 400, error: "illegal_docid", reason: "Illegal document id `_design/`") }
        if id.hasPrefix("_"), !id.hasPrefix("_design/") { throw CouchError.illegalDocID }
    }

    /// Replaces `follows` attachments with the bytes of the multipart parts after the JSON part,
    /// matched by file name, else in order; 400 when a part is missing.
    mutating func attachFollowingParts(_ parts: [MultipartPart]) throws {
        guard var attachments else { return }
        var unnamed = parts.filter { $0.fileName == nil }.makeIterator()
        let named = Dictionary(parts.compactMap { p in p.fileName.map { ($0, p) } }, uniquingKeysWith: { first, _ in first })
        for name in attachments.keys.sorted() {
            guard case .follows(let contentType, let length, _, let revpos) = attachments[name]! else { continue }
            guard let part = named[name] ?? unnamed.next() else {
                throw CouchError.badRequest("No multipart part for attachment '\(name)'")
            }
            if let length, length != part.body.count {
                throw CouchError.badRequest("Attachment '\(name)' is \(part.body.count) bytes, not \(length)")
            }
            attachments[name] = .data(contentType: contentType, data: part.body, revpos: revpos)
        }
        self.attachments = attachments
    }
}
