import DocumentStore
import Foundation
import ObjectGraph
import PasswordEncryption
import DocumentFormat

/// Turns the values of encrypted attributes into the base64 of an RNCryptor v3 message and
/// back, with one store's password and salt pair (keys are derived once per process).
struct AttributeEncryption: Sendable {
    let encryptor: PasswordEncryptor

    /// The stored form of `value`: `null` stays `null`; a string (its UTF-8) or binary value
    /// becomes base64 of a message with a fresh IV.
    func encrypt(_ value: AttributeValue, attribute: AttributeDescription, documentID: String) throws -> JSONValue {
        let plaintext: Data
        switch value {
        case .null: return .null
        case .string(let s): plaintext = Data(s.utf8)
        case .data(let d), .transformable(let d): plaintext = d
        default:
            throw EncryptedAttributeError.undecryptable(documentID: documentID, attribute: attribute.name, reason: "only strings and binary values can be encrypted")
        }
        do { return .string(try encryptor.encrypt(plaintext).base64EncodedString()) }
        catch { throw EncryptedAttributeError.undecryptable(documentID: documentID, attribute: attribute.name, reason: "\(error)") }
    }

    /// The value behind a stored base64 message, typed as `attribute` declares.
    static func decrypt(_ stored: String, attribute: AttributeDescription, documentID: String,
                        with encryption: AttributeEncryption?) throws -> AttributeValue {
        guard let encryption else { throw EncryptedAttributeError.passwordRequired(documentID: documentID, attribute: attribute.name) }
        guard let message = Data(base64Encoded: stored) else {
            throw EncryptedAttributeError.undecryptable(documentID: documentID, attribute: attribute.name, reason: "not base64")
        }
        let plaintext: Data
        do { plaintext = try encryption.encryptor.decrypt(message) }
        catch { throw EncryptedAttributeError.undecryptable(documentID: documentID, attribute: attribute.name, reason: "\(error)") }
        if attribute.type == .string {
            guard let text = String(data: plaintext, encoding: .utf8) else {
                throw EncryptedAttributeError.undecryptable(documentID: documentID, attribute: attribute.name, reason: "plaintext is not UTF-8")
            }
            return .string(text)
        }
        return .data(plaintext)
    }
}
