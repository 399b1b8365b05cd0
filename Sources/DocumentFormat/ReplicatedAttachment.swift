public import Foundation

/// An attachment of a replicated revision: either its bytes, or a stub naming bytes the store
/// must already hold (because an ancestor brought them).
public enum ReplicatedAttachment: Sendable {
    /// The bytes were supplied (inline base64 or a multipart part).
    case data(contentType: String, data: Data, revpos: Int)
    /// Only the metadata; the store must already hold `digest`, else `.missingAttachment`.
    case stub(AttachmentInfo)
}
