internal import CZlib
import Crypto
public import Foundation

/// The digest CouchDB 3.4.3 gives an attachment of a compressible type. CouchDB stores such
/// attachments gzip-compressed (its `[attachments]` defaults: `compressible_types` of
/// `text/*, application/javascript, application/json, application/xml`, `compression_level`
/// 8) and records the MD5 of the compressed bytes, and that MD5 is what the ID of a new
/// revision hashes. Compressing the same bytes with the same zlib settings gives the same
/// bytes, so a write carrying a text attachment gets CouchDB's revision ID here too, while
/// the store keeps the bytes as sent.
public enum CompressedAttachmentDigest {
    /// The zlib level CouchDB compresses attachments at by default.
    static let level: Int32 = 8

    /// Whether CouchDB compresses attachments of `contentType` by default. As CouchDB matches
    /// it: without regard to case, surrounding whitespace ignored, `text/` followed by
    /// anything, or one of the three other types followed by nothing but parameters (`;…`).
    public static func isCompressible(_ contentType: String) -> Bool {
        let text = contentType.lowercased().drop { $0.isWhitespace }
        if text.hasPrefix("text/") { return true }
        var type = text.firstIndex(of: ";").map { text[..<$0] } ?? text
        while type.last?.isWhitespace == true { type = type.dropLast() }
        return ["application/javascript", "application/json", "application/xml"].contains(String(type))
    }

    /// The digest a new revision's ID hashes for an attachment of `contentType` holding
    /// `data`: of the compressed bytes for a compressible type, else of `data` itself.
    public static func hashDigest(of data: Data, contentType: String) -> String {
        isCompressible(contentType) ? compressedDigest(of: data) : RevisionHasher.attachmentDigest(data)
    }

    /// `md5-` and the base64 of the MD5 of `data` gzip-compressed as CouchDB compresses it
    /// (zlib at level 8, a gzip wrapper with zlib's own header, 8 for the memory level).
    /// The compressed bytes go into the digest as they are made; they are not kept.
    public static func compressedDigest(of data: Data) -> String {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            // zlib fails to start only when it cannot allocate its state; the bytes' own digest
            // still names them, only not as CouchDB would.
            return RevisionHasher.attachmentDigest(data)
        }
        defer { deflateEnd(&stream) }
        var md5 = Insecure.MD5()
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        let finished: Bool = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Bool in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let status: Int32 = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(chunk)
                    return deflate(&stream, Z_FINISH)
                }
                md5.update(data: buffer[0..<(chunk - Int(stream.avail_out))])
                if status == Z_STREAM_END { return true }
                guard status == Z_OK else { return false }
            }
        }
        guard finished else { return RevisionHasher.attachmentDigest(data) }
        return "md5-" + Data(md5.finalize()).base64EncodedString()
    }
}
