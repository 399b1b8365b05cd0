import DocumentStore
import Foundation
import DocumentFormat

/// The HTTP requests the replication client makes for a pull and for a push, sent through a
/// `ReplayTransport` with the batch sizes, headers and concurrency of
/// `Sources/Replication/Engine/Replicator.swift` and `Sources/Replication/Peers/CouchDatabase.swift`.
/// Only the transport runs: nothing is written to a store and no reply is parsed but the
/// `_changes` pages, whose sequences and IDs the next requests need.
struct ReplicationTrafficReplay: Sendable {
    /// What a replay sent and received.
    struct Tally: Sendable {
        /// Requests sent.
        var requests = 0
        /// Documents transferred.
        var documents = 0
        /// Request body bytes sent.
        var bytesOut = 0
        /// Reply body bytes received.
        var bytesIn = 0

        static func + (a: Tally, b: Tally) -> Tally {
            Tally(requests: a.requests + b.requests, documents: a.documents + b.documents,
                  bytesOut: a.bytesOut + b.bytesOut, bytesIn: a.bytesIn + b.bytesIn)
        }
    }

    /// The client under test.
    let transport: any ReplayTransport
    /// The database, without credentials.
    let database: URL
    /// `Authorization: Basic …` when the database URL carried credentials.
    let authorization: String?
    /// Requests in flight at most (`CouchClientOptions.maxConnections`).
    let connections: Int
    /// Changes per `_changes` page and per pushed batch (`ReplicationOptions.batchSize`).
    let batchSize: Int
    /// Documents per `_bulk_get` at most (`ReplicationOptions.documentsPerFetch`).
    let documentsPerFetch: Int

    /// A replay of traffic to `databaseURL` (credentials in it become a Basic header).
    init(transport: any ReplayTransport, databaseURL: String, connections: Int, batchSize: Int, documentsPerFetch: Int) throws {
        guard var components = URLComponents(string: databaseURL), components.host != nil else {
            throw ReplayFailure(request: "parse \(databaseURL)", status: 0)
        }
        if let user = components.user {
            let password = components.password ?? ""
            authorization = "Basic " + Data("\(user.removingPercentEncoding ?? user):\(password.removingPercentEncoding ?? password)".utf8)
                .base64EncodedString()
        } else {
            authorization = nil
        }
        components.user = nil
        components.password = nil
        database = components.url!
        self.transport = transport
        self.connections = max(1, connections)
        self.batchSize = batchSize
        self.documentsPerFetch = documentsPerFetch
    }

    /// A pull: `_changes?style=all_docs` pages of `batchSize`, each page's revisions fetched
    /// in `connections` concurrent `_bulk_get` requests with attachments as stubs, then, for
    /// the documents whose attachments the target lacks (`withAttachments`, all below the
    /// multipart threshold), a second `_bulk_get` with `attachments=true`.
    func pull(withAttachments: Set<String>) async throws -> Tally {
        var tally = Tally()
        var since = "0"
        while true {
            let query = "feed=normal&style=all_docs&since=\(Self.encoded(since))&limit=\(batchSize)"
            let (page, reply) = try await send("GET", "_changes", query: query, keepBody: true)
            tally = tally + page
            let changes = try JSONValue.parse(reply.body ?? Data()).objectValue ?? [:]
            let rows = changes["results"]?.arrayValue ?? []
            var fetches: [(id: String, revisions: [String])] = []
            for row in rows {
                guard let row = row.objectValue, let id = row["id"]?.stringValue else { continue }
                fetches.append((id, (row["changes"]?.arrayValue ?? []).compactMap { $0.objectValue?["rev"]?.stringValue }))
            }
            fetches.sort { $0.id < $1.id }
            if fetches.isEmpty { break }
            let chunkSize = max(1, min(documentsPerFetch, (fetches.count + connections - 1) / connections))
            let chunks = stride(from: 0, to: fetches.count, by: chunkSize).map { Array(fetches[$0..<min($0 + chunkSize, fetches.count)]) }
            for part in try await concurrently(chunks, { try await fetch($0, withAttachments: withAttachments) }) {
                tally = tally + part
            }
            switch changes["last_seq"] {
            case .string(let text)?: since = text
            case let value?: since = String(decoding: JSONWriter.couchDB.data(value), as: UTF8.self)
            case nil: throw ReplayFailure(request: "GET _changes without last_seq", status: 0)
            }
            if rows.count < batchSize { break }
        }
        return tally
    }

