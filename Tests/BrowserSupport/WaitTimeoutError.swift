/// `Browser.waitUntil` gave up: the condition named `what` did not hold before the
/// deadline. It carries the last error the condition threw, if any, because that is
/// usually the real reason (a missing element, say).
public struct WaitTimeoutError: Error, Sendable, CustomStringConvertible {
    /// What was being waited for, as the test described it.
    public let what: String
    /// How long the wait lasted.
    public let timeout: Duration
    /// How the condition last failed, when it threw rather than returned false.
    public let lastError: String?

    /// Creates the error; `Browser.waitUntil` makes these.
    public init(what: String, timeout: Duration, lastError: String?) {
        self.what = what
        self.timeout = timeout
        self.lastError = lastError
    }

    /// `"timed out after 5.0 seconds waiting for <what>"`, plus the last error.
    public var description: String {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        var text = "timed out after \(seconds) seconds waiting for \(what)"
        if let lastError { text += " (last error: \(lastError))" }
        return text
    }
}
