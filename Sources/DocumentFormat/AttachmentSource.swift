public import Foundation

/// Where the bytes of an attachment come from when a writer streams them onto the wire a
/// piece at a time, so a large attachment is never held whole beside its encoded form. The
/// datastore is one; the wire layer knows only this protocol, not the store.
public protocol AttachmentSource: Sendable {
    /// Calls `body` with the bytes of `info` (the attachment `name` of document `id`) in
    /// order, in pieces of at most `chunkSize` bytes.
    /// - Throws: when the source does not hold the bytes (naming `id`, `name` and the
    ///   digest), or cannot read them.
    func streamAttachment(_ info: AttachmentInfo, of id: String, named name: String, chunkSize: Int,
                          _ body: (Data) throws -> Void) throws
}
