import CouchProtocol
import Crypto
import _CryptoExtras
import DocumentFormat
import Foundation

/// A password as CouchDB 3 stores it in a `_users` document: PBKDF2 over HMAC-SHA-256
/// (`"password_scheme": "pbkdf2"`, `"pbkdf2_prf": "sha256"`) with a random 16-byte salt and
/// a 32-byte derived key, both hex. Older documents without `pbkdf2_prf` used HMAC-SHA-1 and
/// a 20-byte key, which `verifies(_:)` also reads, so accounts replicated from an older
/// CouchDB keep working.
///
/// The clear password is never kept: a `_users` write replaces it with this hash before it
/// is stored (see `UserDocument`).
struct PasswordHash: Sendable, Equatable {
    /// The pseudo-random function of PBKDF2: `"sha256"` (CouchDB 3.4's default) or `"sha"`.
    var prf: String
    /// PBKDF2 rounds.
    var iterations: Int
    /// The salt, as lowercase hex (CouchDB uses the hex text itself as the salt bytes).
    var salt: String
    /// The derived key, as lowercase hex.
    var derivedKey: String

    /// Most rounds a stored document may ask for. `iterations` comes from a document that
    /// may have been replicated in, so it is bounded: a hostile value cannot make each login
    /// spin for minutes. CouchDB 3.4 writes 600,000.
    static let maximumIterations = 10_000_000

    /// The members a `_users` document carries for the hash (and that no reply shows).
    static let members = ["password_scheme", "pbkdf2_prf", "iterations", "salt", "derived_key"]

    /// Hashes `password` with a fresh salt and `iterations` rounds of PBKDF2-HMAC-SHA-256.
    static func make(password: String, iterations: Int) throws(CouchError) -> PasswordHash {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Hex.lowercase($0) }
        var hash = PasswordHash(prf: "sha256", iterations: iterations, salt: salt, derivedKey: "")
        guard let key = hash.derive(password) else {
            throw CouchError(status: 500, error: "internal_server_error", reason: "Could not hash the password")
        }
        hash.derivedKey = key
        return hash
    }

    /// The hash a `_users` document stores, or `nil` when it has none this server can check
    /// (another scheme, a missing member, rounds outside 1…`maximumIterations`).
    init?(document: JSONObject) {
        guard document["password_scheme"]?.stringValue == "pbkdf2",
              let salt = document["salt"]?.stringValue, !salt.isEmpty,
              let derivedKey = document["derived_key"]?.stringValue, !derivedKey.isEmpty,
              let iterations = document["iterations"]?.intValue,
              iterations >= 1, iterations <= Int64(Self.maximumIterations)
        else { return nil }
        let prf = document["pbkdf2_prf"]?.stringValue ?? "sha"
        guard prf == "sha" || prf == "sha256" else { return nil }
        self.init(prf: prf, iterations: Int(iterations), salt: salt, derivedKey: derivedKey.lowercased())
    }

    /// Makes a hash from its parts (for documents and tests).
    init(prf: String, iterations: Int, salt: String, derivedKey: String) {
        self.prf = prf
        self.iterations = iterations
        self.salt = salt
        self.derivedKey = derivedKey
    }

    /// The members to store in the document.
    var members: JSONObject {
        [
            "password_scheme": "pbkdf2",
            "pbkdf2_prf": .string(prf),
            "iterations": .int(Int64(iterations)),
            "salt": .string(salt),
            "derived_key": .string(derivedKey),
        ]
    }

    /// Whether `password` derives this key, compared in constant time.
    func verifies(_ password: String) -> Bool {
        guard let derived = derive(password) else { return false }
        let expected = Array(derivedKey.utf8)
        let given = Array(derived.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The hex key `password` derives with this salt, rounds and function.
    private func derive(_ password: String) -> String? {
        let function: KDF.Insecure.PBKDF2.HashFunction = prf == "sha" ? .insecureSHA1 : .sha256
        let length = prf == "sha" ? 20 : 32
        guard iterations >= 1, iterations <= Self.maximumIterations,
              let key = try? KDF.Insecure.PBKDF2.deriveKey(
                  from: Array(password.utf8), salt: Array(salt.utf8), using: function,
                  outputByteCount: length, unsafeUncheckedRounds: iterations)
        else { return nil }
        return key.withUnsafeBytes { Hex.lowercase($0) }
    }
}
