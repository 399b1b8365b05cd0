/// Why an encrypted attribute (userInfo `encrypted = YES`) could not be read, written,
/// queried or indexed. Each description is one line naming the cause.
public enum EncryptedAttributeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The password does not match the key-check value the store keeps.
    case wrongPassword
    /// The value is encrypted and the store was given no password.
    case passwordRequired(documentID: String, attribute: String)
    /// The stored value is not a readable RNCryptor v3 message for this password: changed
    /// after it was written (HMAC mismatch), written with another password, or not base64.
    case undecryptable(documentID: String, attribute: String, reason: String)
    /// A fetch would filter or sort on an encrypted attribute, which the store holds only as
    /// ciphertext.
    case notQueryable(entity: String, attribute: String, use: String)
    /// The model asks for an index (folded, full-text or a fetch index) on an encrypted attribute.
    case notIndexable(entity: String, attribute: String)

    /// One line naming the cause.
    public var description: String {
        switch self {
        case .wrongPassword:
            return "wrong password for the encrypted notes"
        case .passwordRequired(let id, let attribute):
            return "\(id): \(attribute) is encrypted; give the password to read or change it"
        case .undecryptable(let id, let attribute, let reason):
            return "\(id): \(attribute) cannot be decrypted (\(reason))"
        case .notQueryable(let entity, let attribute, let use):
            return "cannot \(use) on \(entity).\(attribute): it is encrypted and the store holds only ciphertext"
        case .notIndexable(let entity, let attribute):
            return "cannot index \(entity).\(attribute): it is encrypted and the store holds only ciphertext; remove the index"
        }
    }
}
