import Foundation
/// Hides the password in a URL before it is shown anywhere (logs, errors, status output).
///
/// Works on the text rather than through `URL` so that even a string that does not parse as
/// a URL never leaks its credentials.
public enum URLMasking {
    /// The replacement shown instead of a password.
    public static let mask = "***"

    /// `text` with the password of its `scheme://user:password@host` part replaced by
    /// ``mask``; a URL typed without its scheme (`user:password@host/db`) is masked the same
    /// way; text without a password is returned unchanged.
    public static func masked(_ text: String) -> String {
        let authorityStart = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        let authority = text[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return text }
        let userInfo = authority[authority.startIndex..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[text.startIndex...colon]) + mask + String(text[at...])
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