    /// A push of `documents`: per batch one `_revs_diff`, then its `_bulk_docs` requests
    /// (`new_edits:false`) concurrently.
    func push(_ documents: ReplayDocuments) async throws -> Tally {
        var tally = Tally()
        for batch in documents.batches {
            let (diff, _) = try await send("POST", "_revs_diff", body: batch.revsDiff)
            tally = tally + diff
            for part in try await concurrently(batch.bulkDocs, { try await send("POST", "_bulk_docs", body: $0).0 }) {
                tally = tally + part
            }
            tally.documents += batch.documents
        }
        return tally
    }

    /// Creates the database (an existing one is kept).
    func createDatabase() async throws {
        let reply = try await transport.send("PUT", database, headers: headers(body: false), body: nil, keepBody: false)
        guard (200..<300).contains(reply.status) || reply.status == 412 else { throw ReplayFailure(request: "PUT \(database.path)", status: reply.status) }
    }

    /// The database's `doc_count`.
    func documentCount() async throws -> Int {
        let reply = try await transport.send("GET", database, headers: headers(body: false), body: nil, keepBody: true)
        guard (200..<300).contains(reply.status), case .int(let count)? = try JSONValue.parse(reply.body ?? Data()).objectValue?["doc_count"] else {
            throw ReplayFailure(request: "GET \(database.path)", status: reply.status)
        }
        return Int(count)
    }

    /// Deletes the database.
    func deleteDatabase() async throws {
        _ = try await transport.send("DELETE", database, headers: headers(body: false), body: nil, keepBody: false)
    }

    /// One chunk of a pull page: its `_bulk_get` with stubs, then the inline one for those
    /// of its documents that carry attachments.
    private func fetch(_ chunk: [(id: String, revisions: [String])], withAttachments: Set<String>) async throws -> Tally {
        let stubs = "revs=true&attachments=false&latest=true&att_encoding_info=true"
        var tally = try await send("POST", "_bulk_get", query: stubs, body: Self.bulkGetBody(chunk)).0
        tally.documents = chunk.count
        let inline = chunk.filter { withAttachments.contains($0.id) }
        if !inline.isEmpty {
            let query = "revs=true&attachments=true&latest=true&att_encoding_info=true"
            tally = tally + (try await send("POST", "_bulk_get", query: query, body: Self.bulkGetBody(inline)).0)
        }
        return tally
    }

    /// Sends one request under the database and fails on a non-2xx reply.
    private func send(_ method: String, _ path: String, query: String? = nil, body: Data? = nil,
                      keepBody: Bool = false) async throws -> (Tally, ReplayReply) {
        var text = database.absoluteString + "/" + path
        if let query { text += "?" + query }
        let reply = try await transport.send(method, URL(string: text)!, headers: headers(body: body != nil), body: body, keepBody: keepBody)
        guard (200..<300).contains(reply.status) else { throw ReplayFailure(request: "\(method) \(path)", status: reply.status) }
        return (Tally(requests: 1, bytesOut: body?.count ?? 0, bytesIn: reply.bytes), reply)
    }

    /// The headers `CouchHTTPClient` sends: its user agent, JSON accepted, JSON sent.
    private func headers(body: Bool) -> [(String, String)] {
        var headers = [("User-Agent", "recipes-bench/http-clients"), ("Accept", "application/json")]
        if body { headers.append(("Content-Type", "application/json")) }
        if let authorization { headers.append(("Authorization", authorization)) }
        return headers
    }

    /// Runs `body` on every element, all at once (the callers pass at most `connections`),
    /// and returns the results in order.
    private func concurrently<Element: Sendable, Result: Sendable>(
        _ elements: [Element], _ body: @escaping @Sendable (Element) async throws -> Result
    ) async throws -> [Result] {
        try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            for (index, element) in elements.enumerated() {
                group.addTask { (index, try await body(element)) }
            }
            var results: [Result?] = Array(repeating: nil, count: elements.count)
            for try await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    /// `{"docs": [{"id", "rev"}, …]}`.
    private static func bulkGetBody(_ chunk: [(id: String, revisions: [String])]) -> Data {
        var docs: [JSONValue] = []
        for (id, revisions) in chunk {
            for rev in revisions { docs.append(["id": .string(id), "rev": .string(rev)]) }
        }
        return JSONWriter.couchDB.data(["docs": .array(docs)])
    }

    /// A query value percent-encoded.
    private static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")) ?? value
    }
}
