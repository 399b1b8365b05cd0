import Foundation

/// One attribute of an entity as declared in the XML model.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, unique among the entity's properties (inherited ones included).
    public let name: String
    /// The declared type.
    public let type: AttributeType
    /// Whether `null` is allowed when saving.
    public let isOptional: Bool
    /// Transient attributes live only in memory and are never sent to the store.
    public let isTransient: Bool
    /// The value a newly inserted object starts with (`.null` if none was declared).
    public let defaultValue: AttributeValue
    /// Lower bound: the value for numbers and dates, the length for strings and binary data.
    public let minValue: AttributeValue?
    /// Upper bound: the value for numbers and dates, the length for strings and binary data.
    public let maxValue: AttributeValue?
    /// Whether the model asks stores to index this attribute.
    public let isIndexed: Bool
    /// The identifier the attribute had in the previous model version (`elementID` /
    /// `renamingIdentifier`), used by migration to follow renames.
    public let renamingIdentifier: String?
    /// Free-form `<userInfo>` entries.
    public let userInfo: [String: String]
    /// SHA-256 (hex) of the attribute's structural definition; see ``ObjectModel``.
    public let versionHash: String
    /// Line of the `<attribute>` element in its file, for diagnostics.
    public let line: Int

    /// The `<userInfo>` key that marks an attribute as encrypted on the client
    /// (`<entry key="encrypted" value="YES"/>`): stores keep only ciphertext and never index,
    /// sort or search its value.
    public static let encryptedUserInfoKey = "encrypted"

    /// Whether the model marks the attribute encrypted (userInfo ``encryptedUserInfoKey`` is
    /// YES, true or 1). Only string and binary attributes may be. Worked out once, when the
    /// model is built: stores ask it of every attribute of every
    /// row they read.
    public let isEncrypted: Bool

    /// Whether `userInfo` marks an attribute encrypted.
    static func marksEncrypted(_ userInfo: [String: String]) -> Bool {
        guard let value = userInfo[encryptedUserInfoKey] else { return false }
        return ["yes", "true", "1"].contains(value.lowercased())
    }
}
