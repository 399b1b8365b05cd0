import CouchProtocol
import Crypto
import DocumentFormat
import Foundation

/// What one server-side replication does, read from a `POST /_replicate` body or a
/// `_replicator` document: `source`, `target`, `continuous`, `create_target`, `doc_ids`,
/// `selector`. Two requests with the same definition are the same job (same `id`).
struct ReplicationDefinition: Sendable, Hashable {
    /// Where documents come from.
    var source: ReplicationEndpoint
    /// Where they go.
    var target: ReplicationEndpoint
    /// Keep following the source after catching up.
    var continuous: Bool
    /// Create a missing target first.
    var createTarget: Bool
    /// Only these documents.
    var docIDs: [String]?
    /// Only the documents this Mango selector matches.
    var selector: JSONValue?

    /// Reads a definition; 400 `bad_request` for a missing or malformed field, before
    /// anything starts.
    init(_ object: JSONObject) throws {
        source = try ReplicationEndpoint(object["source"], field: "source")
        target = try ReplicationEndpoint(object["target"], field: "target")
        continuous = try Self.flag(object, "continuous")
        createTarget = try Self.flag(object, "create_target")
        if let ids = object["doc_ids"], ids != .null {
            guard let list = ids.arrayValue, case let strings = list.compactMap(\.stringValue), strings.count == list.count else {
                throw CouchError.badRequest("doc_ids must be an array of strings")
            }
            docIDs = strings
        }
        if let selector = object["selector"], selector != .null {
            guard case .object = selector else { throw CouchError.badRequest("selector must be an object") }
            self.selector = selector
        }
        if object["filter"] != nil, object["filter"] != .null {
            throw CouchError(status: 501, error: "not_implemented",
                             reason: "Filter functions are JavaScript, which this server does not run; use doc_ids or selector.")
        }
    }

    private static func flag(_ object: JSONObject, _ name: String) throws -> Bool {
        switch object[name] {
        case nil, .null: return false
        case .bool(let value): return value
        default: throw CouchError.badRequest("\(name) must be true or false")
        }
    }

    /// The job's ID, as CouchDB forms it: a hash of the endpoints (without credentials) and
    /// filters, then `+continuous` and `+create_target` when set. `POST /_replicate` with
    /// `cancel` finds the job by it (`replication_id`).
    var id: String {
        var parts = ["source=" + source.identity, "target=" + target.identity]
        if let docIDs { parts.append("doc_ids=" + JSONWriter.canonical.string(.array(docIDs.sorted().map { .string($0) }))) }
        if let selector { parts.append("selector=" + JSONWriter.canonical.string(selector)) }
        let hash = Hex.lowercase(SHA256.hash(data: Data(parts.joined(separator: "\n").utf8)).prefix(16))
        return hash + (continuous ? "+continuous" : "") + (createTarget ? "+create_target" : "")
    }
}
