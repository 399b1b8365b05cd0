/// Why a model could not be loaded: the file, the line and the element at fault.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Path of the offending file.
    public let file: String
    /// 1-based line of the offending element (0 when the file could not be read).
    public let line: Int
    /// The element, e.g. `relationship "type" of entity "Recipe"`.
    public let element: String
    /// What is wrong and how to fix it.
    public let reason: String

    /// An error at `line` of `file` (0 for the whole file) about `element`; `reason` says
    /// what is wrong and how to fix it. Tools that check a model further (the entity code
    /// generator) report their findings with it too.
    public init(file: String, line: Int, element: String, reason: String) {
        self.file = file
        self.line = line
        self.element = element
        self.reason = reason
    }

    /// `file:line: element: reason`.
    public var description: String { "\(file):\(line): \(element): \(reason)" }
}
