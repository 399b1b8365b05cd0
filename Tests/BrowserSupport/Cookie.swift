/// A cookie as the browser holds it for the current page, read through WebDriver, which
/// (unlike `document.cookie`) also shows `HttpOnly` cookies and their attributes.
public struct Cookie: Sendable, Hashable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value.
    public var value: String
    /// The path it is scoped to.
    public var path: String?
    /// The domain it is scoped to.
    public var domain: String?
    /// Whether it is sent over HTTPS only.
    public var secure: Bool
    /// Whether scripts are kept from reading it.
    public var httpOnly: Bool
    /// `"Strict"`, `"Lax"` or `"None"`, as the browser reports it.
    public var sameSite: String?
    /// Expiry in seconds since 1970, or nil for a session cookie.
    public var expiry: Int?

    /// Creates a cookie value.
    public init(name: String, value: String, path: String? = nil, domain: String? = nil, secure: Bool = false,
                httpOnly: Bool = false, sameSite: String? = nil, expiry: Int? = nil) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.expiry = expiry
    }

    /// Reads a WebDriver cookie object; nil when it lacks a name or value.
    init?(_ json: ScriptValue) {
        guard let name = json["name"]?.stringValue, let value = json["value"]?.stringValue else { return nil }
        self.init(
            name: name, value: value,
            path: json["path"]?.stringValue, domain: json["domain"]?.stringValue,
            secure: json["secure"]?.boolValue ?? false, httpOnly: json["httpOnly"]?.boolValue ?? false,
            sameSite: json["sameSite"]?.stringValue, expiry: json["expiry"]?.intValue)
    }
}
