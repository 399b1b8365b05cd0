public import DocumentFormat
public import Foundation

/// One entry of a received document's `_attachments`, as CouchDB's JSON gives it: the bytes
/// inline, a stub naming bytes the receiver already holds, or a promise that the bytes follow
/// in a multipart part.
public enum CouchAttachment: Sendable, Equatable {
    /// The bytes, given inline (base64 `data`) or, once matched, from a multipart part.
    case data(contentType: String, data: Data, revpos: Int?)
    /// `"stub": true`: only the metadata; the receiver must already hold the bytes.
    case stub(contentType: String?, length: Int?, digest: String?, revpos: Int?)
    /// `"follows": true`: the bytes come in a later multipart part, as they are or, with
    /// `gzip` as `encoding`, compressed (`length` then counts the bytes once inflated,
    /// `encodedLength` and `digest` the compressed ones, as CouchDB gives them).
    case follows(contentType: String, length: Int?, digest: String?, revpos: Int?, encoding: String? = nil, encodedLength: Int? = nil)

    /// Parses the `_attachments` member `name`.
    /// - Throws: 400 `bad_request` when the entry is not an object, its `length` or `revpos`
    ///   is not an integer in `0...WireNumber.maximum`, its base64 is invalid, it
    ///   has neither `data`, `stub` nor `follows`, or it names an encoding other than
    ///   `identity` and `gzip`; when its name or content type holds a control character, or inline bytes differ
    ///   from its declared `length` or `digest` (``AttachmentValidation``).
    public init(name: String, json: JSONValue) throws(CouchError) {
        try AttachmentValidation.checkName(name)
        guard let object = json.objectValue else {
            throw CouchError.badRequest("Attachment '\(name)' must be a JSON object")
        }
        let contentType = object["content_type"]?.stringValue
        if let contentType { try AttachmentValidation.checkContentType(contentType, of: name) }
        let length = try Self.number(object["length"], member: "length", of: name)
        let digest = object["digest"]?.stringValue
        let revpos = try Self.number(object["revpos"], member: "revpos", of: name)
        // CouchDB's `encoding` (with `att_encoding_info`): the stored bytes are compressed
        // and `digest` is theirs; `length` still counts the attachment's own bytes.
        let encoding = object["encoding"]?.stringValue?.lowercased()
        if let encoding, encoding != "identity", encoding != "gzip" {
            throw CouchError.badRequest("Attachment '\(AttachmentValidation.visible(name))' has encoding \(AttachmentValidation.visible(encoding)); only gzip and identity are understood")
        }
        let encoded = encoding == "gzip"
        if object["stub"]?.boolValue == true {
            self = .stub(contentType: contentType, length: length, digest: digest, revpos: revpos)
        } else if object["follows"]?.boolValue == true {
            let encodedLength = try Self.number(object["encoded_length"], member: "encoded_length", of: name)
            self = .follows(contentType: contentType ?? "application/octet-stream", length: length, digest: digest, revpos: revpos,
                            encoding: encoded ? "gzip" : nil, encodedLength: encoded ? encodedLength : nil)
        } else if let text = object["data"]?.stringValue {
            // Base64 as CouchDB reads it: white space between the characters is ignored,
            // anything else that is not base64 makes the entry invalid. Without white space
            // (the usual case) the text decodes as it is; otherwise the white space bytes are
            // dropped first (by byte: a per-Character test cost a fifth of a push's time).
            let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B]
            let decoded = Data(base64Encoded: text)
                ?? Data(base64Encoded: Data(text.utf8.filter { !whitespace.contains($0) }))
            guard let data = decoded else {
                throw CouchError.badRequest("Invalid attachment data for \(name)")
            }
            // Inline bytes are always the attachment's own (CouchDB inflates them for JSON);
            // when they were stored compressed, the digest is of the compressed form.
            try AttachmentValidation.checkBytes(data, length: length, digest: encoded ? nil : digest, of: name)
            self = .data(contentType: contentType ?? "application/octet-stream", data: data, revpos: revpos)
        } else {
            throw CouchError.badRequest("Attachment '\(name)' has no data, stub or follows")
        }
    }

    /// An optional numeric member held to ``WireNumber``'s range, so sums of lengths and
    /// comparisons of positions never overflow.
    private static func number(_ value: JSONValue?, member: String, of name: String) throws(CouchError) -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let number = WireNumber.count(value) else {
            throw CouchError.badRequest(
                "Attachment '\(name)' has \(member) \(JSONWriter.couchDB.string(value)); it must be an integer from 0 to \(WireNumber.maximum)")
        }
        return number
    }

    /// Takes the bytes of the multipart part that carried a `follows` attachment, after
    /// checking them against the entry's `length` and MD5 `digest`. A gzip-encoded entry's
    /// bytes are checked against its `encoded_length` and digest, then inflated and checked
    /// against its `length`.
    /// - Throws: 400 `bad_request` when this is not a `follows` entry, the bytes differ from
    ///   what the entry announced (a damaged or truncated transfer), or do not inflate.
    func receiving(_ bytes: Data, name: String) throws(CouchError) -> CouchAttachment {
        guard case .follows(let contentType, let length, let digest, let revpos, let encoding, let encodedLength) = self else {
            throw CouchError.badRequest("Multipart part '\(name)' matches no attachment marked follows")
        }
        guard encoding == "gzip" else {
            try AttachmentValidation.checkBytes(bytes, length: length, digest: digest, of: name)
            return .data(contentType: contentType, data: bytes, revpos: revpos)
        }
        try AttachmentValidation.checkBytes(bytes, length: encodedLength, digest: digest, of: name)
        let inflated = try AttachmentValidation.inflate(bytes, length: length, of: name)
        try AttachmentValidation.checkBytes(inflated, length: length, digest: nil, of: name)
        return .data(contentType: contentType, data: inflated, revpos: revpos)
    }

    /// Whether this `follows` entry announces gzip-compressed bytes.
    var followsEncoded: Bool {
        if case .follows(_, _, _, _, let encoding, _) = self { encoding == "gzip" } else { false }
    }
}
