public import DocumentFormat
public import HTTPSupport

/// `POST /{db}/_bulk_get`, the request and its JSON reply, as the one definition both the
/// server (which reads requests and writes replies) and the replicator (which writes
/// requests and reads replies) use. The multipart/mixed form of the reply is the same
/// entries written with ``RevisionResult/appendPart(to:)``.
public enum BulkGetMessage {
    /// The body: `{"docs": [{"id", "rev"?, "atts_since"?}, …]}`, with CouchDB's replicator
    /// also repeating `revs`, `latest` and `attachments` from its query in the body.
    public struct Request: Sendable, Equatable {
        /// One revision asked for.
        public struct Item: Sendable, Equatable {
            /// The document ID.
            public var id: String
            /// The revision text asked for (kept as text: one that does not parse gets an
            /// error entry in the reply, not a refused request); `nil` for the winner.
            public var rev: String?
            /// Revisions the client holds: attachments unchanged since them come as stubs.
            /// `nil` when the member is absent.
            public var attachmentsSince: [RevisionID]?

            /// Asks for `rev` of `id`.
            public init(id: String, rev: String?, attachmentsSince: [RevisionID]? = nil) {
                self.id = id
                self.rev = rev
                self.attachmentsSince = attachmentsSince
            }
        }

        /// The revisions asked for, in order.
        public var docs: [Item]
        /// `revs` in the body, when given.
        public var revs: Bool?
        /// `latest` in the body, when given.
        public var latest: Bool?
        /// `attachments` in the body, when given.
        public var attachments: Bool?

        /// Asks for `docs`.
        public init(docs: [Item], revs: Bool? = nil, latest: Bool? = nil, attachments: Bool? = nil) {
            self.docs = docs
            self.revs = revs
            self.latest = latest
            self.attachments = attachments
        }

        /// Reads a request body; 400 `bad_request` without a `docs` array or with an entry
        /// that has no string `id`, or an `atts_since` that is not an array of revisions.
        /// A `rev` that is not a string counts as absent, as CouchDB reads it.
        public init(json: JSONObject) throws(CouchError) {
            guard let docs = json["docs"]?.arrayValue else { throw CouchError.badRequest("Missing JSON list of 'docs'.") }
            var items: [Item] = []
            items.reserveCapacity(docs.count)
            for element in docs {
                guard let object = element.objectValue, let id = object["id"]?.stringValue else {
                    throw CouchError.badRequest("Every _bulk_get entry needs an id")
                }
                var since: [RevisionID]?
                if let value = object["atts_since"] {
                    guard let array = value.arrayValue else { throw CouchError.badRequest("Expected a JSON array of revisions") }
                    var revisions: [RevisionID] = []
                    for element in array {
                        guard let text = element.stringValue, let rev = RevisionID(text) else { throw CouchError.invalidRev }
                        revisions.append(rev)
                    }
                    since = revisions
                }
                items.append(Item(id: id, rev: object["rev"]?.stringValue, attachmentsSince: since))
            }
            self.init(docs: items, revs: json["revs"]?.boolValue, latest: json["latest"]?.boolValue,
                      attachments: json["attachments"]?.boolValue)
        }

        /// The body.
        public var json: JSONValue {
            let docs: [JSONValue] = docs.map { item in
                var entry: JSONObject = ["id": .string(item.id)]
                if let rev = item.rev { entry["rev"] = .string(rev) }
                if let since = item.attachmentsSince { entry["atts_since"] = .array(since.map { .string($0.description) }) }
                return .object(entry)
            }
            var object: JSONObject = ["docs": .array(docs)]
            if let revs { object["revs"] = .bool(revs) }
            if let latest { object["latest"] = .bool(latest) }
            if let attachments { object["attachments"] = .bool(attachments) }
            return .object(object)
        }
    }

    /// The JSON reply: `{"results": [{"id", "docs": [entry, …]}, …]}`, one result per
    /// requested item, in order.
    public struct Response: Sendable, Equatable {
        /// What was read for one requested item.
        public struct Result: Sendable, Equatable {
            /// The document ID (`nil` when a server left it out).
            public var id: String?
            /// The revisions returned or refused (several with `latest=true` when the revision
            /// asked for has several leaf descendants).
            public var docs: [RevisionResult]

            /// Makes a result.
            public init(id: String?, docs: [RevisionResult]) {
                self.id = id
                self.docs = docs
            }

            /// The result's JSON.
            public var json: JSONValue {
                var object: JSONObject = ["docs": .array(docs.map(\.json))]
                if let id { object["id"] = .string(id) }
                return .object(object)
            }
        }

        /// The results.
        public var results: [Result]

        /// A reply of `results`.
        public init(results: [Result]) {
            self.results = results
        }

        /// Reads a reply; a ``ReplyShapeError`` without a `results` array, with a result that
        /// is not an object with a `docs` array, or with a malformed entry.
        public init(json: JSONValue) throws(ReplyShapeError) {
            guard let results = json.objectValue?["results"]?.arrayValue else {
                throw ReplyShapeError("bulk_get reply without a results array")
            }
            var parsed: [Result] = []
            parsed.reserveCapacity(results.count)
            for element in results {
                guard let entry = element.objectValue, let docs = entry["docs"]?.arrayValue else {
                    throw ReplyShapeError("bulk_get result without docs")
                }
                let id = entry["id"]?.stringValue
                var entries: [RevisionResult] = []
                entries.reserveCapacity(docs.count)
                for doc in docs { entries.append(try RevisionResult(json: doc, documentID: id ?? "?")) }
                parsed.append(Result(id: id, docs: entries))
            }
            self.init(results: parsed)
        }

        /// The reply body.
        public var json: JSONValue { ["results": .array(results.map(\.json))] }

        /// Writes the reply as `multipart/mixed` parts, one per entry, into `writer` (framed
        /// `MultipartWriter.Framing.padded`, as CouchDB frames `_bulk_get`).
        public func appendParts<Output>(to writer: inout MultipartWriter<Output>) throws {
            for result in results {
                for entry in result.docs { try entry.appendPart(to: &writer) }
            }
        }
    }
}
