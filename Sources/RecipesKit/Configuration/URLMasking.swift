import Foundation
/// Hides the password in a URL before it is shown anywhere (logs, errors, status output).
///
/// Works on the text rather than through `URL` so that even a string that does not parse as
/// a URL never leaks its credentials.
public enum URLMasking {
    /// The replacement shown instead of a password.
    public static let mask = "***"

    /// `text` with the password of its `scheme://user:password@host` part replaced by
    /// ``mask``; text without a password is returned unchanged.
    public static func masked(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = text[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        let authority = text[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return text }
        let userInfo = authority[authority.startIndex..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[text.startIndex...colon]) + mask + String(text[at...])
    }
}
