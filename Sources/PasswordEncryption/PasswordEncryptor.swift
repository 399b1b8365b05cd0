public import Foundation

/// Encrypts and decrypts RNCryptor v3 messages with one password, deriving keys at most once
/// per salt pair through a ``RNCryptorKeyCache``.
///
/// New messages use ``salts`` (a store keeps one pair per password, so reading thousands of
/// its values derives once) and a fresh random IV each; messages with other salts (written
/// elsewhere) are read with keys derived for those salts, then cached.
public struct PasswordEncryptor: Sendable {
    /// The salt pair new messages carry.
    public let salts: RNCryptorSalts
    private let password: String
    private let cache: RNCryptorKeyCache

    /// An encryptor for `password` writing with `salts` (random ones when `nil`).
    public init(password: String, salts: RNCryptorSalts? = nil, cache: RNCryptorKeyCache = .shared) {
        self.password = password
        self.salts = salts ?? .random()
        self.cache = cache
    }

    /// The keys for the encryptor's own salt pair.
    /// - Throws: ``RNCryptorError/keyDerivationFailed``.
    public func keys() throws(RNCryptorError) -> RNCryptorKeys {
        try cache.keys(password: password, salts: salts)
    }

    /// Encrypts `plaintext` into a serialized message with a fresh random IV.
    /// - Throws: ``RNCryptorError``.
    public func encrypt(_ plaintext: Data) throws(RNCryptorError) -> Data {
        try RNCryptorMessage.encrypt(plaintext, with: keys()).bytes
    }

    /// Decrypts a serialized message, whatever salts it carries.
    /// - Throws: ``RNCryptorError`` (``RNCryptorError/hmacMismatch`` for tampering or
    ///   another password).
    public func decrypt(_ message: Data) throws(RNCryptorError) -> Data {
        let parsed = try RNCryptorMessage(bytes: message)
        return try parsed.decrypt(with: cache.keys(password: password, salts: parsed.salts))
    }
}
