import Foundation

/// Reads header values of the form `type; name=value; name="quoted value"`, such as
/// `Content-Type: multipart/related; boundary="abc"` and
/// `Content-Disposition: attachment; filename="a \"b\".txt"`.
///
/// A quoted value may hold `;`, `=` and backslash-escaped characters (`\"`, `\\`), as RFC 9110
/// quoted strings do, so attachment names written by ``MultipartWriter`` read back unchanged.
public enum HeaderParameters {
    /// The bare media type of `header` (`multipart/related` of `multipart/related; boundary=x`),
    /// trimmed and lowercased; empty when the header is empty.
    public static func mediaType(of header: String) -> String {
        let type = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The value of parameter `name` (matched without case) in `header`, unquoted and
    /// unescaped; `nil` when the header has no such parameter.
    public static func value(of name: String, in header: String) -> String? {
        let wanted = name.lowercased()
        return parameters(of: header).first { $0.name == wanted }?.value
    }

    /// Every `name=value` parameter after the media type, names lowercased, values unquoted
    /// and unescaped, in the order given. A piece without `=` is skipped.
    public static func parameters(of header: String) -> [(name: String, value: String)] {
        var characters = Array(header)[...]
        // Skip the media type.
        while let first = characters.first, first != ";" { characters = characters.dropFirst() }
        var found: [(name: String, value: String)] = []
        while characters.first == ";" {
            characters = characters.dropFirst()
            var name = ""
            while let first = characters.first, first != "=", first != ";" {
                name.append(first)
                characters = characters.dropFirst()
            }
            guard characters.first == "=" else { continue }
            characters = characters.dropFirst()
            while let first = characters.first, first == " " || first == "\t" { characters = characters.dropFirst() }
            var value = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                while let first = characters.first, first != "\"" {
                    characters = characters.dropFirst()
                    if first == "\\", let escaped = characters.first {
                        value.append(escaped)
                        characters = characters.dropFirst()
                    } else {
                        value.append(first)
                    }
                }
                characters = characters.dropFirst()   // the closing quote, if any
                while let first = characters.first, first != ";" { characters = characters.dropFirst() }
            } else {
                while let first = characters.first, first != ";" {
                    value.append(first)
                    characters = characters.dropFirst()
                }
                value = value.trimmingCharacters(in: .whitespaces)
            }
            found.append((name.trimmingCharacters(in: .whitespaces).lowercased(), value))
        }
        return found
    }

    /// `value` as a quoted string, `\` and `"` escaped: the form ``value(of:in:)`` reads back.
    public static func quoted(_ value: String) -> String {
        var text = "\""
        for character in value {
            if character == "\\" || character == "\"" { text.append("\\") }
            text.append(character)
        }
        text.append("\"")
        return text
    }
}
