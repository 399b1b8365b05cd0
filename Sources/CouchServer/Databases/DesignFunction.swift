import CouchProtocol
import DocumentFormat

/// The parts of a design document that CouchDB runs as JavaScript (or Erlang): this server
/// stores and replicates design documents but runs none of them, and answers a request for
/// one with CouchDB's 501 `not_implemented`, naming what is missing and pointing to `_find`.
enum DesignFunction: String, Sendable, CaseIterable {
    /// `/{db}/_design/{ddoc}/_view/{name}`: map/reduce views.
    case view = "_view"
    /// `/{db}/_design/{ddoc}/_show/{name}`: show functions.
    case show = "_show"
    /// `/{db}/_design/{ddoc}/_list/{name}/{view}`: list functions.
    case list = "_list"
    /// `/{db}/_design/{ddoc}/_update/{name}`: update handlers.
    case update = "_update"
    /// `/{db}/_design/{ddoc}/_rewrite/…`: rewrites.
    case rewrite = "_rewrite"
    /// `/{db}/_changes?filter={ddoc}/{name}` (or `filter=_view`): filter functions.
    case filter = "filter"

    /// The function a path under a design document names (`_view/by-name`, …), if any.
    init?(designPath: String) {
        guard let first = designPath.split(separator: "/", maxSplits: 1).first,
              let function = DesignFunction(rawValue: String(first)), function != .filter else { return nil }
        self = function
    }

    /// CouchDB's reply to a request for this function at `designPath` (`_view/by-name`, …)
    /// of a design document whose body is `designDocument` (`nil` when there is none): 404
    /// `missing` without the design document, 404 `missing_named_view` for a view it does
    /// not define, both found without running anything; otherwise the 501 ``error``.
    func error(designDocument: JSONObject?, designPath: String) -> CouchError {
        guard let designDocument else { return .missing }
        if self == .view {
            let parts = designPath.split(separator: "/", omittingEmptySubsequences: false)
            let name = parts.count > 1 ? String(parts[1]) : ""
            if designDocument["views"]?.objectValue?[name] == nil {
                return CouchError(status: 404, error: "not_found", reason: "missing_named_view")
            }
        }
        return error
    }

    /// The 501 reply.
    var error: CouchError {
        let what: String
        switch self {
        case .view: what = "JavaScript views (_view)"
        case .show: what = "Show functions (_show)"
        case .list: what = "List functions (_list)"
        case .update: what = "Update handlers (_update)"
        case .rewrite: what = "Rewrites (_rewrite)"
        case .filter: what = "Filter functions in design documents (_changes?filter=ddoc/name)"
        }
        let instead = self == .filter
            ? "use filter=_selector with a Mango selector, or filter=_doc_ids"
            : "query with POST /{db}/_find and a JSON index (POST /{db}/_index)"
        return CouchError(status: 501, error: "not_implemented",
                          reason: "\(what) are not supported by this server, which runs no design document code; \(instead).")
    }
}
