import DocumentFormat
public import Foundation
import HTTPSupport

/// The checks every received attachment passes, on the server and in the replicator alike:
/// names and content types free of control characters (they are written into multipart part
/// headers, where a CR or LF would start a header of the sender's choosing), and declared
/// `length` and `digest` that match the bytes whenever bytes are there to compare.
public enum AttachmentValidation {
    /// Refuses an attachment name with a control character.
    /// - Throws: 400 `bad_request` naming the attachment.
    public static func checkName(_ name: String) throws(CouchError) {
        if containsControlCharacter(name) {
            throw CouchError.badRequest(
                "Attachment name \(visible(name)) contains a control character (CR, LF, NUL, …); rename the attachment")
        }
    }

    /// Refuses a content type with a control character.
    /// - Throws: 400 `bad_request` naming the attachment.
    public static func checkContentType(_ contentType: String, of name: String) throws(CouchError) {
        if containsControlCharacter(contentType) {
            throw CouchError.badRequest(
                "Attachment '\(visible(name))' has content_type \(visible(contentType)) with a control character; send a plain media type such as image/png")
        }
    }

    /// Inflates the gzip-compressed bytes of attachment `name` into at most `length` bytes
    /// (`GzipDecoding.maximumLength` when no length is declared).
    /// - Throws: 400 `bad_request` naming the attachment when the bytes are not a complete
    ///   gzip stream or would inflate past that length; 500 when zlib cannot start.
    public static func inflate(_ bytes: Data, length: Int?, of name: String) throws(CouchError) -> Data {
        let limit = length ?? GzipDecoding.maximumLength
        do throws(GzipDecodingError) {
            return try GzipDecoding.decode(bytes, limit: limit)
        } catch {
            switch error {
            case .cannotStart:
                throw CouchError(status: 500, error: "internal_server_error", reason: "zlib could not start inflating '\(name)'")
            case .tooLong(let limit):
                throw CouchError.badRequest("Attachment '\(visible(name))' inflates past \(limit) bytes")
            case .incomplete(let status):
                throw CouchError.badRequest("Attachment '\(visible(name))' is not a complete gzip stream (zlib status \(status))")
            }
        }
    }

    /// Checks bytes against the `length` and MD5 `digest` (`md5-<base64>`) declared for them;
    /// a value not declared, or a digest of another algorithm, is not checked.
    /// - Throws: 400 `bad_request` when the bytes differ from what was declared (a damaged,
    ///   truncated or forged transfer).
    public static func checkBytes(_ bytes: Data, length: Int?, digest: String?, of name: String) throws(CouchError) {
        if let length, length != bytes.count {
            throw CouchError.badRequest(
                "Attachment '\(visible(name))' is \(bytes.count) bytes, but its length says \(length); send the length of the bytes sent")
        }
        if let digest, digest.hasPrefix("md5-") {
            let actual = RevisionHasher.attachmentDigest(bytes)
            guard actual == digest else {
                throw CouchError.badRequest(
                    "Attachment '\(visible(name))' has digest \(actual), but its digest says \(digest); send the digest of the bytes sent")
            }
        }
    }

    /// Checks a stub's declared `length` against the length of the bytes the receiver holds
    /// under its digest (`nil` when it holds none: the write then fails as a missing stub).
    /// - Throws: 400 `bad_request` when they differ.
    public static func checkStub(length: Int?, storedLength: Int?, of name: String) throws(CouchError) {
        guard let length, let storedLength, length != storedLength else { return }
        throw CouchError.badRequest(
            "Attachment stub '\(visible(name))' says length \(length), but the bytes with its digest are \(storedLength); send the stored length or the bytes")
    }

    /// Whether `text` holds a C0 control character or DEL.
    static func containsControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `text` with control characters escaped, safe to put in an error reason or a log line.
    static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += String(format: "\\u%04X", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
