/// What a revision knows about one of its attachments; the bytes live once per digest.
public struct AttachmentInfo: Sendable, Hashable, Codable {
    /// MIME type given when the attachment was added (`content_type` in CouchDB).
    public var contentType: String
    /// Length of the attachment's bytes.
    public var length: Int
    /// `md5-<base64 of the 16-byte MD5>` of the bytes, the key they are stored under.
    public var digest: String
    /// Generation of the revision that added or last changed the attachment.
    public var revpos: Int

    /// Makes attachment metadata from its parts.
    public init(contentType: String, length: Int, digest: String, revpos: Int) {
        self.contentType = contentType
        self.length = length
        self.digest = digest
        self.revpos = revpos
    }

    package enum CodingKeys: String, CodingKey {
        case contentType = "content_type"
        case length, digest, revpos
    }
}
