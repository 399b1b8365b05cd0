internal import Foundation

/// One WebDriver session: the client plus the session id, shared by a `Browser` and every
/// `Element` it hands out, so an element can issue commands on its own.
struct WebDriverSession: Sendable {
    /// The HTTP client for chromedriver.
    let client: WebDriverClient
    /// The session id chromedriver assigned.
    let id: String

    /// Sends a command under `/session/{id}`; `path` starts with `/` or is empty.
    func send(_ method: String, _ path: String, _ body: ScriptValue? = nil, command: String? = nil) async throws
        -> ScriptValue
    {
        try await client.send(method, "/session/\(id)\(path)", body, command: command)
    }

    /// The key the W3C protocol uses for element references in JSON.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// The element id in a W3C element reference, or nil when `value` is not one.
    static func elementID(in value: ScriptValue) -> String? {
        value[elementKey]?.stringValue
    }

    /// Finds the first element below `scope` (a path such as `""` or `/element/{id}`)
    /// matching `css`; a miss becomes an error that names the selector.
    func findElement(_ css: String, under scope: String, describedAs description: String) async throws -> Element {
        let command = "find(\(quoted(css)))\(description)"
        let value: ScriptValue
        do {
            value = try await send(
                "POST", "\(scope)/element", ["using": "css selector", "value": .string(css)], command: command)
        } catch let error as WebDriverError where error.code == "no such element" {
            throw WebDriverError(
                code: error.code, message: "no element matches the CSS selector \(quoted(css))\(description)",
                command: command, httpStatus: error.httpStatus)
        }
        guard let id = Self.elementID(in: value) else {
            throw WebDriverError(code: "invalid response", message: "not an element: \(value)", command: command)
        }
        return Element(session: self, id: id, selector: css)
    }

    /// Finds every element below `scope` matching `css`, in document order.
    func findElements(_ css: String, under scope: String, describedAs description: String) async throws -> [Element] {
        let command = "findAll(\(quoted(css)))\(description)"
        let value = try await send(
            "POST", "\(scope)/elements", ["using": "css selector", "value": .string(css)], command: command)
        guard let references = value.arrayValue else {
            throw WebDriverError(code: "invalid response", message: "not a list of elements: \(value)", command: command)
        }
        return try references.map { reference in
            guard let id = Self.elementID(in: reference) else {
                throw WebDriverError(code: "invalid response", message: "not an element: \(reference)", command: command)
            }
            return Element(session: self, id: id, selector: css)
        }
    }
}

/// `text` in double quotes, with quotes and backslashes escaped, for messages.
func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
