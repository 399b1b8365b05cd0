import Crypto
import Foundation
import Synchronization

/// The browsers the web app knows: each gets a session ID in an `HttpOnly`,
/// `SameSite=Strict` cookie, which binds its forms' CSRF tokens and, when the server is
/// bound beyond loopback, records that it logged in. An ID is random bytes with the
/// server's keyed digest of them, so a session costs the server nothing until it logs in
/// (a client that never keeps cookies cannot fill its memory); the logged-in ones are kept
/// in memory, so a restart logs everyone out, which a household server can afford.
final class WebSessions: Sendable {
    /// The cookie's name.
    static let cookieName = "recipes_session"
    /// Logged-in sessions kept at most; the least recently seen go first.
    static let capacity = 10_000

    private let key = SymmetricKey(size: .bits256)
    private let state = Mutex<State>(State())

    private struct State {
        /// Logged-in session IDs, with when each was last seen.
        var loggedIn: [String: UInt64] = [:]
        var clock: UInt64 = 0
        var failures = 0
    }

    /// Makes an empty set.
    init() {}

    /// A new random ID (also the form's one-time submission ID).
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    /// Whether `id` is a session ID this server made.
    func isKnown(_ id: String) -> Bool {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let nonce = Base64URL.decode(String(parts[0])), let mac = Base64URL.decode(String(parts[1])),
              nonce.count == 16 else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data("session:".utf8) + nonce, using: key)
    }

    /// Whether `id` has logged in (and marks it seen).
    func isLoggedIn(_ id: String) -> Bool {
        state.withLock { state in
            guard state.loggedIn[id] != nil else { return false }
            state.clock += 1
            state.loggedIn[id] = state.clock
            return true
        }
    }

    /// Starts a session (logged in or not) and returns its ID.
    func start(loggedIn: Bool = false) -> String {
        var generator = SystemRandomNumberGenerator()
        let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data("session:".utf8) + nonce, using: key))
        let id = Base64URL.encode(nonce) + "." + Base64URL.encode(mac)
        guard loggedIn else { return id }
        state.withLock { state in
            state.clock += 1
            state.loggedIn[id] = state.clock
            if state.loggedIn.count > Self.capacity {
                // Drop the least recently seen tenth at once, so a full table costs one sort
                // now and then rather than a scan on every login.
                let oldest = state.loggedIn.sorted { $0.value < $1.value }.prefix(Self.capacity / 10)
                for (stale, _) in oldest { state.loggedIn[stale] = nil }
            }
        }
        return id
    }

    /// Forgets `id`'s login (logging out).
    func end(_ id: String) {
        state.withLock { _ = $0.loggedIn.removeValue(forKey: id) }
    }

    /// The CSRF token of session `id`: a keyed digest of it, so a page of another site,
    /// which cannot read our pages, cannot know it.
    func csrfToken(for id: String) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(("csrf:" + id).utf8), using: key)))
    }

    /// Whether `token` is session `id`'s CSRF token (compared in constant time).
    func checkCSRF(_ token: String?, session id: String) -> Bool {
        guard let token, let given = Base64URL.decode(token) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Data(("csrf:" + id).utf8), using: key)
    }

    /// How long to hold a login answer after `failures` wrong passwords in a row: nothing
    /// for the first, then 0.5 s doubling up to 8 s, so guessing is slow and a person who
    /// mistyped barely waits.
    static func loginDelay(afterFailures failures: Int) -> Duration {
        guard failures > 1 else { return .zero }
        return .milliseconds(min(8_000, 250 << min(failures - 1, 6)))
    }

    /// Counts a wrong password and returns the delay before answering it.
    func recordFailure() -> Duration {
        let failures = state.withLock { state -> Int in
            state.failures += 1
            return state.failures
        }
        return Self.loginDelay(afterFailures: failures)
    }

    /// Clears the count of wrong passwords after a right one.
    func recordSuccess() {
        state.withLock { $0.failures = 0 }
    }

    /// Whether `given` is `expected`, compared in time that does not depend on where they
    /// differ (both are hashed first, so their lengths do not show either).
    static func passwordMatches(_ given: String, _ expected: String) -> Bool {
        let a = Data(SHA256.hash(data: Data(given.utf8)))
        let b = Data(SHA256.hash(data: Data(expected.utf8)))
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Base64 with the URL- and cookie-safe alphabet and no padding.
enum Base64URL {
    /// `data` in base64url.
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url `text`, or `nil` when it is not that.
    static func decode(_ text: String) -> Data? {
        guard text.utf8.count <= 256 else { return nil }
        var base = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base += String(repeating: "=", count: (4 - base.utf8.count % 4) % 4)
        return Data(base64Encoded: base)
    }
}
