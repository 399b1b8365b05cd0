public import DocumentStore
public import Foundation
public import DocumentFormat

/// One revision of a document on its way from a source peer to a target peer: body, ancestry
/// and attachments, in a form both the HTTP and the local peers can read and write.
public struct TransferRevision: Sendable {
    /// The document ID.
    public var id: String
    /// The revision being transferred.
    public var rev: RevisionID
    /// Whether this revision is a tombstone.
    public var deleted: Bool
    /// The body without any `_`-prefixed member.
    public var body: JSONObject
    /// The revision then its ancestors, newest first (`_revisions` expanded).
    public var history: [RevisionID]
    /// Attachments by name.
    public var attachments: [String: AttachmentPayload]

    /// Makes a revision in transit.
    public init(id: String, rev: RevisionID, deleted: Bool, body: JSONObject, history: [RevisionID],
                attachments: [String: AttachmentPayload]) {
        self.id = id
        self.rev = rev
        self.deleted = deleted
        self.body = body
        self.history = history.isEmpty ? [rev] : history
        self.attachments = attachments
    }

    /// Bytes of attachment content carried in memory (stubs and deferred bytes count zero).
    public var inlineAttachmentBytes: Int {
        attachments.values.reduce(0) { total, payload in
            if case .data(_, let data, _) = payload { return total + data.count }
            return total
        }
    }

    /// Bytes of attachment content this revision will send, whether held or read on demand.
    public var attachmentBytesToSend: Int {
        attachments.values.reduce(0) { total, payload in
            switch payload {
            case .data(_, let data, _): return total + data.count
            case .deferred(let info, _): return total + info.length
            case .stub: return total
            }
        }
    }
}

/// An attachment of a revision in transit.
public enum AttachmentPayload: Sendable {
    /// The bytes themselves (new to the target), with the generation that last changed them.
    case data(contentType: String, data: Data, revpos: Int)
    /// Only the metadata: the target already holds these bytes in an ancestor revision.
    case stub(AttachmentInfo)
    /// Bytes new to the target that stay in a local store until they are written, so a large
    /// attachment is never held whole in memory next to its encoded form.
    case deferred(AttachmentInfo, source: DocumentStore)
}
