public import Foundation

/// A recipe's photo or thumbnail as stored, ready to be served: its bytes, its type and an
/// entity tag that changes exactly when the bytes do.
public struct StoredPhoto: Sendable, Equatable {
    /// Which of a recipe's two pictures.
    public enum Kind: String, Sendable, CaseIterable {
        /// The full-size photo (the recipe's `Image`).
        case photo
        /// The small picture beside it (`Recipe.thumbnailImage`), which a list shows.
        case thumbnail
    }

    /// The picture's bytes.
    public var data: Data
    /// `image/jpeg` or `image/png`, read from the bytes (`application/octet-stream` when
    /// they are neither, which a store synced from elsewhere may hold).
    public var mimeType: String
    /// The attachment's digest in the store (`md5-…`, as CouchDB names it), so a browser's
    /// revalidation is answered without reading the bytes; a digest of the bytes for a
    /// picture kept inline in its document.
    public var entityTag: String

    /// Makes one from its parts.
    public init(data: Data, mimeType: String, entityTag: String) {
        self.data = data
        self.mimeType = mimeType
        self.entityTag = entityTag
    }

    /// The MIME type that `data`'s first bytes announce.
    public static func mimeType(of data: Data) -> String {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        return "application/octet-stream"
    }
}
