import HTTPSupport

extension CouchDocument {
    /// Document ID `id` percent-encoded for a URL path, the way CouchDB writes and expects it:
    /// a design document keeps the slash after `_design` (`_design/name`); any other ID
    /// (a `_local/…` one too) is one path segment, its slashes encoded.
    public static func encodedPath(of id: String) -> String {
        let design = "_design/"
        if id.hasPrefix(design) { return design + PercentEncoding.pathSegment(String(id.dropFirst(design.count))) }
        return PercentEncoding.pathSegment(id)
    }
}
