/// Recognises a file's type from its first bytes ("magic numbers"), because a file name or a
/// browser-supplied MIME type says nothing reliable about what was uploaded.
enum PhotoSniffer {
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Returns the photo format of `bytes`, or throws `notJPEGOrPNG` naming what the bytes look
    /// like instead (or `damaged` when they stop inside a JPEG/PNG signature).
    static func format(of bytes: UnsafeRawBufferPointer) throws(PhotoProblem) -> PhotoFormat {
        let count = bytes.count
        if count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            if count >= 3, bytes[2] == 0xFF { return .jpeg }
            if count < 3 { throw .damaged(format: .jpeg, reason: "the file ends right after its first bytes") }
        }
        if count >= 8, bytes.prefix(8).elementsEqual(pngSignature) { return .png }
        if count >= 4, count < 8, bytes.elementsEqual(pngSignature.prefix(count)) {
            throw .damaged(format: .png, reason: "the file ends inside the PNG signature")
        }
        throw .notJPEGOrPNG(detected: otherKind(of: bytes))
    }

    /// Names a common non-JPEG/PNG kind of file, or nil when unknown.
    static func otherKind(of bytes: UnsafeRawBufferPointer) -> String? {
        func starts(with ascii: String, at offset: Int = 0) -> Bool {
            let pattern = Array(ascii.utf8)
            guard offset >= 0, bytes.count - offset >= pattern.count else { return false }
            for (index, byte) in pattern.enumerated() where bytes[offset + index] != byte { return false }
            return true
        }
        if starts(with: "GIF87a") || starts(with: "GIF89a") { return "GIF" }
        if starts(with: "RIFF"), starts(with: "WEBP", at: 8) { return "WebP" }
        if starts(with: "ftyp", at: 4) {
            for brand in ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"] where starts(with: brand, at: 8) {
                return "HEIC"
            }
            if starts(with: "avif", at: 8) || starts(with: "avis", at: 8) { return "AVIF" }
            return "video"
        }
        if starts(with: "%PDF") { return "PDF" }
        if starts(with: "II*\u{0}") || starts(with: "MM\u{0}*") { return "TIFF" }
        if starts(with: "BM"), bytes.count >= 14, bytes[6] == 0, bytes[7] == 0, bytes[8] == 0, bytes[9] == 0 {
            return "BMP"
        }
        if bytes.count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1, bytes[3] == 0 { return "ICO" }
        if starts(with: "PK\u{3}\u{4}") { return "ZIP" }
        if looksLikeText(bytes) {
            let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
            return head.contains("<svg") ? "SVG" : "text"
        }
        return nil
    }

    /// True when the first kilobyte has no control characters other than whitespace.
    private static func looksLikeText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let head = bytes.prefix(1024)
        guard !head.isEmpty else { return false }
        for byte in head {
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x0D: continue
            case 0x00..<0x20, 0x7F: return false
            default: continue
            }
        }
        return true
    }
}
