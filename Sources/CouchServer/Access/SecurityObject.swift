import CouchProtocol
import DocumentFormat
import DocumentStore

/// A database's `_security` object: its `admins` and `members`, each a list of user `names`
/// and `roles`.
///
/// It is kept in the database's own store as a local document under `storageKey`, which the
/// `_local` endpoint refuses to address. A local document lives in the database's file (so
/// deleting the database deletes it, and a copy of the file keeps it), never replicates and
/// never appears in `_changes` or `_all_docs`, which is how CouchDB treats `_security` too; and
/// it needs no change to the store's schema.
struct SecurityObject: Sendable, Equatable {
    /// One side of the object: the user names and the roles it lists.
    struct Group: Sendable, Equatable {
        /// User names.
        var names: [String] = []
        /// Role names.
        var roles: [String] = []

        /// Whether it lists nobody.
        var isEmpty: Bool { names.isEmpty && roles.isEmpty }

        /// Whether the user `name` with `roles` is listed, by name or by one of its roles.
        func includes(name: String?, roles userRoles: [String]) -> Bool {
            if let name, names.contains(name) { return true }
            return userRoles.contains { roles.contains($0) }
        }
    }

    /// Who administers the database: may change `_security` and design documents.
    var admins = Group()
    /// Who may read and write it; when empty the server's anonymous setting decides.
    var members = Group()
    /// The object as the client wrote it (other members kept), returned by `GET`.
    var stored: JSONObject = [:]

    /// The local-document key the object is stored under.
    static let storageKey = "_security"

    /// Parses a `_security` body; 400 `bad_request` for any other shape, as the object must be
    /// `{"admins": {"names": [...], "roles": [...]}, "members": {...}}` with string lists.
    init(validating object: JSONObject) throws(CouchError) {
        stored = object
        admins = try Self.group(object["admins"], "admins")
        members = try Self.group(object["members"], "members")
    }

    /// No admins, no members.
    init() {}

    /// The object stored in `store`, or an empty one.
    static func load(from store: some DocumentStoreReading) throws -> SecurityObject {
        guard let object = try store.getLocal(id: storageKey) else { return SecurityObject() }
        return (try? SecurityObject(validating: object)) ?? SecurityObject()
    }

    private static func group(_ value: JSONValue?, _ field: String) throws(CouchError) -> Group {
        guard let value, !value.isNull else { return Group() }
        guard let object = value.objectValue else {
            throw CouchError.badRequest("\(field) must be a JSON object")
        }
        return Group(names: try strings(object["names"], "\(field).names"),
                     roles: try strings(object["roles"], "\(field).roles"))
    }

    private static func strings(_ value: JSONValue?, _ field: String) throws(CouchError) -> [String] {
        guard let value, !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw CouchError.badRequest("\(field) must be a JSON list of strings") }
        var strings = [String]()
        for element in array {
            guard let string = element.stringValue else {
                throw CouchError.badRequest("\(field) must be a JSON list of strings")
            }
            strings.append(string)
        }
        return strings
    }
}
