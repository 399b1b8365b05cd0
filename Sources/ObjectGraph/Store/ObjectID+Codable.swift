import Foundation

/// An ID encodes as its ``ObjectID/stringRepresentation``. Being `Codable` (and `Sendable`)
/// is also what lets an ID be a value in a Foundation `#Predicate`:
/// `#Predicate<Note> { $0.folder?.objectID == folderID }` fetches a folder's notes.
extension ObjectID: Codable {
    /// Encodes the ID as its string representation.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringRepresentation)
    }

    /// Decodes an ID from its string representation.
    /// - Throws: `DecodingError.dataCorrupted` when the string is not an object ID.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ObjectID(stringRepresentation: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not an object ID's string representation")
        }
        self = id
    }
}
