public import Foundation

/// The image encodings a sample recipe may carry.
///
/// Recipes store their pictures as opaque bytes, so the only thing that keeps a broken or
/// exotic file out of the store is this check of the file's signature ("magic bytes"): the
/// format is taken from the content, never from a file name extension.
public enum SampleImageFormat: String, Codable, Sendable, CaseIterable {
    /// Portable Network Graphics: starts with `89 50 4E 47 0D 0A 1A 0A`.
    case png
    /// JPEG/JFIF/EXIF: starts with `FF D8 FF`.
    case jpeg

    /// The MIME type recorded next to the image bytes (attachment `content_type`).
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        }
    }

    /// The leading bytes that identify this format.
    public var signature: [UInt8] {
        switch self {
        case .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        case .jpeg: [0xFF, 0xD8, 0xFF]
        }
    }

    /// The format whose signature `data` starts with, or `nil` when it is neither PNG nor
    /// JPEG (including empty or truncated data).
    public static func detect(_ data: Data) -> SampleImageFormat? {
        allCases.first { format in
            data.count >= format.signature.count && data.prefix(format.signature.count).elementsEqual(format.signature)
        }
    }
}
