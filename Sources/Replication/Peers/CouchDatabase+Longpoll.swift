import CouchProtocol
import DocumentStore

extension CouchDatabase {
    /// `GET /db/_changes?feed=longpoll&since=…&limit=1&timeout=…&heartbeat=…`: one request the
    /// server holds until a change after `since` exists (`true`) or `timeout` passes (`false`).
    ///
    /// Heartbeat newlines keep the otherwise silent connection within the client's idle
    /// timeout (`CouchClientOptions.requestTimeout`) and through proxies. CouchDB (and
    /// `recipes serve`) ignore `timeout` when `heartbeat` is given and hold the feed until a
    /// change comes, so the wait is also ended here, a second after `timeout`, by cancelling
    /// the request. A missing database is `ReplicationError.databaseNotFound`; connection
    /// failures are retried as for every request, then thrown.
    public func waitForChanges(since: ReplicationSequence?, timeout: Duration) async throws -> Bool {
        let milliseconds = max(1, Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        let heartbeat = max(1000, min(10_000, Int(client.options.requestTimeout * 500)))
        let query: [(String, String)] = [
            ("feed", "longpoll"), ("since", since?.queryText ?? "0"), ("limit", "1"),
            ("timeout", String(milliseconds)), ("heartbeat", String(heartbeat)),
        ]
        let target = client.databaseURL(["_changes"], query: query)
        let client = self.client
        let url = self.url
        // The exchange may last the whole wait; the read timeout still catches a server
        // that stops sending heartbeats.
        let deadline = Double(milliseconds) / 1000 + client.options.requestTimeout + 2
        return try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask {
                let reply = try await client.sendJSON("GET", target, missingDatabaseOn404: true, timeout: deadline)
                do {
                    return !(try ChangesResponse(json: reply).results.isEmpty)
                } catch let error as ReplyShapeError {
                    throw ReplicationError.malformedReply(url: url.description, detail: "\(CouchHTTPClient.endpoint("GET", target)): \(error.description)")
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout + .seconds(1))
                return nil
            }
            defer { group.cancelAll() }
            do {
                guard let first = try await group.next() else { return false }
                return first ?? false
            } catch is CancellationError {
                throw ReplicationError.cancelled
            }
        }
    }
}
