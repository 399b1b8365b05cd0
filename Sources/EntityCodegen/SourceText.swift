import Foundation

/// Generated Swift source being written line by line.
struct SourceText {
    /// The text so far.
    private(set) var text = ""

    /// Appends one line (an empty line when `content` is empty).
    mutating func line(_ content: String = "") {
        text += content + "\n"
    }

    /// Appends a `///` doc comment: the model's description (when it has one), a blank
    /// comment line, then the facts the generator adds.
    mutating func doc(_ description: String?, _ facts: String, indent: Int) {
        let pad = String(repeating: " ", count: indent)
        if let description, !description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            for part in description.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                line(trimmed.isEmpty ? "\(pad)///" : "\(pad)/// \(trimmed)")
            }
            line("\(pad)///")
        }
        line("\(pad)/// \(facts)")
    }
}
