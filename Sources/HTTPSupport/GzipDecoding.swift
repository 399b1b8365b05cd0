internal import CZlib
public import Foundation

/// Inflates `Content-Encoding: gzip` bytes with the system zlib, into a bounded number of
/// bytes, so a small compressed body cannot fill memory.
///
/// CouchDB keeps attachments of compressible types (`text/*`, JSON, XML) gzip-compressed and
/// its replicator sends them that way; CouchProtocol inflates them through this and answers
/// a ``GzipDecodingError`` with its own `bad_request`.
public enum GzipDecoding {
    /// The most bytes a stream whose inflated length is not announced may inflate to.
    public static let maximumLength = 256 * 1024 * 1024

    /// Inflates `data` (a whole gzip stream) into at most `limit` bytes.
    /// - Throws: ``GzipDecodingError`` when zlib cannot start, the bytes are not a complete
    ///   gzip stream, or they would inflate past `limit`.
    public static func decode(_ data: Data, limit: Int = maximumLength) throws(GzipDecodingError) -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .cannotStart
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
        case Z_STREAM_END: return output
        case tooLong: throw .tooLong(limit: limit)
        default: throw .incomplete(zlibStatus: Int(status))
        }
    }
}
