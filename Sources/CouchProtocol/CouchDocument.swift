public import DocumentFormat
public import HTTPSupport
import Foundation

/// A document as it travels in CouchDB's JSON (a PUT body, a `_bulk_docs` element, a
/// `_bulk_get` or `open_revs` result, the JSON part of a multipart body), split into CouchDB's
/// special members and the plain body a store keeps.
///
/// Server and client read documents through this one type, so both accept and refuse the
/// same things: `_revisions` must be a contiguous ancestry that starts at `_rev`, attachments
/// are inline, stubs or following parts, and following bytes must match their length and MD5.
public struct CouchDocument: Sendable {
    /// `_id`, if given.
    public var id: String?
    /// `_rev`, if given.
    public var rev: RevisionID?
    /// `_deleted: true`.
    public var deleted: Bool
    /// The body without `_` members.
    public var body: JSONObject
    /// `_revisions` expanded to revision IDs, newest first; `nil` when absent.
    public var revisions: [RevisionID]?
    /// `_attachments`, or `nil` when the member is absent.
    public var attachments: [String: CouchAttachment]?
    /// The body as received, in its members' order, for hashing a new revision's ID as
    /// CouchDB does; `nil` when the document was not read from text (it is then hashed in
    /// canonical order). Set by whoever holds the bytes the document was parsed from.
    public var revisionBody: RevisionBody?

    /// Special members CouchDB accepts in a document (besides `ReplicatorStateFields`, which
    /// stay in the body); any other `_` member is refused.
    private static let acceptedSpecial: Set<String> = [
        "_id", "_rev", "_deleted", "_attachments", "_revisions", "_revs_info", "_conflicts",
        "_deleted_conflicts", "_local_seq",
    ]

