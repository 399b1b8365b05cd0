import Foundation

/// Reads `application/x-www-form-urlencoded` text (a query string, a posted form) into its
/// `name=value` pairs, in order and with repeated names kept.
///
/// Hummingbird's `URLEncodedFormDecoder` decodes into a `Decodable` type and refuses a
/// repeated name and a malformed escape; it serves a fixed login form. A web form whose
/// rows repeat the same names, and a query read with CouchDB's lenient rules, need the
/// pairs themselves, so they read them here.
public enum URLEncodedForm {
    /// The pairs of `text`: `&`-separated `name=value` pieces (empty pieces skipped, a piece
    /// without `=` read as a name with an empty value), with `+` read as a space and then
    /// `%XX` escapes decoded, in names and values alike. A name or value whose escapes are
    /// malformed is kept undecoded (apart from `+`), as CouchDB keeps it.
    public static func pairs(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// `text` with `+` read as a space and `%XX` escapes decoded; undecoded (but for `+`)
    /// when an escape is malformed.
    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
