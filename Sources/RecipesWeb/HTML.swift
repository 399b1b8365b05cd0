import HTTPSupport

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

    /// A query string (`?a=1&b=2`) of the pairs whose value is not empty, or "" when none is.
    static func query(_ pairs: [(String, String?)]) -> String {
        let parts = pairs.compactMap { name, value in
            value.flatMap { $0.isEmpty ? nil : "\(name)=\(PercentEncoding.queryValue($0))" }
        }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }
}
