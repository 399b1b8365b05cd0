/// Rules for the Swift names the generator derives from model names: which names are
/// identifiers at all, which keywords need backticks, and how accessor names are formed.
enum SwiftIdentifier {
    /// Keywords that are usable as a property name only in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol",
    ]

    /// Names that cannot be a member even in backticks (they mean something else after a dot).
    static let unusableMemberNames: Set<String> = ["self", "Self", "init", "deinit", "subscript", "Type", "Protocol", "_"]

    /// Whether `name` is an identifier: a letter or `_`, then letters, digits and `_`.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// `name`, in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `prefix` followed by `name` with its first letter upper-cased (`set` + `name` → `setName`).
    static func prefixed(_ prefix: String, _ name: String) -> String {
        prefix + name.prefix(1).uppercased() + name.dropFirst()
    }
}
