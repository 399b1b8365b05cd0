import Foundation

/// Reads a duration in minutes out of the free text of a recipe's `prepTime` ("1 hour 30
/// minutes", "45 min", "1.5 h"), so lists can sort by it. Numbers followed by a day, hour or
/// minute unit are added up; a bare number counts as minutes.
enum PrepTimeParser {
    /// The duration in minutes, or `nil` when the text names no number.
    static func minutes(in text: String) -> Double? {
        let scanner = Scanner(string: text.lowercased())
        scanner.charactersToBeSkipped = .whitespacesAndNewlines
        var total = 0.0
        var found = false
        while !scanner.isAtEnd {
            if let number = scanner.scanDouble() {
                found = true
                let unit = scanner.scanCharacters(from: .letters) ?? ""
                if unit.hasPrefix("d") { total += number * 24 * 60 }
                else if unit.hasPrefix("h") { total += number * 60 }
                else { total += number }
            } else {
                _ = scanner.scanCharacter()
            }
        }
        return found ? total : nil
    }
}
