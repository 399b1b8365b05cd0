public import Foundation

/// The pair of 8-byte salts of an RNCryptor v3 password message: one for the AES key, one
/// for the HMAC key. Hashable so derived keys can be cached per (password, salts).
public struct RNCryptorSalts: Sendable, Hashable {
    /// Salt of the AES-256 encryption key (8 bytes).
    public let encryptionSalt: Data
    /// Salt of the HMAC-SHA256 key (8 bytes).
    public let hmacSalt: Data

    /// Length of each salt in bytes, as RNCryptor v3 fixes it.
    public static let saltSize = 8

    /// Wraps two salts, checking their length.
    /// - Throws: ``RNCryptorError/invalidParameter(_:)`` when a salt is not 8 bytes.
    public init(encryptionSalt: Data, hmacSalt: Data) throws(RNCryptorError) {
        guard encryptionSalt.count == Self.saltSize else { throw .invalidParameter("encryption salt (must be 8 bytes)") }
        guard hmacSalt.count == Self.saltSize else { throw .invalidParameter("HMAC salt (must be 8 bytes)") }
        self.encryptionSalt = Data(encryptionSalt)
        self.hmacSalt = Data(hmacSalt)
    }

    /// Two fresh salts from the system's secure random generator.
    public static func random() -> RNCryptorSalts {
        var generator = SystemRandomNumberGenerator()
        func bytes() -> Data { Data((0..<saltSize).map { _ in UInt8.random(in: .min ... .max, using: &generator) }) }
        return try! RNCryptorSalts(encryptionSalt: bytes(), hmacSalt: bytes())
    }
}
