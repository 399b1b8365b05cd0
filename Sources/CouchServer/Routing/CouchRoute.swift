import Foundation

/// What a request path names, in CouchDB's URL scheme.
///
/// Path segments are percent-decoded one by one, so a document ID or attachment name may hold
/// an encoded `/` (`%2F`); `_local/` and `_design/` IDs may also be written with a plain slash.
enum CouchRoute: Equatable, Sendable {
    /// `/`
    case root
    /// `/_all_dbs`, `/_session`, `/_up`, `/_uuids` and other `/_name` server endpoints.
    case serverEndpoint(String)
    /// `/{db}`
    case database(String)
    /// `/{db}/_changes`, `/{db}/_bulk_docs` and other `/{db}/_name` endpoints.
    case databaseEndpoint(db: String, endpoint: String)
    /// `/{db}/_local/{id}`; `id` without the prefix.
    case localDocument(db: String, id: String)
    /// `/{db}/{docid}`
    case document(db: String, id: String)
    /// `/{db}/{docid}/{attachment name}`
    case attachment(db: String, id: String, name: String)

    /// Parses a raw (still percent-encoded) request path; `nil` when an escape is malformed.
    init?(path: String) {
        var raw = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if raw.first == "" { raw.removeFirst() }
        if raw.last == "" { raw.removeLast() }
        var segments = [String]()
        for piece in raw {
            guard let decoded = piece.removingPercentEncoding else { return nil }
            segments.append(decoded)
        }
        guard let first = segments.first else {
            self = .root
            return
        }
        // `_users` is a database (the other `_` names are server endpoints).
        if first.hasPrefix("_"), !DatabaseName.systemNames.contains(first) {
            self = .serverEndpoint(segments.joined(separator: "/"))
            return
        }
        let db = first
        guard segments.count > 1 else {
            self = .database(db)
            return
        }
        var rest = Array(segments.dropFirst())
        // `_local/x` and `_design/x` may arrive as one encoded segment or as two.
        if rest[0].hasPrefix("_local/") || rest[0].hasPrefix("_design/") {
            let parts = rest[0].split(separator: "/", maxSplits: 1).map(String.init)
            rest.replaceSubrange(0...0, with: parts)
        }
        switch rest[0] {
        case "_local":
            guard rest.count > 1 else {
                self = .databaseEndpoint(db: db, endpoint: "_local")
                return
            }
            self = .localDocument(db: db, id: rest.dropFirst().joined(separator: "/"))
        case "_design":
            guard rest.count > 1 else {
                self = .databaseEndpoint(db: db, endpoint: "_design")
                return
            }
            let id = "_design/" + rest[1]
            self = rest.count > 2
                ? .attachment(db: db, id: id, name: rest.dropFirst(2).joined(separator: "/"))
                : .document(db: db, id: id)
        case let name where name.hasPrefix("_"):
            self = .databaseEndpoint(db: db, endpoint: rest.joined(separator: "/"))
        default:
            self = rest.count > 1
                ? .attachment(db: db, id: rest[0], name: rest.dropFirst().joined(separator: "/"))
                : .document(db: db, id: rest[0])
        }
    }

    /// The database the route is for, or `nil` for `/` and server endpoints.
    var databaseName: String? {
        switch self {
        case .root, .serverEndpoint: return nil
        case .database(let name), .databaseEndpoint(let name, _), .localDocument(let name, _),
             .document(let name, _), .attachment(let name, _, _):
            return name
        }
    }
}
