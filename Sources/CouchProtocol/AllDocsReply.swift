public import DocumentFormat

/// The reply of `GET|POST /{db}/_all_docs`: `{"total_rows", "offset", "rows": [...]}`. The one
/// definition the server writes; the replicator does not read it, but a client would read it
/// here.
public struct AllDocsReply: Sendable, Equatable {
    /// One row.
    public enum Row: Sendable, Equatable {
        /// A document: `{"id", "key", "value": {"rev", "deleted"?}, "doc"?}`, its key its ID.
        /// `doc` is there with `include_docs=true` (`null` for a deleted document listed by
        /// `keys`).
        case document(id: String, rev: RevisionID, deleted: Bool, doc: JSONValue?)
        /// A key asked for with `keys` that names no document: `{"key", "error"}`.
        case error(key: String, error: String)

        /// Reads a row; a ``ReplyShapeError`` when it is neither a document row (string `id`,
        /// `value` with a valid `rev`) nor an error row (string `key` and `error`).
        public init(json: JSONValue) throws(ReplyShapeError) {
            guard let row = json.objectValue else { throw ReplyShapeError("all_docs row is not an object") }
            if let error = row["error"]?.stringValue {
                guard let key = row["key"]?.stringValue else { throw ReplyShapeError("all_docs error row without a key") }
                self = .error(key: key, error: error)
                return
            }
            guard let id = row["id"]?.stringValue else { throw ReplyShapeError("all_docs row without id") }
            guard let value = row["value"]?.objectValue, let text = value["rev"]?.stringValue, let rev = RevisionID(text) else {
                throw ReplyShapeError("all_docs row \(id) without a valid value.rev")
            }
            self = .document(id: id, rev: rev, deleted: value["deleted"]?.boolValue ?? false, doc: row["doc"])
        }

        /// The row's JSON.
        public var json: JSONValue {
            switch self {
            case .document(let id, let rev, let deleted, let doc):
                var value: JSONObject = ["rev": .string(rev.description)]
                if deleted { value["deleted"] = true }
                var row: JSONObject = ["id": .string(id), "key": .string(id), "value": .object(value)]
                if let doc { row["doc"] = doc }
                return .object(row)
            case .error(let key, let error):
                return ["key": .string(key), "error": .string(error)]
            }
        }
    }

    /// `total_rows`: the live documents in the database.
    public var totalRows: Int
    /// `offset`: the rows before the first one listed; `nil` (`null`) when rows were asked
    /// for by `keys`.
    public var offset: Int?
    /// The rows.
    public var rows: [Row]

    /// A reply of `rows`.
    public init(totalRows: Int, offset: Int?, rows: [Row]) {
        self.totalRows = totalRows
        self.offset = offset
        self.rows = rows
    }

    /// Reads a reply; a ``ReplyShapeError`` naming the member when `total_rows` or a non-null
    /// `offset` is not an integer in `0...WireNumber.maximum`, there is no `rows` array, or a
    /// row is malformed.
    public init(json: JSONValue) throws(ReplyShapeError) {
        guard let object = json.objectValue, let rows = object["rows"]?.arrayValue else {
            throw ReplyShapeError("all_docs reply without a rows array")
        }
        func count(_ key: String) throws(ReplyShapeError) -> Int? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let count = WireNumber.count(value) else {
                throw ReplyShapeError("all_docs reply field '\(key)' is \(JSONWriter.couchDB.string(value)), not an integer from 0 to \(WireNumber.maximum)")
            }
            return count
        }
        guard let total = try count("total_rows") else { throw ReplyShapeError("all_docs reply without total_rows") }
        var parsed: [Row] = []
        parsed.reserveCapacity(rows.count)
        for row in rows { parsed.append(try Row(json: row)) }
        self.init(totalRows: total, offset: try count("offset"), rows: parsed)
    }

    /// The reply body.
    public var json: JSONValue {
        ["total_rows": .int(Int64(totalRows)), "offset": offset.map { .int(Int64($0)) } ?? .null, "rows": .array(rows.map(\.json))]
    }
}
