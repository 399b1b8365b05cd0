internal import Foundation

/// An element on the page, as WebDriver refers to it. It stays valid until the page it
/// came from is replaced (navigation, or the app re-rendering that node); after that its
/// commands fail with `stale element reference`, so look it up again with `find`.
public struct Element: Sendable {
    let session: WebDriverSession
    /// The WebDriver element id.
    public let id: String
    /// The CSS selector it was found with, used in error messages.
    public let selector: String

    init(session: WebDriverSession, id: String, selector: String) {
        self.session = session
        self.id = id
        self.selector = selector
    }

    private var path: String { "/element/\(id)" }
    private var label: String { " on \(quoted(selector))" }

    /// Clicks the element's centre as a user would; fails when something covers it or it
    /// is not displayed (`element click intercepted`, `element not interactable`).
    public func click() async throws {
        _ = try await session.send("POST", "\(path)/click", command: "click()\(label)")
    }

    /// Types `text` into the element, after what it already holds. For an
    /// `<input type=file>`, `text` is an absolute file path (several separated by "\n"),
    /// which selects that file just as the file picker would.
    public func sendKeys(_ text: String) async throws {
        _ = try await session.send(
            "POST", "\(path)/value", ["text": .string(text)], command: "sendKeys(\(quoted(text)))\(label)")
    }

    /// Empties an input or textarea (and fires `change`).
    public func clear() async throws {
        _ = try await session.send("POST", "\(path)/clear", command: "clear()\(label)")
    }

    /// The rendered text, as the user sees it (hidden parts excluded).
    public func text() async throws -> String {
        try await session.send("GET", "\(path)/text", command: "text()\(label)").stringValue ?? ""
    }

    /// The element's attribute `name` (what the HTML says, or the matching property for
    /// a few like `value`), or nil when it has none.
    public func attribute(_ name: String) async throws -> String? {
        let value = try await session.send(
            "GET", "\(path)/attribute/\(escapedPathComponent(name))", command: "attribute(\(quoted(name)))\(label)")
        return value.stringValue
    }

    /// The element's DOM property `name`, such as `value`, `checked` or `files`.
    public func property(_ name: String) async throws -> ScriptValue {
        try await session.send(
            "GET", "\(path)/property/\(escapedPathComponent(name))", command: "property(\(quoted(name)))\(label)")
    }

    /// Whether the element is displayed (not `display:none`, not hidden by an ancestor).
    public func isDisplayed() async throws -> Bool {
        try await session.send("GET", "\(path)/displayed", command: "isDisplayed()\(label)").boolValue ?? false
    }

    /// The first descendant matching `css`; throws an error naming the selector when none does.
    public func find(_ css: String) async throws -> Element {
        try await session.findElement(css, under: path, describedAs: " inside \(quoted(selector))")
    }

    /// Every descendant matching `css`, in document order; empty when none does.
    public func findAll(_ css: String) async throws -> [Element] {
        try await session.findElements(css, under: path, describedAs: " inside \(quoted(selector))")
    }

    /// The W3C JSON reference to this element, as a script argument or result holds it.
    var reference: ScriptValue {
        .object([WebDriverSession.elementKey: .string(id)])
    }
}

/// `text` made safe as one URL path segment.
private func escapedPathComponent(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
}
