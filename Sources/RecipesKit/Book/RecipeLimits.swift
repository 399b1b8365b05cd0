public import Foundation
import RecipeImages

/// The largest recipe `add`, `edit` and `import` accept, so every recipe the book writes can
/// sync: CouchDB refuses a document whose JSON is over its `max_document_size` (8,000,000
/// bytes by default) with `413 too_large`, and a refused document could never reach the
/// other machines. The limits keep a recipe's document well under that, notes encrypted
/// (a third larger as base64) and every text field at its largest included.
public enum RecipeLimits {
    /// CouchDB's default `max_document_size`, the ceiling the other limits stay under.
    public static let couchDBMaxDocumentSize = 8_000_000

    /// The most UTF-8 bytes one text field (name, type, overview, prep time, instructions,
    /// notes, an ingredient line) may hold: 1 MB, a book's worth of text.
    public static let maximumFieldBytes = 1_000_000

    /// The most UTF-8 bytes all of a recipe's text fields may hold together: 4 MB, which
    /// with the notes encrypted and the JSON around it stays under
    /// ``couchDBMaxDocumentSize``.
    public static let maximumRecipeTextBytes = 4_000_000

    /// The most characters a recipe's name may have (`add`, `edit` and the web form): a name
    /// is a title, shown in lists and page titles, not a place for text.
    public static let maximumNameLength = 300

    /// The most bytes a picture may have: 10 MB. It travels as an attachment, which
    /// `max_document_size` does not count, but it is read whole into memory on the way.
    public static let maximumImageBytes = 10_000_000

    /// Refuses `text` when it is longer than ``maximumFieldBytes``.
    /// - Throws: ``RecipesError/invalidValue(field:reason:)`` naming the field and both sizes.
    public static func check(_ text: String?, field: String) throws(RecipesError) {
        guard let text else { return }
        let bytes = text.utf8.count
        if bytes > maximumFieldBytes {
            throw .invalidValue(field: field, reason: "it is \(bytes) bytes; at most \(maximumFieldBytes) are accepted, so that the recipe stays under CouchDB's \(couchDBMaxDocumentSize)-byte document limit and can sync")
        }
    }

    /// Refuses a recipe whose text fields (each checked with ``check(_:field:)``) are
    /// together longer than ``maximumRecipeTextBytes``.
    public static func check(fields: [(name: String, text: String?)]) throws(RecipesError) {
        var total = 0
        for field in fields {
            try check(field.text, field: field.name)
            total += field.text?.utf8.count ?? 0
        }
        if total > maximumRecipeTextBytes {
            throw .invalidValue(field: "recipe", reason: "its text is \(total) bytes in all; at most \(maximumRecipeTextBytes) are accepted, so that it stays under CouchDB's \(couchDBMaxDocumentSize)-byte document limit and can sync")
        }
    }

    /// Refuses bytes that are not a whole JPEG or PNG photo, read by content (a file renamed
    /// `.jpg`, a truncated download, a GIF, a picture too large to decode), so that every
    /// photo the commands and the web app write can be shown and made a thumbnail of.
    /// - Throws: ``RecipesError/invalidValue(field:reason:)`` for the field `image`, saying
    ///   what is wrong and what to do.
    public static func check(photo data: Data) throws(RecipesError) {
        try check(image: data)
        do {
            _ = try Photo.check(data)
        } catch {
            throw .invalidValue(field: "image", reason: error.description)
        }
    }

    /// Refuses a picture longer than ``maximumImageBytes``.
    public static func check(image: Data?) throws(RecipesError) {
        guard let image, image.count > maximumImageBytes else { return }
        throw .invalidValue(field: "image", reason: "it is \(image.count) bytes; at most \(maximumImageBytes) are accepted")
    }

    /// Refuses the file at `path` before it is read when it is larger than `limit` bytes
    /// (a 50 MB notes file is not read whole to be refused). A file whose size cannot be
    /// read is left to the read that follows, which names the cause.
    public static func checkFileSize(path: String, field: String, limit: Int) throws(RecipesError) {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
              size.int64Value > Int64(limit) else { return }
        throw .invalidValue(field: field, reason: "\(path) is \(size.int64Value) bytes; at most \(limit) are accepted")
    }
}
