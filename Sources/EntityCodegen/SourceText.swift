import Foundation

/// Generated Swift source being written line by line.
struct SourceText {
    /// The text so far.
    private(set) var text = ""

    /// Appends one line (an empty line when `content` is empty).
    mutating func line(_ content: String = "") {
        text += content + "\n"
    }

    /// Appends `text`, which is whole lines (each ending in a newline) written elsewhere.
    mutating func append(_ text: String) {
        self.text += text
    }

    /// Lines of generated source stay within this many columns where words allow.
    static let width = 100

    /// Appends a `///` doc comment: the model's description (when it has one), a blank
    /// comment line, then the facts the generator adds, each wrapped at ``width``.
    mutating func doc(_ description: String?, _ facts: String, indent: Int) {
        let pad = String(repeating: " ", count: indent)
        if let description, !description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            for part in description.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { line("\(pad)///") } else { wrapped(trimmed, prefix: "\(pad)/// ") }
            }
            line("\(pad)///")
        }
        wrapped(facts, prefix: "\(pad)/// ")
    }

    /// Appends `text` as lines starting with `prefix`, breaking between words at ``width``.
    private mutating func wrapped(_ text: String, prefix: String) {
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && prefix.count + current.count + 1 + word.count > Self.width {
                line(prefix + current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        line(prefix + current)
    }
}
