internal import CZlib
public import Foundation

/// Inflates gzip-encoded attachment bytes. CouchDB keeps attachments of compressible types
/// (`text/*`, JSON, XML) gzip-compressed; its replicator sends them as stored (`"encoding":
/// "gzip"`, a part with `Content-Encoding: gzip`) and its digest is of the compressed bytes.
/// Both our server and our replicator take such an attachment, check the compressed bytes
/// against the digest, and keep the attachment's own bytes.
public enum GzipDecoding {
    /// The most bytes an attachment that does not declare its `length` may inflate to: a
    /// small compressed body must not be able to fill memory.
    public static let maximumLength = 256 * 1024 * 1024

    /// Inflates `data` (a gzip stream) into at most `limit` bytes.
    /// - Throws: 400 `bad_request` (a ``CouchError`` naming `name`) when the bytes are not a
    ///   complete gzip stream or would inflate past `limit`.
    public static func decode(_ data: Data, limit: Int = maximumLength, name: String) throws(CouchError) -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw CouchError(status: 500, error: "internal_server_error", reason: "zlib could not start inflating '\(name)'")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let tooLong: Int32 = -1_000
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        let status: Int32 = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let result: Int32 = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(chunk)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk - Int(stream.avail_out)
                guard output.count + produced <= limit else { return tooLong }
                output.append(contentsOf: buffer[0..<produced])
                if result == Z_STREAM_END { return Z_STREAM_END }
                guard result == Z_OK else { return result }
                if stream.avail_in == 0 && produced == 0 { return Z_DATA_ERROR }
            }
        }
        switch status {
        case Z_STREAM_END:
            return output
        case tooLong:
            throw CouchError.badRequest("Attachment '\(AttachmentValidation.visible(name))' inflates past \(limit) bytes")
        default:
            throw CouchError.badRequest("Attachment '\(AttachmentValidation.visible(name))' is not a complete gzip stream (zlib status \(status))")
        }
    }
}
