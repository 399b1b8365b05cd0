import CouchProtocol
import DocumentFormat
import DocumentStore
import Hummingbird

/// `GET|PUT /{db}/_security`: the database's `SecurityObject`.
extension CouchResponder {
    /// Reads or replaces the `_security` object. Only the database's admins get here with a
    /// PUT (see `authorize`); a body of the wrong shape gets 400 and changes nothing.
    func securityRequest(_ database: Database, _ request: CouchRequest) async throws -> Response {
        let store = database.store
        switch request.method {
        case .get, .head:
            let stored = try await store.withReader { store in try store.getLocal(id: SecurityObject.storageKey) }
            return CouchReply.json(200, .object(stored ?? [:]))
        case .put:
            guard case .object(let object) = try await request.jsonBody() else {
                throw CouchError.badRequest("The security object must be a JSON object")
            }
            let security = try SecurityObject(validating: object)
            try await store.withWriter { store in try store.putLocal(id: SecurityObject.storageKey, body: security.stored) }
            return CouchReply.json(200, CouchReply.ok)
        default:
            throw CouchError.methodNotAllowed
        }
    }
}
