/// Why an RNCryptor v3 message could not be read or written.
///
/// Each case is a distinct failure a caller reacts to differently: a malformed message is
/// not ours at all, an HMAC mismatch means tampering or another password, and a decryption
/// failure after a good HMAC means the bytes are inconsistent with the keys.
public enum RNCryptorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Shorter than the fixed header and HMAC, or not a multiple of the AES block size.
    case messageTooShort(Int)
    /// The version byte is not 3.
    case unsupportedVersion(UInt8)
    /// The options byte is not 1 (password-based), e.g. a key-based message.
    case unsupportedOptions(UInt8)
    /// The HMAC does not match: the message was changed, or it was written with another password.
    case hmacMismatch
    /// AES-CBC refused the ciphertext (bad padding) although the HMAC matched.
    case decryptionFailed
    /// A salt or IV of the wrong length was supplied.
    case invalidParameter(String)
    /// Key derivation failed in the crypto library.
    case keyDerivationFailed

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case .messageTooShort(let n): return "not an RNCryptor v3 message (\(n) bytes is too short or not whole AES blocks)"
        case .unsupportedVersion(let v): return "RNCryptor version \(v) is not supported (only 3)"
        case .unsupportedOptions(let o): return "RNCryptor options \(o) are not supported (only 1, password)"
        case .hmacMismatch: return "HMAC mismatch: the value was tampered with or encrypted with another password"
        case .decryptionFailed: return "AES-CBC decryption failed"
        case .invalidParameter(let what): return "invalid \(what)"
        case .keyDerivationFailed: return "PBKDF2 key derivation failed"
        }
    }
}
