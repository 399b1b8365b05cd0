/// Who a request is, as its headers say: the user that basic auth or the session cookie
/// proved, how, and a renewed cookie to send back.
struct RequestIdentity: Sendable {
    /// The logged-in user, when the request carried valid credentials.
    var user: String?
    /// The user's roles: `_admin` for the server administrator, an account's `roles`.
    var roles: [String] = []
    /// How the user was authenticated: `"cookie"`, `"default"` (basic) or `nil`.
    var authenticatedBy: String?
    /// A fresh session cookie to send back, when the one presented is past half its lifetime.
    var renewedCookie: String?

    /// Whether the user is the server administrator.
    var isServerAdmin: Bool { roles.contains("_admin") }
}
