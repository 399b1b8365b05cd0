public import DocumentFormat

/// The reply of `GET|POST /{db}/_changes`, as CouchDB frames it: the one definition the server
/// writes (normal and longpoll feeds whole, the continuous feed line by line) and the
/// replicator reads.
public struct ChangesResponse: Sendable, Equatable {
    /// One changed document.
    public struct Row: Sendable, Equatable {
        /// The row's sequence, opaque (CouchDB writes a string, and leaves it `null` between
        /// the points a `seq_interval` asks for).
        public var sequence: JSONValue?
        /// The document ID.
        public var id: String
        /// The winning revision, or every leaf with `style=all_docs`.
        public var revisions: [RevisionID]
        /// Whether the winning revision is a tombstone.
        public var deleted: Bool
        /// The winning revision's body with `include_docs=true` (`null` for a document gone
        /// since), absent otherwise.
        public var doc: JSONValue?

        /// Makes a row.
        public init(sequence: JSONValue?, id: String, revisions: [RevisionID], deleted: Bool, doc: JSONValue? = nil) {
            self.sequence = sequence
            self.id = id
            self.revisions = revisions
            self.deleted = deleted
            self.doc = doc
        }

        /// Reads a row; a ``ReplyShapeError`` without an ID, a `changes` array, or with a
        /// revision that does not parse.
        public init(json: JSONValue) throws(ReplyShapeError) {
            guard let row = json.objectValue, let id = row["id"]?.stringValue, let changes = row["changes"]?.arrayValue else {
                throw ReplyShapeError("changes row without id or changes")
            }
            var revisions: [RevisionID] = []
            revisions.reserveCapacity(changes.count)
            for change in changes {
                guard let text = change.objectValue?["rev"]?.stringValue, let rev = RevisionID(text) else {
                    throw ReplyShapeError("changes row \(id) with an invalid rev")
                }
                revisions.append(rev)
            }
            // JSON's null is a JSONValue too (`nil` literal included): a missing or null
            // sequence is spelled out as `Optional.none`.
            let sequence: JSONValue? = if let seq = row["seq"], !seq.isNull { seq } else { Optional.none }
            self.init(sequence: sequence, id: id, revisions: revisions,
                      deleted: row["deleted"]?.boolValue ?? false, doc: row["doc"])
        }

        /// The row's JSON: `{"seq", "id", "changes": [{"rev"}], "deleted"?, "doc"?}`.
        public var json: JSONValue {
            var row: JSONObject = [
                "seq": sequence ?? .null,
                "id": .string(id),
                "changes": .array(revisions.map { ["rev": .string($0.description)] }),
            ]
            if deleted { row["deleted"] = true }
            if let doc { row["doc"] = doc }
            return .object(row)
        }
    }

    /// The rows, oldest first (newest first for a descending feed).
    public var results: [Row]
    /// Where a later read resumes.
    public var lastSequence: JSONValue
    /// How many changes remain after `lastSequence`, when the server said.
    public var pending: Int?

    /// A reply of `results`.
    public init(results: [Row], lastSequence: JSONValue, pending: Int?) {
        self.results = results
        self.lastSequence = lastSequence
        self.pending = pending
    }

    /// Reads a normal or longpoll reply; a ``ReplyShapeError`` when it lacks `results` or
    /// `last_seq`, a row is malformed, or `pending` is not a count in `0...WireNumber.maximum`.
    public init(json: JSONValue) throws(ReplyShapeError) {
        guard let object = json.objectValue, let results = object["results"]?.arrayValue else {
            throw ReplyShapeError("changes reply without a results array")
        }
        var rows: [Row] = []
        rows.reserveCapacity(results.count)
        for result in results { rows.append(try Row(json: result)) }
        guard let last = object["last_seq"], !last.isNull else { throw ReplyShapeError("changes reply without last_seq") }
        var pending: Int?
        if let value = object["pending"], !value.isNull {
            guard let count = WireNumber.count(value) else {
                throw ReplyShapeError("changes reply field 'pending' is \(JSONWriter.couchDB.string(value)), not an integer from 0 to \(WireNumber.maximum)")
            }
            pending = count
        }
        self.init(results: rows, lastSequence: last, pending: pending)
    }

    /// The reply as JSON.
    public var json: JSONValue {
        var object: JSONObject = ["results": .array(results.map(\.json)), "last_seq": lastSequence]
        if let pending { object["pending"] = .int(Int64(pending)) }
        return .object(object)
    }

    /// The reply's bytes as CouchDB lays them out: one row per line, so a longpoll reply can
    /// be written as ``opening``, then the rows joined by ``rowSeparator``, then ``tail``.
    public var text: String {
        Self.opening + results.map { JSONWriter.couchDB.string($0.json) }.joined(separator: Self.rowSeparator)
            + tail
    }

    /// What a normal or longpoll reply starts with, before any row.
    public static let opening = "{\"results\":[\n"
    /// What separates two rows.
    public static let rowSeparator = ",\n"

    /// Everything after the rows: the closing bracket, `last_seq` and `pending`.
    public var tail: String {
        var text = results.isEmpty ? "" : "\n"
        text += "],\n\"last_seq\":" + JSONWriter.couchDB.string(lastSequence)
        if let pending { text += ",\"pending\":\(pending)" }
        return text + "}\n"
    }

    /// A continuous feed's line for `row`.
    public static func continuousLine(_ row: Row) -> String {
        JSONWriter.couchDB.string(row.json) + "\n"
    }

    /// The line that ends a continuous feed: `{"last_seq", "pending"}`.
    public static func continuousEnd(lastSequence: JSONValue, pending: Int) -> String {
        JSONWriter.couchDB.string(["last_seq": lastSequence, "pending": .int(Int64(pending))]) + "\n"
    }
}
