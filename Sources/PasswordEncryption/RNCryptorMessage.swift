import Crypto
public import Foundation
import _CryptoExtras

/// One RNCryptor v3 password-based message, the format any RNCryptor v3 implementation
/// reads given the password:
///
/// | bytes | field |
/// | --- | --- |
/// | 1 | version, 3 |
/// | 1 | options, 1 (password) |
/// | 8 | encryption salt |
/// | 8 | HMAC salt |
/// | 16 | IV |
/// | n×16 | AES-256-CBC ciphertext, PKCS#7 padding |
/// | 32 | HMAC-SHA256 of everything before it |
///
/// The keys come from ``RNCryptorKeys`` (PBKDF2-HMAC-SHA1, 10,000 rounds, one per salt).
public struct RNCryptorMessage: Sendable, Hashable {
    /// The format version this type reads and writes.
    public static let version: UInt8 = 3
    /// The options byte of a password-based message.
    public static let passwordOptions: UInt8 = 1
    /// IV length in bytes.
    public static let ivSize = 16
    /// HMAC length in bytes.
    public static let hmacSize = 32
    /// Header length: version, options, two salts, IV.
    public static let headerSize = 2 + 2 * RNCryptorSalts.saltSize + ivSize

    /// The salts the keys were derived with.
    public let salts: RNCryptorSalts
    /// The CBC initialisation vector (16 bytes).
    public let iv: Data
    /// The AES-256-CBC ciphertext with PKCS#7 padding.
    public let ciphertext: Data
    /// The HMAC-SHA256 stored at the end of the message.
    public let hmac: Data

    /// The whole message, as stored or sent.
    public var bytes: Data { header + ciphertext + hmac }

    /// Version, options, salts and IV.
    private var header: Data {
        var d = Data([Self.version, Self.passwordOptions])
        d.append(salts.encryptionSalt)
        d.append(salts.hmacSalt)
        d.append(iv)
        return d
    }

    /// Splits a serialized message into its fields (the HMAC is checked by ``decrypt(with:)``).
    /// - Throws: ``RNCryptorError`` for a message too short, of another version or with
    ///   other options.
    public init(bytes: Data) throws(RNCryptorError) {
        let b = [UInt8](bytes)
        let minimum = Self.headerSize + 16 + Self.hmacSize
        guard b.count >= 2 else { throw .messageTooShort(b.count) }
        guard b[0] == Self.version else { throw .unsupportedVersion(b[0]) }
        guard b[1] == Self.passwordOptions else { throw .unsupportedOptions(b[1]) }
        guard b.count >= minimum, (b.count - Self.headerSize - Self.hmacSize) % 16 == 0 else { throw .messageTooShort(b.count) }
        var at = 2
        func take(_ n: Int) -> Data { defer { at += n }; return Data(b[at..<(at + n)]) }
        let encryptionSalt = take(RNCryptorSalts.saltSize)
        let hmacSalt = take(RNCryptorSalts.saltSize)
        salts = try RNCryptorSalts(encryptionSalt: encryptionSalt, hmacSalt: hmacSalt)
        iv = take(Self.ivSize)
        ciphertext = take(b.count - Self.headerSize - Self.hmacSize)
        hmac = take(Self.hmacSize)
    }

    /// Encrypts `plaintext` with `keys` and `iv` (a fresh random IV when `nil`). A fixed IV
    /// is for known-answer tests only.
    /// - Throws: ``RNCryptorError/invalidParameter(_:)`` for an IV that is not 16 bytes.
    public static func encrypt(_ plaintext: Data, with keys: RNCryptorKeys, iv: Data? = nil) throws(RNCryptorError) -> RNCryptorMessage {
        let ivBytes = iv ?? Data(AES._CBC.IV())
        guard ivBytes.count == ivSize, let cbcIV = try? AES._CBC.IV(ivBytes: ivBytes) else { throw .invalidParameter("IV (must be 16 bytes)") }
        guard let ciphertext = try? AES._CBC.encrypt(plaintext, using: keys.encryptionKey, iv: cbcIV) else { throw .decryptionFailed }
        var message = RNCryptorMessage(salts: keys.salts, iv: ivBytes, ciphertext: ciphertext, hmac: Data())
        message = RNCryptorMessage(salts: keys.salts, iv: ivBytes, ciphertext: ciphertext, hmac: message.computedHMAC(with: keys.hmacKey))
        return message
    }

    private init(salts: RNCryptorSalts, iv: Data, ciphertext: Data, hmac: Data) {
        self.salts = salts
        self.iv = iv
        self.ciphertext = ciphertext
        self.hmac = hmac
    }

    /// HMAC-SHA256 of header and ciphertext.
    private func computedHMAC(with key: SymmetricKey) -> Data {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: header)
        mac.update(data: ciphertext)
        return Data(mac.finalize())
    }

    /// Checks the HMAC (in constant time), then decrypts.
    /// - Throws: ``RNCryptorError/invalidParameter(_:)`` when `keys` were derived with other
    ///   salts, ``RNCryptorError/hmacMismatch`` when the message was changed or written with
    ///   another password, ``RNCryptorError/decryptionFailed`` for bad padding.
    public func decrypt(with keys: RNCryptorKeys) throws(RNCryptorError) -> Data {
        guard keys.salts == salts else { throw .invalidParameter("keys (derived with other salts than the message's)") }
        var mac = HMAC<SHA256>(key: keys.hmacKey)
        mac.update(data: header)
        mac.update(data: ciphertext)
        guard mac.finalize() == hmac else { throw .hmacMismatch }
        guard let cbcIV = try? AES._CBC.IV(ivBytes: iv),
              let plaintext = try? AES._CBC.decrypt(ciphertext, using: keys.encryptionKey, iv: cbcIV) else { throw .decryptionFailed }
        return plaintext
    }
}
