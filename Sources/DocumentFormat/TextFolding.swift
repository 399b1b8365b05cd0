import Foundation

/// The key under which strings compare "ignoring case and accents": diacritics removed,
/// then lowercased. It is the same normalization the object graph applies for `[cd]`
/// comparisons, so a folded index or a text index answers those exactly.
public enum TextFolding {
    /// `text` without diacritics, lowercased (`"Crème Brûlée"` → `"creme brulee"`).
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        if let latin = LatinFolding.fold(text) { return latin.lowercased() }
        return foundationFold(text)
    }

    /// `text` folded by Foundation, as every text outside `LatinFolding`'s range is.
    static func foundationFold(_ text: String) -> String {
        text.folding(options: .diacriticInsensitive, locale: nil).lowercased()
    }

    /// Whether `text`, folded, contains `fragment`, folded, as a run of bytes: the test a
    /// text index's trigrams answer (an empty fragment is in every text).
    public static func contains(_ text: String, _ fragment: String) -> Bool {
        let needle = Array(fold(fragment).utf8)
        guard !needle.isEmpty else { return true }
        let haystack = Array(fold(text).utf8)
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}
