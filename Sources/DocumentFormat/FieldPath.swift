import Foundation
/// A dotted path into a JSON body (`"a.b.c"`; `\.` stands for a literal dot in a name).
package struct FieldPath: Hashable, Sendable {
    /// The member names, outermost first.
    package let components: [String]
    /// The text it was parsed from.
    package let text: String

    /// Parses a dotted path; `.invalidJSON` if it is empty or has an empty component.
    package init(_ text: String) throws {
        var components: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "." {
                components.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        components.append(current)
        guard !text.isEmpty, !components.contains(where: \.isEmpty) else {
            throw DocumentFormatError.invalidJSON("field path '\(text)' is empty or has an empty part")
        }
        self.components = components
        self.text = text
    }

    package init(components: [String]) {
        self.components = components
        // Each dot in a component escaped, by scalar: Foundation's `replacingOccurrences`
        // bridges through `NSString`, whose first use costs a query's start.
        var text = ""
        for (position, component) in components.enumerated() {
            if position > 0 { text.unicodeScalars.append(".") }
            for scalar in component.unicodeScalars {
                if scalar == "." { text.unicodeScalars.append("\\") }
                text.unicodeScalars.append(scalar)
            }
        }
        self.text = text
    }

    /// Whether the path is `_id`, the document ID (not a member of the body).
    package var isDocumentID: Bool { components == ["_id"] }

    /// The value at this path in `body`, or `nil` when some member on the way is missing.
    package func value(in body: JSONObject) -> JSONValue? {
        var current: JSONValue? = body[components[0]]
        for component in components.dropFirst() {
            guard case .object(let object)? = current else { return nil }
            current = object[component]
        }
        return current
    }
}
