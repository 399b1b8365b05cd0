import CouchProtocol
import DocumentStore
import Foundation
import HTTPTypes
import Hummingbird
import DocumentFormat

/// Builds responses the way CouchDB sends them: JSON with `Cache-Control: must-revalidate`,
/// error bodies `{"error","reason"}`, raw attachment bytes, multipart bodies.
enum CouchReply {
    /// A JSON reply.
    static func json(_ status: Int, _ value: JSONValue, headers extra: [(HTTPField.Name, String)] = []) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "must-revalidate"
        for (name, value) in extra { headers.append(HTTPField(name: name, value: value)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        JSONWriter.couchDB.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An error reply.
    static func error(_ error: CouchError, headers extra: [(HTTPField.Name, String)] = []) -> Response {
        json(error.status, error.json, headers: extra)
    }

    /// A raw reply (attachment bytes, multipart bodies).
    static func bytes(_ status: Int, _ data: Data, contentType: String, headers extra: [(HTTPField.Name, String)] = []) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        for (name, value) in extra { headers.append(HTTPField(name: name, value: value)) }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `{"ok": true}`.
    static let ok: JSONValue = ["ok": true]
}
