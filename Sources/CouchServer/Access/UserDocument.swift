import CouchProtocol
import DocumentFormat

/// The rules of CouchDB 3's `_users` database for a document write, and the step that
/// replaces a clear `password` with its `PasswordHash` before anything is stored.
///
/// The checks and their 403 `forbidden` reasons are those of CouchDB's own
/// `_design/_auth` validation function, so clients that show CouchDB's reasons show these.
enum UserDocument {
    /// The ID prefix of every account document.
    static let idPrefix = "org.couchdb.user:"

    /// The user name an account document ID names, or `nil` when it is not one.
    static func userName(ofID id: String) -> String? {
        guard id.hasPrefix(idPrefix) else { return nil }
        return String(id.dropFirst(idPrefix.count))
    }

    /// The document to store for a write of `body` (its members, without `_id`/`_rev`) to
    /// `id`, by `user` (an admin when `isAdmin`), over the current revision `stored`.
    ///
    /// A clear `password` becomes `PasswordHash` members with `iterations` rounds; a write
    /// without one keeps the hash of `stored`, since replies never show it and a client
    /// updating its own document sends back what it read. Hash members a non-admin sends
    /// are ignored.
    /// - Throws: 403 `forbidden` with CouchDB's reason when the write breaks a rule.
    static func prepare(_ body: JSONObject, id: String, deleted: Bool, stored: JSONObject?,
                        user: String?, isAdmin: Bool, iterations: Int) throws(CouchError) -> JSONObject {
        if deleted {
            guard isAdmin || (user != nil && user == stored?["name"]?.stringValue) else {
                throw forbidden("You may only delete your own user document.")
            }
            return body
        }
        guard body["type"]?.stringValue == "user" else { throw forbidden("doc.type must be user") }
        guard let name = body["name"]?.stringValue, !name.isEmpty else { throw forbidden("doc.name is required") }
        guard let rolesValue = body["roles"] else { throw forbidden("doc.roles must exist") }
        guard let roleValues = rolesValue.arrayValue else { throw forbidden("doc.roles must be an array") }
        var roles = [String]()
        for value in roleValues {
            guard let role = value.stringValue else { throw forbidden("doc.roles can only contain strings") }
            roles.append(role)
        }
        guard id == idPrefix + name else { throw forbidden("Doc ID must be of the form org.couchdb.user:name") }
        if let stored, let oldName = stored["name"]?.stringValue, oldName != name {
            throw forbidden("Usernames can not be changed.")
        }
        if !isAdmin {
            if let stored {
                let oldRoles = stored["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
                guard oldRoles == roles else { throw forbidden("Only _admin may edit roles") }
            } else if !roles.isEmpty {
                throw forbidden("Only _admin may set roles")
            }
            guard user == name else { throw forbidden("You may only update your own user document.") }
        }
        guard !roles.contains(where: { $0.hasPrefix("_") }) else {
            throw forbidden("No system roles (starting with underscore) in users db.")
        }
        guard !name.hasPrefix("_") else { throw forbidden("Username may not start with underscore.") }
        guard !name.contains(":") else { throw forbidden("Character `:` is not allowed in usernames.") }

        var document = body
        let password = document.removeValue(forKey: "password")
        if !isAdmin {
            for member in PasswordHash.members { document.removeValue(forKey: member) }
        }
        if let password, !password.isNull {
            guard let clear = password.stringValue else { throw forbidden("doc.password must be a string") }
            for member in PasswordHash.members { document.removeValue(forKey: member) }
            document.merge(try PasswordHash.make(password: clear, iterations: iterations).members) { $1 }
        } else if document["derived_key"] == nil, let stored {
            for member in PasswordHash.members { if let value = stored[member] { document[member] = value } }
        }
        return document
    }

    /// `body` without the password hash, as every reply shows an account document.
    static func withoutHash(_ body: JSONObject) -> JSONObject {
        var body = body
        for member in PasswordHash.members + ["password"] { body.removeValue(forKey: member) }
        return body
    }

    /// A 403 `forbidden` with `reason`.
    static func forbidden(_ reason: String) -> CouchError {
        CouchError(status: 403, error: "forbidden", reason: reason)
    }
}
