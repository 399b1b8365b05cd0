import Foundation

/// Percent-encodes text for one place in a URL: the one encoder behind CouchDB paths (a
/// database name, a document ID, an attachment name, a `Location` header) and the web app's
/// links and query strings.
///
/// Letters and digits of ASCII stay as they are; every other byte of the UTF-8 text outside
/// the place's allowed punctuation becomes `%XX`.
public enum PercentEncoding {
    /// `text` as one path segment: RFC 3986's `pchar` punctuation (`-._~!$&'()*,;=:@`) kept,
    /// `/` encoded so the text stays one segment, and `+` encoded too, since some servers read
    /// it as a space (CouchDB's own URLs encode it).
    public static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: pathSegmentAllowed) ?? text
    }

    /// `text` as a query value (or name): only RFC 3986's unreserved `-._~` kept, so `&`, `=`,
    /// `+` and `#` in the text stay part of the one value. The strictest form, it also makes
    /// a path segment that needs no escaping inside an HTML attribute (the web app's links).
    public static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? text
    }

    private static let pathSegmentAllowed = allowed(adding: "-._~!$&'()*,;=:@")
    private static let queryValueAllowed = allowed(adding: "-._~")

    /// ASCII letters and digits, and `punctuation`.
    private static func allowed(adding punctuation: String) -> CharacterSet {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: punctuation)
        return set
    }
}
