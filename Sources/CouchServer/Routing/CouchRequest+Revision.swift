import CouchProtocol
import HTTPTypes
import DocumentFormat
import Foundation

extension CouchRequest {
    /// The revision a write names: `?rev=`, or else the `If-Match` header (quoted or not),
    /// as CouchDB reads both; 400 "Invalid rev format" when the one given is malformed.
    func revisionOrIfMatch() throws -> RevisionID? {
        if let rev = try query.revision() { return rev }
        guard let match = headers[.ifMatch] else { return nil }
        guard let parsed = RevisionID(match.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))) else {
            throw CouchError.invalidRev
        }
        return parsed
    }

    /// Whether the write asked for CouchDB's `batch=ok`: the reply is then 202
    /// `{"ok":true,"id":…}` without the revision.
    var isBatchWrite: Bool { query["batch"] == "ok" }
}
