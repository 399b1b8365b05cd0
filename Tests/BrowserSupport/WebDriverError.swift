/// A failed WebDriver command: the W3C error code and message chromedriver answered with,
/// and which command it was, so a failing test says what it was doing.
///
/// Failures that happen on this side of the wire use codes of their own:
/// `"transport failure"` (chromedriver unreachable or the 30 s request timeout passed),
/// `"invalid response"` (not WebDriver JSON), `"driver startup failure"` and
/// `"invalid argument"` (a script argument that cannot be sent as JSON).
public struct WebDriverError: Error, Sendable, CustomStringConvertible {
    /// The W3C error code, such as `"no such element"` or `"no such alert"`, or one of the
    /// local codes above.
    public let code: String
    /// The human-readable message.
    public let message: String
    /// The command that failed, such as `find("#save")` or `POST /session/…/url`.
    public let command: String
    /// The HTTP status chromedriver answered with, when it answered at all.
    public let httpStatus: Int?

    /// Creates an error; `BrowserSupport` makes these, tests only inspect them.
    public init(code: String, message: String, command: String, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.command = command
        self.httpStatus = httpStatus
    }

    /// `"<command> failed: <code>: <message>"`, with the first line of the message only
    /// (chromedriver appends a long native stack trace).
    public var description: String {
        let firstLine = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
        return "WebDriver \(command) failed: \(code): \(firstLine)"
    }
}
