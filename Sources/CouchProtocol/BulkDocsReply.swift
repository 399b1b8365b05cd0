public import DocumentFormat

/// The reply of `POST /{db}/_bulk_docs`: one result per document saved as a new edit, or,
/// with `new_edits: false`, only the revisions refused (as CouchDB answers). The one
/// definition the server writes and the replicator reads.
public struct BulkDocsReply: Sendable, Equatable {
    /// How one document fared.
    public enum Result: Sendable, Equatable {
        /// Saved: `{"ok": true, "id", "rev"}` (some servers leave out the ID or revision).
        case saved(id: String?, rev: RevisionID?)
        /// Refused: `{"id", "rev"?, "error", "reason"}`.
        case refused(DocumentFailure)

        /// The result's JSON.
        public var json: JSONValue {
            switch self {
            case .saved(let id, let rev):
                var object: JSONObject = ["ok": true]
                if let id { object["id"] = .string(id) }
                if let rev { object["rev"] = .string(rev.description) }
                return .object(object)
            case .refused(let failure):
                return failure.json
            }
        }
    }

    /// The results, in the order of the request's documents.
    public var results: [Result]

    /// A reply of `results`.
    public init(_ results: [Result]) {
        self.results = results
    }

    /// Reads a reply; a ``ReplyShapeError`` when it is not an array of objects. An entry
    /// without `error` counts as saved, whatever else it holds, as servers differ there.
    public init(json: JSONValue) throws(ReplyShapeError) {
        guard let entries = json.arrayValue else { throw ReplyShapeError("bulk_docs reply is not an array") }
        var results: [Result] = []
        results.reserveCapacity(entries.count)
        for element in entries {
            guard let entry = element.objectValue else { throw ReplyShapeError("bulk_docs entry is not an object") }
            if let error = entry["error"]?.stringValue {
                results.append(.refused(DocumentFailure(json: entry, id: "?", error: error)))
            } else {
                results.append(.saved(id: entry["id"]?.stringValue, rev: entry["rev"]?.stringValue.flatMap(RevisionID.init)))
            }
        }
        self.init(results)
    }

    /// The reply body.
    public var json: JSONValue { .array(results.map(\.json)) }
}
