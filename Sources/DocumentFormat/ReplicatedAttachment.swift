public import Foundation

/// An attachment of a replicated revision: its bytes, a stub naming bytes the receiver must
/// already hold (because an ancestor brought them), or bytes still in the replica they come
/// from, read only when they are written.
public enum ReplicatedAttachment: Sendable {
    /// The bytes were supplied (inline base64, a multipart part, or read from a store).
    case data(contentType: String, data: Data, revpos: Int)
    /// Only the metadata; the store must already hold `digest`, else `.missingAttachment`.
    case stub(AttachmentInfo)
    /// Bytes new to the receiver that stay in `source` until they are written, so a large
    /// attachment is never held whole in memory next to its encoded form.
    case deferred(AttachmentInfo, source: any AttachmentSource)
}
