/// Swift literals for values a generated file carries: any text becomes a string literal
/// that the compiler reads back as the same text.
enum SwiftLiteral {
    /// `text` as a string literal: quotes, backslashes and every control character escaped,
    /// so no value can end the literal, interpolate or break the line.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `dictionary` as a `[String: String]` literal, keys sorted so the output is stable.
    static func dictionary(_ dictionary: [String: String]) -> String {
        guard !dictionary.isEmpty else { return "[:]" }
        return "[" + dictionary.keys.sorted().map { "\(string($0)): \(string(dictionary[$0]!))" }.joined(separator: ", ") + "]"
    }
}
