import Foundation

/// Hides passwords in text before it is shown anywhere (logs, errors, status output): the
/// one masker every layer uses, so a URL is masked the same way whether a server address,
/// a replication error or a command's output shows it.
///
/// It works on the text, not through `URL`, so that a string that does not parse as a URL,
/// or an error message with a URL inside it, never leaks its credentials either.
public enum CredentialMask {
    /// What is shown instead of a password.
    public static let mask = "***"

    /// `text` with the password of every `scheme://user:password@host` in it replaced by
    /// ``mask``. Text without any `://` is read as one address typed without its scheme
    /// (`user:password@host/db`) and masked the same way. The password runs to the last `@`
    /// of the address's authority (a password may contain `@`); the authority ends at `/`,
    /// `?`, `#` or whitespace. Text without a password comes back unchanged.
    public static func masked(_ text: String) -> String {
        var rest = text[...]
        guard rest.contains("://") else {
            let end = rest.firstIndex(where: endsAuthority) ?? rest.endIndex
            return maskedAuthority(rest[..<end]) + rest[end...]
        }
        var output = ""
        while let scheme = rest.range(of: "://") {
            output += rest[..<scheme.upperBound]
            let after = rest[scheme.upperBound...]
            let end = after.firstIndex(where: endsAuthority) ?? after.endIndex
            output += maskedAuthority(after[..<end])
            rest = after[end...]
        }
        return output + rest
    }

    /// A file path with every component that holds `user:password@…` masked, so a path made
    /// from an address (a store named after a scheme-less remote) does not show its password.
    public static func maskedPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { masked(String($0)) }.joined(separator: "/")
    }

    /// Whether `character` ends an address's authority (`user:password@host:port`).
    private static func endsAuthority(_ character: Character) -> Bool {
        character == "/" || character == "?" || character == "#" || character.isWhitespace
    }

    /// `authority` with its password, from the first `:` of the user part to the last `@`,
    /// replaced by ``mask``.
    private static func maskedAuthority(_ authority: Substring) -> String {
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return String(authority) }
        return String(authority[...colon]) + mask + String(authority[at...])
    }
}
