import Crypto
import Foundation
import Synchronization

/// The browsers the web app knows: each gets a random session ID in an `HttpOnly`,
/// `SameSite=Strict` cookie, which binds its forms' CSRF tokens and, when the server is
/// bound beyond loopback, records that it logged in. Kept in memory: a restart logs
/// everyone out, which is what a household server wants.
final class WebSessions: Sendable {
    /// The cookie's name.
    static let cookieName = "recipes_session"
    /// Sessions kept at most; the least recently seen go first.
    static let capacity = 10_000

    private let key = SymmetricKey(size: .bits256)
    private let state = Mutex<State>(State())

    private struct State {
        var sessions: [String: Record] = [:]
        var clock: UInt64 = 0
        var failures = 0
    }

    private struct Record {
        var loggedIn: Bool
        var lastSeen: UInt64
    }

    /// Makes an empty set.
    init() {}

    /// A new random session ID.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    /// Whether `id` is a session this server made (and still keeps), marking it seen.
    func isKnown(_ id: String) -> Bool {
        state.withLock { state in
            guard state.sessions[id] != nil else { return false }
            state.clock += 1
            state.sessions[id]?.lastSeen = state.clock
            return true
        }
    }

    /// Whether `id` has logged in.
    func isLoggedIn(_ id: String) -> Bool {
        state.withLock { $0.sessions[id]?.loggedIn ?? false }
    }

    /// Starts a session (logged in or not) and returns its ID.
    func start(loggedIn: Bool = false) -> String {
        let id = Self.newID()
        state.withLock { state in
            state.clock += 1
            state.sessions[id] = Record(loggedIn: loggedIn, lastSeen: state.clock)
            if state.sessions.count > Self.capacity, let oldest = state.sessions.min(by: { $0.value.lastSeen < $1.value.lastSeen }) {
                state.sessions[oldest.key] = nil
            }
        }
        return id
    }

    /// Forgets `id` (logging out).
    func end(_ id: String) {
        state.withLock { _ = $0.sessions.removeValue(forKey: id) }
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
