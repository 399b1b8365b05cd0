public import Crypto
import Foundation
import _CryptoExtras
import Dispatch
import Synchronization

/// The two keys of an RNCryptor v3 password message, derived from a password and a salt pair
/// with PBKDF2-HMAC-SHA1 (10,000 rounds, 32 bytes each, one derivation per salt).
///
/// Deriving costs milliseconds, so callers keep these (see ``RNCryptorKeyCache``) rather
/// than deriving per message.
public struct RNCryptorKeys: Sendable {
    /// The PBKDF2 round count RNCryptor v3 fixes.
    public static let rounds = 10_000
    /// Key length in bytes (AES-256, and the HMAC key likewise).
    public static let keySize = 32

    /// The salts the keys were derived with; every message written with them carries them.
    public let salts: RNCryptorSalts
    /// The AES-256-CBC key.
    public let encryptionKey: SymmetricKey
    /// The HMAC-SHA256 key.
    public let hmacKey: SymmetricKey

    /// Derives both keys from `password` (its UTF-8 bytes) and `salts`.
    /// - Throws: ``RNCryptorError/keyDerivationFailed`` if the crypto library fails.
    public init(password: String, salts: RNCryptorSalts) throws(RNCryptorError) {
        self.salts = salts
        let bytes = Array(password.utf8)
        // The two derivations are independent and each costs milliseconds, so they run side
        // by side (a command that opens notes pays one derivation's time, not two).
        let derived = Mutex<[SymmetricKey?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let salt = index == 0 ? salts.encryptionSalt : salts.hmacSalt
            // RNCryptor v3 fixes 10,000 rounds, below swift-crypto's checked minimum, so the
            // unchecked entry point is the one that matches the format.
            let key = try? KDF.Insecure.PBKDF2.deriveKey(from: bytes, salt: salt, using: .insecureSHA1,
                                                         outputByteCount: Self.keySize, unsafeUncheckedRounds: Self.rounds)
            derived.withLock { $0[index] = key }
        }
        guard let encryptionKey = derived.withLock({ $0[0] }), let hmacKey = derived.withLock({ $0[1] }) else {
            throw .keyDerivationFailed
        }
        self.encryptionKey = encryptionKey
        self.hmacKey = hmacKey
    }
}
