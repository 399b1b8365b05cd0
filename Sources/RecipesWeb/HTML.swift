/// Text made safe for an HTML page: everything a user typed, a store synced from elsewhere
/// or a request carried goes through it, so `<script>` in a recipe's name shows as text.
enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, safe in
    /// element content and in quoted attribute values alike.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// `text` for a URL's query value (letters, digits and `-._~` kept; everything else
    /// percent-encoded), so a search for `a&b` stays one parameter.
    static func queryValue(_ text: String) -> String {
        // Most values (document IDs, sort names, page numbers) need no encoding at all.
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var result = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// Whether `byte` stands for itself in a URL (RFC 3986's unreserved characters).
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// A query string (`?a=1&b=2`) of the pairs whose value is not empty, or "" when none is.
    static func query(_ pairs: [(String, String?)]) -> String {
        let parts = pairs.compactMap { name, value in
            value.flatMap { $0.isEmpty ? nil : "\(name)=\(queryValue($0))" }
        }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }
}

extension String {
    /// The string with `0`s in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
