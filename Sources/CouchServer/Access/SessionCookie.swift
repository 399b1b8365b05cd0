import Crypto
import Foundation
import HTTPTypes
import DocumentFormat

/// CouchDB-style `AuthSession` cookies: `base64url(user:issuedHex:hmac)`, signed with a secret
/// made when the server starts, valid for a fixed lifetime.
struct SessionCookie: Sendable {
    /// Cookie lifetime in seconds (CouchDB's default is 600).
    let lifetime: Int
    /// The wall clock cookies are dated by (``CouchServerConfiguration/sessionClock``).
    let clock: @Sendable () -> Date
    private let key: SymmetricKey

    init(lifetime: Int = 600, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.lifetime = lifetime
        self.clock = clock
        self.key = SymmetricKey(size: .bits256)
    }

    /// A fresh cookie value for `user`, issued now.
    func issue(user: String) -> String {
        issue(user: user, now: clock())
    }

    /// A fresh cookie value for `user`, issued at `now`.
    func issue(user: String, now: Date) -> String {
        let issued = String(Int(now.timeIntervalSince1970), radix: 16, uppercase: true)
        let payload = "\(user):\(issued)"
        let signature = signatureHex(payload)
        return Self.base64URL(Data("\(payload):\(signature)".utf8))
    }

    /// The user and issue time of a valid cookie value unexpired now; `nil` otherwise.
    func verify(_ value: String) -> (user: String, issued: Date)? {
        verify(value, now: clock())
    }

    /// Whether a cookie issued at `issued` is past half its lifetime now, and so is renewed
    /// (as CouchDB does, so long replications keep going).
    func isDueForRenewal(issued: Date) -> Bool {
        clock().timeIntervalSince(issued) > Double(lifetime) / 2
    }

    /// The user and issue time of a valid, unexpired cookie value; `nil` otherwise.
    func verify(_ value: String, now: Date) -> (user: String, issued: Date)? {
        guard let data = Self.decodeBase64URL(value), let text = String(data: data, encoding: .utf8) else { return nil }
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count >= 3 else { return nil }
        let signature = String(pieces[pieces.count - 1])
        let issuedHex = String(pieces[pieces.count - 2])
        let user = pieces[0..<(pieces.count - 2)].joined(separator: ":")
        guard let issuedSeconds = Int(issuedHex, radix: 16) else { return nil }
        let expected = signatureHex("\(user):\(issuedHex)")
        guard expected.utf8.count == signature.utf8.count,
              zip(expected.utf8, signature.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
        else { return nil }
        let issued = Date(timeIntervalSince1970: TimeInterval(issuedSeconds))
        let age = now.timeIntervalSince(issued)
        guard age >= -60, age < TimeInterval(lifetime) else { return nil }
        return (user, issued)
    }

    /// The `Set-Cookie` header value carrying `value` (empty `value` clears the cookie).
    ///
    /// The cookie is `HttpOnly` (scripts cannot read it) and `SameSite=Lax` (browsers do not
    /// send it with another site's POST), and `Secure` when `secure` is set: when the server
    /// serves HTTPS itself, or for requests a TLS proxy forwarded to a plain-HTTP server.
    func header(_ value: String, secure: Bool = false) -> String {
        let expires = Date(timeInterval: TimeInterval(lifetime), since: clock())
        return "AuthSession=\(value); Version=1; Expires=\(Self.cookieDate(expires)); Max-Age=\(lifetime); Path=/; HttpOnly; SameSite=Lax"
            + (secure ? "; Secure" : "")
    }

    /// Whether a request reached the server through a TLS-terminating proxy, as the proxy
    /// says with `X-Forwarded-Proto: https` (or `Forwarded: proto=https`).
    static func forwardedOverTLS(_ headers: HTTPFields) -> Bool {
        if let proto = headers[HTTPField.Name("X-Forwarded-Proto")!], proto.split(separator: ",").first?
            .trimmingCharacters(in: .whitespaces).lowercased() == "https" {
            return true
        }
        return headers[values: HTTPField.Name("Forwarded")!].contains { $0.lowercased().contains("proto=https") }
    }

    private func signatureHex(_ payload: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key)
        return Hex.lowercase(mac)
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func decodeBase64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    private static func cookieDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd-MMM-yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
