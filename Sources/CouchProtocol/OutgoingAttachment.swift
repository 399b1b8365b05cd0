public import DocumentFormat
public import Foundation

/// An attachment of a document about to be written in CouchDB's JSON: how its entry in
/// `_attachments` carries (or does not carry) the bytes.
public enum OutgoingAttachment: Sendable {
    /// A stub: the metadata only, for a receiver that already holds the bytes.
    case stub(AttachmentInfo)
    /// `"follows": true`: the bytes go raw in a multipart part after the document.
    case follows(AttachmentInfo)
    /// The bytes inline as base64, with the digest when the writer knows it.
    case inline(contentType: String, revpos: Int, digest: String?, data: Data)
    /// The bytes inline as base64, read from `source` a chunk at a time as they are written,
    /// so a large attachment is never held whole next to its encoded form.
    case inlineStreamed(AttachmentInfo, from: any AttachmentSource)
}
