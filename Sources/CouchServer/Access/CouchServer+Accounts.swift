public import Foundation
import CouchProtocol
import DocumentFormat
import DocumentStore

extension CouchServer {
    /// Whether `addUser` made a new account or changed an existing one.
    public enum AccountChange: Sendable, Equatable {
        /// The account did not exist and was created.
        case created
        /// The account existed; its password and roles were replaced.
        case updated
    }

    /// Creates or updates the account `name` in the `_users` database of `dataDirectory`,
    /// with `password` (stored only as its PBKDF2 hash, `iterations` rounds) and `roles`,
    /// as `recipes serve --add-user` does. It writes the store file directly, so it works
    /// whether or not a server is running on the directory; a running one sees the account
    /// at its next login.
    ///
    /// - Throws: `CouchServerError.accountRefused(_:)` when CouchDB's rules refuse the name or
    ///   a role (a name or role starting with `_`, a `:` in the name), or the store fails.
    public static func addUser(
        name: String, password: String, roles: [String], dataDirectory: URL, iterations: Int = 600_000
    ) async throws(CouchServerError) -> AccountChange {
        let registry = DatabaseRegistry(directory: dataDirectory)
        do {
            let database = try await registry.database(UserAccounts.databaseName)
            let store = database.store
            let id = UserDocument.idPrefix + name
            let change = try await store.withWriter { store throws -> AccountChange in
                let current = try store.get(id: id)
                var body = current?.body ?? [:]
                body["name"] = .string(name)
                body["type"] = "user"
                body["roles"] = .array(roles.map { .string($0) })
                body["password"] = .string(password)
                var document = try CouchDocument(body)
                document.rev = current?.rev
                document.body = try UserDocument.prepare(
                    document.body, id: id, deleted: false, stored: current?.body,
                    user: nil, isAdmin: true, iterations: iterations)
                _ = try CouchResponder.saveNow(document, id: id, store: store)
                return current == nil ? .created : .updated
            }
            await registry.closeAll()
            return change
        } catch {
            await registry.closeAll()
            throw .accountRefused(CouchError.from(error).reason)
        }
    }
}
