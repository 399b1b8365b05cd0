import CouchProtocol
import Crypto
import DocumentFormat
import DocumentStore
import Foundation
import Synchronization

/// The accounts of the `_users` database: checks a name and password against the account's
/// `PasswordHash`, and reads an account's roles.
///
/// PBKDF2 with CouchDB's 600,000 rounds takes a noticeable time, and basic authentication
/// sends the password with every request, so a successful check is remembered (as CouchDB's
/// authentication cache does): keyed by the name and the stored derived key, so a changed
/// password is checked afresh, holding only an HMAC of the password under a key made when the
/// server starts, never the password.
final class UserAccounts: Sendable {
    /// The name of the accounts database.
    static let databaseName = "_users"

    private let registry: DatabaseRegistry
    private let cacheKey = SymmetricKey(size: .bits256)
    private let verified = Mutex<[String: Data]>([:])
    /// Most remembered checks; past it the memory is cleared and checks start afresh.
    private static let cacheLimit = 1000

    init(registry: DatabaseRegistry) {
        self.registry = registry
    }

    /// The stored account document of `name` (hash included), or `nil` when there is none.
    func account(_ name: String) async -> JSONObject? {
        // Not `database(_:)` alone, which would create `_users` for a mistyped password.
        guard await registry.exists(Self.databaseName),
              let database = try? await registry.database(Self.databaseName)
        else { return nil }
        return try? await database.store.withReader { store in
            try store.get(id: UserDocument.idPrefix + name)?.body
        }
    }

    /// The roles of `name` when `password` is its password; `nil` otherwise.
    func authenticate(name: String, password: String) async -> [String]? {
        guard let document = await account(name), let hash = PasswordHash(document: document) else { return nil }
        let entry = "\(name)\u{0}\(hash.derivedKey)"
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data(password.utf8), using: cacheKey))
        if let known = verified.withLock({ $0[entry] }), known == mac { return Self.roles(document) }
        guard hash.verifies(password) else { return nil }
        verified.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll() }
            cache[entry] = mac
        }
        return Self.roles(document)
    }

    /// The roles of the account `name`, or `nil` when it no longer exists (a session cookie
    /// of a deleted account then stops working).
    func roles(of name: String) async -> [String]? {
        guard let document = await account(name) else { return nil }
        return Self.roles(document)
    }

    private static func roles(_ document: JSONObject) -> [String] {
        document["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
