public import DocumentFormat

/// `POST /{db}/_revs_diff`, the request and its reply, as the one definition both the server
/// (which reads requests and writes replies) and the replicator (which writes requests and
/// reads replies) use.
public enum RevsDiffMessage {
    /// The body: `{"<id>": ["<rev>", …], …}`, the revisions a source offers.
    public struct Request: Sendable, Equatable {
        /// The offered revisions per document.
        public var revisions: [String: [RevisionID]]
        /// Offered revision texts that are not revision IDs, per document. They can never be
        /// stored, so a server reports them missing instead of refusing the request.
        public var unparseable: [String: [String]]

        /// Offers `revisions`.
        public init(revisions: [String: [RevisionID]], unparseable: [String: [String]] = [:]) {
            self.revisions = revisions
            self.unparseable = unparseable
        }

        /// Reads a request body; 400 `bad_request` when a value is not an array of strings.
        public init(json: JSONObject) throws(CouchError) {
            var revisions = [String: [RevisionID]]()
            var unparseable = [String: [String]]()
            for (id, value) in json {
                guard let array = value.arrayValue else { throw CouchError.badRequest("_revs_diff values must be arrays") }
                var parsed = [RevisionID]()
                for element in array {
                    guard let text = element.stringValue else { throw CouchError.badRequest("_revs_diff revisions must be strings") }
                    if let rev = RevisionID(text) { parsed.append(rev) } else { unparseable[id, default: []].append(text) }
                }
                revisions[id] = parsed
            }
            self.init(revisions: revisions, unparseable: unparseable)
        }

        /// The body.
        public var json: JSONValue {
            var object = JSONObject()
            for (id, revs) in revisions {
                object[id] = .array(revs.map { .string($0.description) } + (unparseable[id] ?? []).map { .string($0) })
            }
            for (id, texts) in unparseable where revisions[id] == nil { object[id] = .array(texts.map { .string($0) }) }
            return .object(object)
        }
    }

    /// The reply: `{"<id>": {"missing": [...], "possible_ancestors": [...]}, …}`, listing only
    /// documents with something missing (`possible_ancestors` only when there are some).
    public struct Response: Sendable, Equatable {
        /// What is missing per document.
        public var entries: [String: RevsDiffEntry]
        /// Offered texts that are not revision IDs, reported missing after the parsed ones.
        public var unparseable: [String: [String]]

        /// A reply listing `entries` (entries with nothing missing are left out of the JSON)
        /// and, as missing, the `unparseable` texts of a request.
        public init(entries: [String: RevsDiffEntry], unparseable: [String: [String]] = [:]) {
            self.entries = entries
            self.unparseable = unparseable
        }

        /// Reads a reply; a ``ReplyShapeError`` when it is not the documented shape or a
        /// revision in it does not parse.
        public init(json: JSONValue) throws(ReplyShapeError) {
            guard let object = json.objectValue else { throw ReplyShapeError("revs_diff reply is not an object") }
            var entries: [String: RevsDiffEntry] = [:]
            for (id, value) in object {
                guard let entry = value.objectValue, let missing = entry["missing"]?.arrayValue else {
                    throw ReplyShapeError("revs_diff entry \(id) without missing")
                }
                let missingRevs = try missing.map { value throws(ReplyShapeError) in try Self.revision(value, of: id) }
                let ancestors = try (entry["possible_ancestors"]?.arrayValue ?? []).map { value throws(ReplyShapeError) in
                    try Self.revision(value, of: id)
                }
                if !missingRevs.isEmpty { entries[id] = RevsDiffEntry(missing: missingRevs, possibleAncestors: ancestors) }
            }
            self.init(entries: entries)
        }

        /// The reply body.
        public var json: JSONValue {
            var object = JSONObject()
            for id in Set(entries.keys).union(unparseable.keys) {
                let entry = entries[id]
                let missing = (entry?.missing.map(\.description) ?? []) + (unparseable[id] ?? [])
                guard !missing.isEmpty else { continue }
                var member: JSONObject = ["missing": .array(missing.map { .string($0) })]
                if let possible = entry?.possibleAncestors, !possible.isEmpty {
                    member["possible_ancestors"] = .array(possible.map { .string($0.description) })
                }
                object[id] = .object(member)
            }
            return .object(object)
        }

        private static func revision(_ value: JSONValue, of id: String) throws(ReplyShapeError) -> RevisionID {
            guard let text = value.stringValue, let rev = RevisionID(text) else {
                throw ReplyShapeError("revs_diff \(id): invalid revision \(value)")
            }
            return rev
        }
    }
}
