import DocumentStore
import Foundation
import DocumentFormat

/// `_local` documents for a canned server, versioned as CouchDB versions them: each write
/// must name the current `_rev` (`0-N`) or gets 409, and the stored revision counts the
/// writes applied.
final class VersionedLocalDocuments: Sendable {
    private let stored = Locked<[String: (rev: Int, body: JSONObject)]>([:])
    /// Writes refused with 409 so far.
    let conflicts = Locked(0)

    /// The revision numbers held, one per document.
    var revisions: [Int] { stored.withLock { $0.values.map(\.rev) } }

    /// The reply to a GET or PUT of `/db/_local/…`; nil for any other request. `applied` may
    /// replace the reply to a PUT that was applied (given its new revision number).
    func reply(to request: CannedResponder.Recorded,
               applied: (Int) -> CannedResponder.Reply? = { _ in nil }) -> CannedResponder.Reply? {
        guard request.path.hasPrefix("/db/_local/") else { return nil }
        switch request.method {
        case "GET":
            guard let entry = stored.withLock({ $0[request.path] }) else { return nil }
            var body = entry.body
            body["_rev"] = .string("0-\(entry.rev)")
            return .init(status: 200, body: JSONWriter.couchDB.string(.object(body)))
        case "PUT":
            guard var body = (try? JSONValue.parse(request.body))?.objectValue else { return nil }
            let given = body.removeValue(forKey: "_rev")?.stringValue
            let next = stored.withLock { documents -> Int? in
                let current = documents[request.path]
                guard given == current.map({ "0-\($0.rev)" }) else { return nil }
                let rev = (current?.rev ?? 0) + 1
                documents[request.path] = (rev, body)
                return rev
            }
            guard let next else {
                conflicts.withLock { $0 += 1 }
                return .init(status: 409, body: #"{"error":"conflict","reason":"Document update conflict."}"#)
            }
            return applied(next) ?? .init(status: 201, body: #"{"ok":true,"id":"_local/x","rev":"0-\#(next)"}"#)
        default:
            return nil
        }
    }
}
