import CouchProtocol
import Foundation

/// A database name CouchDB would accept (`^[a-z][a-z0-9_$()+/-]*$`), and the file name that
/// holds its store inside the data directory.
struct DatabaseName: Sendable, Hashable, CustomStringConvertible {
    /// The name as clients use it in URLs (after percent-decoding).
    let name: String

    private static let allowedAfterFirst = Set("abcdefghijklmnopqrstuvwxyz0123456789_$()+-/")
    /// Suffix of every store file the server manages.
    static let fileSuffix = ".couchdb"

    /// Validates `name`; throws CouchDB's 400 `illegal_database_name` when it is not allowed.
    init(validating name: String) throws {
        if Self.systemNames.contains(name) {
            self.name = name
            return
        }
        guard let first = name.first, ("a"..."z").contains(first),
              name.dropFirst().allSatisfy({ Self.allowedAfterFirst.contains($0) }),
              name.utf8.count <= 238
        else { throw CouchError.illegalDatabaseName(name) }
        self.name = name
        // `/`, `$`, `(`, `)` and `+` take three bytes in the file name, so a valid name can
        // still be too long for the file system; refuse it as a name, never as a storage error.
        guard fileName.utf8.count <= Self.maximumFileNameBytes else {
            throw CouchError(
                status: 400, error: "illegal_database_name",
                reason: "Name: '\(name)'. Its file name would exceed \(Self.maximumFileNameBytes) bytes "
                    + "(each /, $, (, ) and + takes three); use a shorter name or fewer of those characters.")
        }
    }

    /// The system databases served: `_users`, the accounts; `_replicator`, whose documents
    /// describe server-side replications (`ReplicatorDatabaseWatcher`); and `_global_changes`,
    /// the events of every database that `GET /_db_updates` serves (`GlobalChangesService`).
    static let systemNames: Set<String> = ["_users", ReplicatorDatabaseWatcher.databaseName, GlobalChangesService.databaseName]

    /// The system databases created on first use, as a set-up CouchDB 3 has them from the
    /// start; `_global_changes`, which a single-node CouchDB 3 creates only when asked, is not.
    static let createdOnFirstUse: Set<String> = ["_users", ReplicatorDatabaseWatcher.databaseName]

    /// The longest file name common file systems accept (`NAME_MAX`).
    static let maximumFileNameBytes = 255

    /// The store file name: the name with `/`, `$`, `(`, `)` and `+` percent-encoded (so any
    /// valid name maps to one flat file), then the suffix.
    var fileName: String {
        var out = ""
        for character in name {
            switch character {
            case "/": out += "%2F"
            case "$": out += "%24"
            case "(": out += "%28"
            case ")": out += "%29"
            case "+": out += "%2B"
            default: out.append(character)
            }
        }
        return out + Self.fileSuffix
    }

    /// The database name stored in `fileName`, or `nil` if the file is not one of ours.
    init?(fileName: String) {
        guard fileName.hasSuffix(Self.fileSuffix) else { return nil }
        let encoded = String(fileName.dropLast(Self.fileSuffix.count))
        guard let decoded = encoded.removingPercentEncoding,
              let valid = try? DatabaseName(validating: decoded),
              valid.fileName == fileName
        else { return nil }
        self = valid
    }

    /// The name.
    var description: String { name }
}
