import DocumentStore
import Foundation

/// An entry of a written document's `_attachments`.
enum IncomingAttachment: Sendable {
    /// Bytes given inline (base64 `data`) or, once matched, from a multipart part.
    case data(contentType: String, data: Data, revpos: Int?)
    /// `"stub": true`: keep the bytes the server already has.
    case stub(contentType: String?, length: Int?, digest: String?, revpos: Int?)
    /// `"follows": true`: the bytes come in a later multipart part.
    case follows(contentType: String, length: Int?, digest: String?, revpos: Int?)

    /// Parses one `_attachments` member; 400 `bad_request` when it is malformed.
    init(name: String, json: JSONValue) throws {
        guard let object = json.objectValue else {
            throw CouchError.badRequest("Attachment '\(name)' must be a JSON object")
        }
        let contentType = object["content_type"]?.stringValue
        let length = object["length"]?.intValue.map(Int.init)
        let digest = object["digest"]?.stringValue
        let revpos = object["revpos"]?.intValue.map(Int.init)
        if object["stub"]?.boolValue == true {
            self = .stub(contentType: contentType, length: length, digest: digest, revpos: revpos)
        } else if object["follows"]?.boolValue == true {
            self = .follows(contentType: contentType ?? "application/octet-stream", length: length, digest: digest, revpos: revpos)
        } else if let text = object["data"]?.stringValue {
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw CouchError.badRequest("Invalid attachment data for \(name)")
            }
            self = .data(contentType: contentType ?? "application/octet-stream", data: data, revpos: revpos)
        } else {
            throw CouchError.badRequest("Attachment '\(name)' has no data, stub or follows")
        }
    }
}
