import CouchProtocol
import DocumentFormat
import DocumentStore

/// The members of a `_find` (or `_explain`) body the server reads, checked: a selector
/// object, a `sort` of field names or `{"field": "asc"|"desc"}`, `limit` and `skip` within
/// `0...WireNumber.maximum`, `fields` as strings.
struct FindRequest: Sendable {
    /// The selector object.
    var selector: JSONValue
    /// The sort fields, most significant first.
    var sort: [SortField]
    /// At most this many documents (CouchDB's default: 25).
    var limit: Int
    /// Matches passed over before the first returned.
    var skip: Int
    /// The fields to return, `nil` for whole documents.
    var fields: [String]?

    /// Reads a request body; CouchDB's 400 for a missing selector or a malformed member.
    init(_ body: JSONObject) throws {
        guard let selector = body["selector"], selector.objectValue != nil else {
            throw CouchError(status: 400, error: "missing_required_key", reason: "Missing required key: selector")
        }
        var sort = [SortField]()
        if let value = body["sort"] {
            guard let array = value.arrayValue else { throw CouchError.badRequest("sort must be an array") }
            for element in array {
                switch element {
                case .string(let field):
                    sort.append(SortField(field: field, ascending: true))
                case .object(let object) where object.count == 1:
                    let (field, direction) = object.first!
                    guard let text = direction.stringValue, text == "asc" || text == "desc" else {
                        throw CouchError.badRequest("Sort direction must be \"asc\" or \"desc\"")
                    }
                    sort.append(SortField(field: field, ascending: text == "asc"))
                default:
                    throw CouchError.badRequest("Invalid sort field: \(JSONWriter.couchDB.string(element))")
                }
            }
        }
        guard sort.allSatisfy({ (try? FieldPath($0.field)) != nil }) else {
            throw CouchError.badRequest("Invalid sort field: an empty field name or path part")
        }
        self.selector = selector
        self.sort = sort
        limit = try Self.count(body["limit"], name: "limit") ?? 25
        skip = try Self.count(body["skip"], name: "skip") ?? 0
        if let value = body["fields"] {
            guard let array = value.arrayValue else { throw CouchError.badRequest("fields must be an array of strings") }
            fields = array.compactMap(\.stringValue)
        }
    }

    /// A body's `limit` or `skip`: an integer in `0...WireNumber.maximum`, so the two add
    /// without overflow; 400 `bad_request` naming the member otherwise.
    static func count(_ value: JSONValue?, name: String) throws -> Int? {
        guard let value else { return nil }
        guard let count = WireNumber.count(value) else {
            throw CouchError.badRequest("\(name) must be an integer from 0 to \(WireNumber.maximum)")
        }
        return count
    }
}
