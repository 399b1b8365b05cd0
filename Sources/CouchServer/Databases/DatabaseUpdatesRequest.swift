import CouchProtocol

/// The options of `GET /_db_updates`, read as CouchDB 3.4.3 reads them
/// (`global_changes_httpd`): `limit`, `timeout` and `heartbeat` are non-negative integers
/// of any size (400 `invalid_integer` otherwise), `descending` is on only when it is exactly
/// `true`, and other parameters are ignored. Everything is checked before any reply byte is
/// sent.
struct DatabaseUpdatesRequest: Sendable {
    /// How the feed is sent; the same four as `_changes`.
    var feed: ChangesRequest.Feed
    /// The `since` parameter as given (`0` when absent), read by ``startSequence()``.
    var since: String
    /// How many events at most.
    var limit: Int?
    /// Newest first (then the feed does not wait for more).
    var descending: Bool
    /// Interval of the heartbeats sent while waiting, if asked for.
    var heartbeat: Duration?
    /// Longest wait of a longpoll, continuous or eventsource feed.
    var timeout: Duration

    /// CouchDB's refusal of a `limit`, `timeout` or `heartbeat` that is not a non-negative integer.
    static let invalidInteger = CouchError(status: 400, error: "bad_request", reason: "invalid_integer")
    /// CouchDB's refusal of any other `feed`.
    static let unsupportedFeed = CouchError(
        status: 400, error: "bad_request", reason: "Supported `feed` types: normal, continuous, longpoll, eventsource")

    /// Reads the options from `query`, in CouchDB's order: the integers, then `feed`; `since`
    /// is read later (``startSequence()``), once `_global_changes` is known to exist, as
    /// CouchDB reads it. Waits are bounded by `maxTimeoutMilliseconds`, as for `_changes`.
    init(_ query: QueryParameters, maxTimeoutMilliseconds: Int) throws(CouchError) {
        limit = try query["limit"].map(Self.nonNegativeInteger)
        let timeoutMilliseconds = try query["timeout"].map(Self.nonNegativeInteger)
        var heartbeatMilliseconds: Int?
        switch query["heartbeat"] {
        case nil, "false": heartbeatMilliseconds = nil
        case "true": heartbeatMilliseconds = 60_000
        case let text?: heartbeatMilliseconds = try Self.nonNegativeInteger(text)
        }
        guard let feed = ChangesRequest.Feed(rawValue: query["feed"] ?? "normal") else { throw Self.unsupportedFeed }
        self.feed = feed
        since = query["since"] ?? "0"
        descending = query["descending"] == "true"
        // Beyond the longest wait a heartbeat would never come; bounding it keeps every
        // deadline computed from it far from the clock's range.
        heartbeat = heartbeatMilliseconds.map { .milliseconds(min(max($0, 100), max(maxTimeoutMilliseconds, 100))) }
        // As in CouchDB, a feed with heartbeats runs until the client goes away or the server
        // stops; otherwise it ends after `timeout`.
        if heartbeat != nil, feed != .normal {
            timeout = .seconds(24 * 3600)
        } else {
            timeout = .milliseconds(min(timeoutMilliseconds ?? 60_000, maxTimeoutMilliseconds))
        }
    }

    /// The `_global_changes` sequence to start after; `nil` for `now`.
    /// - Throws: 400 `Malformed sequence supplied in 'since' parameter.` when it is none.
    func startSequence() throws -> Int64? {
        try ChangesRequest.parseSequence(since)
    }

    /// `text` as CouchDB's `list_to_integer` reads it (an optional sign, then decimal
    /// digits), refused when negative. A value beyond ``WireNumber/maximum``, which CouchDB
    /// takes as it is, is read as that maximum: as a count or a wait it is unbounded either way.
    static func nonNegativeInteger(_ text: String) throws(CouchError) -> Int {
        if let value = WireNumber.count(text) { return value }
        let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { throw invalidInteger }
        return Int(WireNumber.maximum)
    }
}
