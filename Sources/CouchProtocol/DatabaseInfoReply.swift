public import DocumentFormat

/// The reply of `GET /{db}`: where the database's changes feed ends, how many documents it
/// holds and which incarnation of the database it is. The one definition the server writes
/// and the replicator reads.
///
/// Members this type does not name (a future or another server's) are kept in ``others``, so
/// a reply reads back as it came.
public struct DatabaseInfoReply: Sendable, Equatable {
    /// The space the database takes, in bytes: `{"file", "external", "active"}`.
    public struct Sizes: Sendable, Equatable {
        /// The size of the database file.
        public var file: Int?
        /// The uncompressed size of the documents.
        public var external: Int?
        /// The size of the live data in the file.
        public var active: Int?

        /// Makes sizes.
        public init(file: Int?, external: Int?, active: Int?) {
            self.file = file
            self.external = external
            self.active = active
        }
    }

    /// The database's sharding and quorum parameters: `{"q", "n", "w", "r"}`.
    public struct Cluster: Sendable, Equatable {
        /// Shards.
        public var q: Int
        /// Replicas of each shard.
        public var n: Int
        /// Write quorum.
        public var w: Int
        /// Read quorum.
        public var r: Int

        /// Makes cluster parameters.
        public init(q: Int, n: Int, w: Int, r: Int) {
            self.q = q
            self.n = n
            self.w = w
            self.r = r
        }
    }

    /// `db_name`.
    public var name: String?
    /// `update_seq`: the sequence of the newest change, opaque (CouchDB 2 and later write a
    /// string, earlier servers a number).
    public var updateSequence: JSONValue
    /// `purge_seq`, opaque.
    public var purgeSequence: JSONValue?
    /// `doc_count`: live documents.
    public var documentCount: Int?
    /// `doc_del_count`: deleted documents.
    public var deletedDocumentCount: Int?
    /// `sizes`.
    public var sizes: Sizes?
    /// `props` (for example `{"partitioned": true}`).
    public var props: JSONObject?
    /// `disk_format_version`.
    public var diskFormatVersion: Int?
    /// `compact_running`.
    public var compactRunning: Bool?
    /// `cluster`.
    public var cluster: Cluster?
    /// `instance_start_time`: CouchDB 3 writes the database's creation time (`"0"` on older
    /// servers, which tells nothing).
    public var instanceStartTime: String?
    /// Any other members, as they came.
    public var others: JSONObject

    /// Makes a reply.
    public init(name: String? = nil, updateSequence: JSONValue, purgeSequence: JSONValue? = nil, documentCount: Int? = nil,
                deletedDocumentCount: Int? = nil, sizes: Sizes? = nil, props: JSONObject? = nil, diskFormatVersion: Int? = nil,
                compactRunning: Bool? = nil, cluster: Cluster? = nil, instanceStartTime: String? = nil, others: JSONObject = [:]) {
        self.name = name
        self.updateSequence = updateSequence
        self.purgeSequence = purgeSequence
        self.documentCount = documentCount
        self.deletedDocumentCount = deletedDocumentCount
        self.sizes = sizes
        self.props = props
        self.diskFormatVersion = diskFormatVersion
        self.compactRunning = compactRunning
        self.cluster = cluster
        self.instanceStartTime = instanceStartTime
        self.others = others
    }

    /// The members this type names.
    private static let named: Set<String> = [
        "db_name", "update_seq", "purge_seq", "doc_count", "doc_del_count", "sizes", "props", "disk_format_version",
        "compact_running", "cluster", "instance_start_time",
    ]

    /// Reads a reply; a ``ReplyShapeError`` naming the member when it is not an object with a
    /// non-null `update_seq`, a count (`doc_count`, `doc_del_count`, the `sizes`, the
    /// `cluster` parameters, `disk_format_version`) is not an integer in
    /// `0...WireNumber.maximum`, or a member has another type than documented. Null members
    /// count as absent.
    public init(json: JSONValue) throws(ReplyShapeError) {
        guard let object = json.objectValue, let seq = object["update_seq"], !seq.isNull else {
            throw ReplyShapeError("database info without update_seq")
        }
        func present(_ key: String, in object: JSONObject = object) -> JSONValue? {
            guard let value = object[key], !value.isNull else { return nil }
            return value
        }
        func count(_ key: String, in object: JSONObject = object, of context: String = "database info") throws(ReplyShapeError) -> Int? {
            guard let value = present(key, in: object) else { return nil }
            guard let count = WireNumber.count(value) else {
                throw ReplyShapeError("\(context) field '\(key)' is \(JSONWriter.couchDB.string(value)), not an integer from 0 to \(WireNumber.maximum)")
            }
            return count
        }
        func member<T>(_ key: String, _ type: String, _ read: (JSONValue) -> T?) throws(ReplyShapeError) -> T? {
            guard let value = present(key) else { return nil }
            guard let read = read(value) else { throw ReplyShapeError("database info field '\(key)' is not \(type)") }
            return read
        }
        var sizes: Sizes?
        if let value = try member("sizes", "an object", \.objectValue) {
            sizes = Sizes(file: try count("file", in: value, of: "database info sizes"),
                          external: try count("external", in: value, of: "database info sizes"),
                          active: try count("active", in: value, of: "database info sizes"))
        }
        var cluster: Cluster?
        if let value = try member("cluster", "an object", \.objectValue) {
            func parameter(_ key: String) throws(ReplyShapeError) -> Int {
                guard let number = try count(key, in: value, of: "database info cluster") else {
                    throw ReplyShapeError("database info cluster without '\(key)'")
                }
                return number
            }
            cluster = Cluster(q: try parameter("q"), n: try parameter("n"), w: try parameter("w"), r: try parameter("r"))
        }
        self.init(name: try member("db_name", "a string", \.stringValue),
                  updateSequence: seq,
                  purgeSequence: present("purge_seq"),
                  documentCount: try count("doc_count"),
                  deletedDocumentCount: try count("doc_del_count"),
                  sizes: sizes,
                  props: try member("props", "an object", \.objectValue),
                  diskFormatVersion: try count("disk_format_version"),
                  compactRunning: try member("compact_running", "a boolean", \.boolValue),
                  cluster: cluster,
                  instanceStartTime: try member("instance_start_time", "a string", \.stringValue),
                  others: object.filter { !Self.named.contains($0.key) })
    }

    /// The reply body.
    public var json: JSONValue {
        var object = others
        object["update_seq"] = updateSequence
        if let name { object["db_name"] = .string(name) }
        if let purgeSequence { object["purge_seq"] = purgeSequence }
        if let documentCount { object["doc_count"] = .int(Int64(documentCount)) }
        if let deletedDocumentCount { object["doc_del_count"] = .int(Int64(deletedDocumentCount)) }
        if let sizes {
            var members = JSONObject()
            if let file = sizes.file { members["file"] = .int(Int64(file)) }
            if let external = sizes.external { members["external"] = .int(Int64(external)) }
            if let active = sizes.active { members["active"] = .int(Int64(active)) }
            object["sizes"] = .object(members)
        }
        if let props { object["props"] = .object(props) }
        if let diskFormatVersion { object["disk_format_version"] = .int(Int64(diskFormatVersion)) }
        if let compactRunning { object["compact_running"] = .bool(compactRunning) }
        if let cluster {
            object["cluster"] = ["q": .int(Int64(cluster.q)), "n": .int(Int64(cluster.n)),
                                 "w": .int(Int64(cluster.w)), "r": .int(Int64(cluster.r))]
        }
        if let instanceStartTime { object["instance_start_time"] = .string(instanceStartTime) }
        return .object(object)
    }
}
