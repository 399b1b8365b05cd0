import CouchProtocol
import Foundation

/// Shows remotes and store paths without their passwords, and tells a server address typed
/// without its scheme from a path. The masking itself is `CouchProtocol`'s
/// `CredentialMask`, the one masker of every layer.
public enum URLMasking {
    /// The replacement shown instead of a password.
    public static let mask = CredentialMask.mask

    /// `text` with every password masked (`CredentialMask.masked`, the one masker of every
    /// layer), for callers of RecipesKit that show remotes.
    public static func masked(_ text: String) -> String {
        CredentialMask.masked(text)
    }

    /// A file path with every component that holds `user:password@…` masked, so a store
    /// made before scheme-less remotes were refused does not show its password.
    public static func maskedPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { masked(String($0)) }.joined(separator: "/")
    }

    /// Whether `text`, which has no `scheme://`, reads as a server address rather than a
    /// path: its first component holds credentials (`user:password@host…`) or ends in a port
    /// (`host:5984/db`). Paths starting with `/`, `.` or `~` never do. Such a value is
    /// refused as a remote rather than taken for a file name that would keep the password.
    public static func looksLikeURLWithoutScheme(_ text: String) -> Bool {
        guard !text.contains("://"), let first = text.first, !"/.~".contains(first) else { return false }
        let component = text.prefix { $0 != "/" }
        if component.contains("@") { return true }
        guard let colon = component.lastIndex(of: ":") else { return false }
        let port = component[component.index(after: colon)...]
        return !port.isEmpty && port.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
