/// Who a request is, as its headers say: the user that basic auth or the session cookie
/// proved, how, and a renewed cookie to send back.
struct RequestIdentity: Sendable {
    /// The logged-in user, when the request carried valid credentials.
    var user: String?
    /// How the user was authenticated: `"cookie"`, `"default"` (basic) or `nil`.
    var authenticatedBy: String?
    /// A fresh session cookie to send back, when the one presented is past half its lifetime.
    var renewedCookie: String?
}