    /// Parses `object`.
    /// - Throws: 400 with CouchDB's error names when a member is malformed: an unknown `_`
    ///   member (`doc_validation`), a non-string `_id`, an invalid `_rev`, a `_revisions` that
    ///   is not `{"start": N, "ids": [...]}` with 1 to N non-empty ids starting at `_rev`, or a
    ///   malformed attachment.
    public init(_ object: JSONObject) throws(CouchError) {
        var body = JSONObject()
        body.reserveCapacity(object.count)
        for (key, value) in object {
            if !key.hasPrefix("_") || ReplicatorStateFields.names.contains(key) {
                body[key] = value
            } else if !Self.acceptedSpecial.contains(key) {
                throw CouchError.badSpecialMember(key)
            }
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
        revisions = try object["_revisions"].map { value throws(CouchError) in try Self.history(value, rev: rev) }
        if let attachments = object["_attachments"] {
            guard let members = attachments.objectValue else {
                throw CouchError.badRequest("_attachments must be a JSON object")
            }
            var parsed = [String: CouchAttachment]()
            for (name, value) in members { parsed[name] = try CouchAttachment(name: name, json: value) }
            self.attachments = parsed
        } else {
            attachments = nil
        }
    }

    /// `_revisions` expanded, newest first, checked against `rev` when there is one.
    private static func history(_ value: JSONValue, rev: RevisionID?) throws(CouchError) -> [RevisionID] {
        guard let start = value.objectValue?["start"]?.intValue, start > 0, start <= Int64(RevisionID.maximumGeneration),
              let ids = value.objectValue?["ids"]?.arrayValue, !ids.isEmpty, ids.count <= start
        else { throw CouchError.badRequest("_revisions must be {\"start\": N, \"ids\": [...]} with 1 to N ids and N from 1 to \(RevisionID.maximumGeneration)") }
        var history = [RevisionID]()
        history.reserveCapacity(ids.count)
        for (offset, element) in ids.enumerated() {
            guard let hash = element.stringValue, !hash.isEmpty else {
                throw CouchError.badRequest("_revisions ids must be non-empty strings")
            }
            history.append(RevisionID(generation: Int(start) - offset, hash: hash))
        }
        if let rev, rev != history[0] {
            throw CouchError.badRequest("_rev \(rev) does not match _revisions, which starts at \(history[0])")
        }
        return history
    }

    /// Whether an ID can name a stored document: not `_`-prefixed, or a design document.
    public static func isDocumentID(_ id: String) -> Bool {
        !id.hasPrefix("_") || (id.hasPrefix("_design/") && id != "_design/")
    }

    /// Checks a document ID the way CouchDB does for documents (not `_local`).
    /// - Throws: 400 `illegal_docid` when it is empty or starts with `_` without being a
    ///   design document `_design/<name>`.
    public static func validate(id: String) throws(CouchError) {
        if id.isEmpty { throw CouchError(status: 400, error: "illegal_docid", reason: "Document id must not be empty") }
        if id == "_design/" { throw CouchError(status: 400, error: "illegal_docid", reason: "Illegal document id `_design/`") }
        if id.hasPrefix("_"), !id.hasPrefix("_design/") { throw CouchError.illegalDocID }
    }

    /// Replaces the `follows` attachments with the bytes of `parts`, the multipart parts that
    /// came after the document's JSON part. A part is matched by its `Content-Disposition`
    /// file name, or, without one, to the only `follows` attachment still unmatched.
    /// - Throws: 400 `bad_request` when a part is compressed without its entry saying so
    ///   (`"encoding": "gzip"`), matches no `follows` attachment,
    ///   comes twice or cannot be matched unambiguously, when a `follows` attachment gets no
    ///   part, or when a part's bytes differ from the entry's `length` or MD5 `digest`.
    public mutating func attachFollowingParts(_ parts: some Sequence<MultipartPart>) throws(CouchError) {
        var attachments = self.attachments ?? [:]
        var unmatched = Set(attachments.compactMap { name, attachment in
            if case .follows = attachment { return name } else { return nil }
        })
        var matched = Set<String>()
        for part in parts {
            let partEncoding = part.headers["content-encoding"]?.lowercased()
            let name: String
            if let fileName = part.fileName {
                name = fileName
            } else if unmatched.count == 1 {
                name = unmatched.first!
            } else {
                throw CouchError.badRequest("A multipart part has no Content-Disposition file name to match it to an attachment")
            }
            guard matched.insert(name).inserted else {
                throw CouchError.badRequest("Attachment '\(name)' came in more than one multipart part")
            }
            guard let attachment = attachments[name], unmatched.remove(name) != nil else {
                throw CouchError.badRequest("Multipart part '\(name)' matches no attachment marked follows")
            }
            // A compressed part is read only as its entry announces (`"encoding": "gzip"`):
            // compressed bytes must never be stored as if they were the attachment.
            if let partEncoding, partEncoding != "identity", !(partEncoding == "gzip" && attachment.followsEncoded) {
                throw CouchError.badRequest("A multipart part came with Content-Encoding \(partEncoding) that its attachment entry does not announce")
            }
            attachments[name] = try attachment.receiving(part.body, name: name)
        }
        if let missing = unmatched.sorted().first {
            throw CouchError.badRequest("No multipart part for attachment '\(missing)'")
        }
        if self.attachments != nil { self.attachments = attachments }
    }

    /// Fills in the `length` of stubs that lack one with `storedLength(digest)`, the length of
    /// the bytes the receiver holds under that digest (CouchDB's replicator may leave it out),
    /// and checks the `length` of those that have one against it
    /// (``AttachmentValidation/checkStub(length:storedLength:of:)``).
    /// - Throws: what `storedLength` throws; 400 `bad_request` (a ``CouchError``) when a
    ///   stub's length differs from the stored bytes'.
    public mutating func completeStubLengths(_ storedLength: (String) throws -> Int?) throws {
        guard var attachments else { return }
        for (name, attachment) in attachments {
            guard case .stub(let contentType, let length, let digest?, let revpos) = attachment else { continue }
            let stored = try storedLength(digest)
            try AttachmentValidation.checkStub(length: length, storedLength: stored, of: name)
            attachments[name] = .stub(contentType: contentType, length: length ?? stored, digest: digest, revpos: revpos)
        }
        self.attachments = attachments
    }

    /// The revision to store as given (`new_edits=false`), with its ancestry and attachments.
    ///
    /// `id` overrides `_id` (a PUT names the document in its URL). An attachment whose
    /// `revpos` is absent takes the revision's generation, as CouchDB gives it; a stub without
    /// `length` counts zero bytes (``completeStubLengths(_:)`` fills them in first).
    /// - Throws: 400 when the document has no `_id` or no revision (`_rev` or `_revisions`),
    ///   or an attachment still waits for its multipart part; 412 `missing_stub` for a stub
    ///   without a digest.
    public func replicatedRevision(id explicitID: String? = nil) throws(CouchError) -> ReplicatedRevision {
        guard let id = explicitID ?? id else {
            throw CouchError.badRequest("new_edits=false needs _id on every document")
        }
        guard let rev = rev ?? revisions?.first else {
            throw CouchError.badRequest("new_edits=false needs _rev on every document")
        }
        var replicated = [String: ReplicatedAttachment]()
        for (name, attachment) in attachments ?? [:] {
            switch attachment {
            case .data(let contentType, let data, let revpos):
                replicated[name] = .data(contentType: contentType, data: data, revpos: revpos ?? rev.generation)
            case .stub(let contentType, let length, let digest, let revpos):
                guard let digest else { throw CouchError.missingStub("Attachment stub '\(name)' has no digest") }
                replicated[name] = .stub(AttachmentInfo(
                    contentType: contentType ?? "application/octet-stream", length: length ?? 0,
                    digest: digest, revpos: revpos ?? rev.generation))
            case .follows:
                throw CouchError.badRequest("Attachment '\(name)' says follows but no multipart part carried it")
            }
        }
        return ReplicatedRevision(id: id, rev: rev, deleted: deleted, body: body,
                                  history: revisions ?? [rev], attachments: replicated)
    }
}
