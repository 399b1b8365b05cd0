import CouchProtocol
import HTTPTypes
import HTTPSupport

extension CouchRequest {
    /// The media ranges of the `Accept` header(s), lowercased, parameters dropped; `nil`
    /// without the header.
    private var acceptedRanges: [String]? {
        let values = headers[values: .accept]
        guard !values.isEmpty else { return nil }
        return values.flatMap { $0.split(separator: ",") }.map { HeaderParameters.mediaType(of: String($0)) }
    }

    /// Whether an `open_revs` reply is multipart/mixed: when the client accepts it, as
    /// CouchDB (mochiweb) decides it — no `Accept` header, `*/*`, `multipart/*` or
    /// `multipart/mixed`; JSON otherwise (`application/json`, `text/html`, …).
    var acceptsMultipartMixed: Bool {
        guard let ranges = acceptedRanges else { return true }
        return ranges.contains { $0 == "*/*" || $0 == "multipart/*" || $0 == "multipart/mixed" }
    }

    /// Whether a `_bulk_get` reply is multipart/mixed: only when the client names it
    /// (`multipart/mixed` or `multipart/*`), as CouchDB decides it; `*/*` gets JSON.
    var namesMultipartMixed: Bool {
        (acceptedRanges ?? []).contains { $0 == "multipart/*" || $0 == "multipart/mixed" }
    }
}
