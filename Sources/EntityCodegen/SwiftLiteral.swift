/// Swift literals for values a generated file carries: any text becomes a string literal
/// that the compiler reads back as the same text.
enum SwiftLiteral {
    /// `text` as a string literal: quotes, backslashes, control characters and the scalars
    /// that join their neighbour (marks, format characters) escaped, so no value can end the
    /// literal, interpolate, break the line or merge with a quote into one character.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || joinsItsNeighbour(scalar):
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Whether `scalar` is a mark, a format character or a line or paragraph separator: written
    /// literally it could combine with the quote before it or end the line.
    private static func joinsItsNeighbour(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// `dictionary` as a `[String: String]` literal, keys sorted so the output is stable.
    static func dictionary(_ dictionary: [String: String]) -> String {
        guard !dictionary.isEmpty else { return "[:]" }
        return "[" + dictionary.keys.sorted().map { "\(string($0)): \(string(dictionary[$0]!))" }.joined(separator: ", ") + "]"
    }
}
