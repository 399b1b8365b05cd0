import CouchProtocol
import DocumentStore
import Foundation
import DocumentFormat
import HTTPSupport

/// A request's query string, read with CouchDB's rules and its `query_parse_error` replies.
struct QueryParameters: Sendable {
    /// Decoded values by name; a repeated name keeps its last value.
    let values: [String: String]

    init(_ values: [String: String]) { self.values = values }

    /// Reads a raw (still percent-encoded) query string as CouchDB does
    /// (`URLEncodedForm.pairs`: `+` read as a space, malformed escapes kept); a repeated
    /// name keeps its last value.
    init(rawQuery: String) {
        values = Dictionary(URLEncodedForm.pairs(rawQuery).map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The raw value of `name`.
    subscript(_ name: String) -> String? { values[name] }

    /// A `true`/`false` parameter (in any letter case, as CouchDB reads them); 400
    /// `query_parse_error` for anything else.
    func bool(_ name: String, default fallback: Bool = false) throws -> Bool {
        guard let text = values[name] else { return fallback }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default:
            throw CouchError(status: 400, error: "query_parse_error", reason: "Invalid boolean parameter: \"\(text)\"")
        }
    }

    /// A non-negative integer parameter of at most ``WireNumber/maximum``, so sums of two
    /// (skip + limit) cannot overflow; 400 `query_parse_error` when malformed or out of range.
    func int(_ name: String) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = WireNumber.count(text) else {
            throw CouchError(status: 400, error: "query_parse_error", reason: "Invalid value for integer: \"\(text)\"")
        }
        return value
    }

    /// A JSON-encoded parameter (`startkey="a"`, `open_revs=["1-x"]`); 400 when not JSON.
    func json(_ name: String) throws -> JSONValue? {
        guard let text = values[name] else { return nil }
        do {
            return try JSONValue.parse(text)
        } catch {
            throw CouchError(status: 400, error: "bad_request", reason: "invalid_json: \(name) must be JSON")
        }
    }

    /// A revision parameter (`rev=1-abc`); 400 "Invalid rev format" when malformed.
    func revision(_ name: String = "rev") throws -> RevisionID? {
        guard let text = values[name] else { return nil }
        guard let rev = RevisionID(text) else { throw CouchError.invalidRev }
        return rev
    }

    /// A JSON array of revision IDs (`atts_since=["1-a"]`); 400 when malformed.
    func revisionList(_ name: String) throws -> [RevisionID]? {
        guard let value = try json(name) else { return nil }
        return try Self.revisions(from: value)
    }

    /// Revision IDs from a JSON array of strings; 400 when malformed.
    static func revisions(from value: JSONValue) throws -> [RevisionID] {
        guard let array = value.arrayValue else { throw CouchError.badRequest("Expected a JSON array of revisions") }
        return try array.map { element in
            guard let text = element.stringValue, let rev = RevisionID(text) else { throw CouchError.invalidRev }
            return rev
        }
    }
}
