import Foundation

/// A token of the predicate format language with its character offset.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A bare word: a key path component or a keyword (decided by the parser).
        case word(String)
        /// A `#`-escaped word: always a key path component.
        case escapedWord(String)
        case string(String)
        case number(AttributeValue)
        /// Punctuation and symbolic operators: `( ) { } , . [ ] == != < <= …`.
        case symbol(String)
        /// A format specifier such as `%@`, `%K`, `%d`, `%f`.
        case format(String)
        /// `$name`.
        case variable(String)
        case end
    }
    let kind: Kind
    let position: Int

    /// How the token reads in an error message.
    var display: String {
        switch kind {
        case .word(let w): return "'\(w)'"
        case .escapedWord(let w): return "'#\(w)'"
        case .string(let s): return "string \"\(s)\""
        case .number(let n): return "number \(n)"
        case .symbol(let s): return "'\(s)'"
        case .format(let f): return "'\(f)'"
        case .variable(let v): return "'$\(v)'"
        case .end: return "end of input"
        }
    }
}

/// Splits a format string into tokens.
struct PredicateLexer {
    private let chars: [Character]
    private var index = 0

    init(_ text: String) { chars = Array(text) }

    private func error(_ position: Int, _ expected: String, _ found: String) -> PredicateParseError {
        PredicateParseError(position: position, expected: expected, found: found)
    }

    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    private static func isWordStart(_ c: Character) -> Bool { c.isLetter || c == "_" || c == "@" }
    private static func isWordChar(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "@" }

    mutating func tokenize() throws -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            while let c = peek(), c.isWhitespace { index += 1 }
            let start = index
            guard let c = peek() else {
                tokens.append(PredicateToken(kind: .end, position: start))
                return tokens
            }
            if Self.isWordStart(c) {
                var word = ""
                while let d = peek(), Self.isWordChar(d) { word.append(d); index += 1 }
                tokens.append(PredicateToken(kind: .word(word), position: start))
            } else if c == "#" {
                index += 1
                var word = ""
                while let d = peek(), Self.isWordChar(d) { word.append(d); index += 1 }
                guard !word.isEmpty else { throw error(index, "a key name after '#'", peek().map { "'\($0)'" } ?? "end of input") }
                tokens.append(PredicateToken(kind: .escapedWord(word), position: start))
            } else if c == "$" {
                index += 1
                var word = ""
                while let d = peek(), Self.isWordChar(d) { word.append(d); index += 1 }
                tokens.append(PredicateToken(kind: .variable(word), position: start))
            } else if c == "\"" || c == "'" {
                tokens.append(PredicateToken(kind: .string(try readString(quote: c)), position: start))
            } else if c.isNumber || (c == "-" && (peek(1)?.isNumber ?? false) && Self.signAllowed(after: tokens.last)) {
                tokens.append(PredicateToken(kind: .number(try readNumber()), position: start))
            } else if c == "%" {
                index += 1
                var spec = "%"
                while let d = peek(), d == "l" || d == "h" || d == "q" { spec.append(d); index += 1 }
                guard let d = peek(), "@KdifuDsx".contains(d) else {
                    throw error(index, "a format specifier (%@, %K, %d, %f)", peek().map { "'\($0)'" } ?? "end of input")
                }
                spec.append(d); index += 1
                tokens.append(PredicateToken(kind: .format(spec), position: start))
            } else {
                let two = peek(1).map { String(c) + String($0) } ?? String(c)
                if ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"].contains(two) {
                    index += 2
                    tokens.append(PredicateToken(kind: .symbol(two), position: start))
                } else if "()[]{},.<>=!".contains(c) {
                    index += 1
                    tokens.append(PredicateToken(kind: .symbol(String(c)), position: start))
                } else {
                    throw error(start, "a key path, value or operator", "'\(c)'")
                }
            }
        }
    }

    /// A leading `-` starts a number only where a value may start (not after a value).
    private static func signAllowed(after token: PredicateToken?) -> Bool {
        guard let t = token else { return true }
        switch t.kind {
        case .symbol(let s): return s != ")" && s != "]" && s != "}"
        case .word(let w): return PredicateExpression.reservedWords.contains(w.uppercased())
        default: return false
        }
    }

    private mutating func readString(quote: Character) throws -> String {
        let start = index
        index += 1
        var out = ""
        while true {
            guard let c = peek() else { throw error(start, "a closing \(quote) for the string", "end of input") }
            index += 1
            if c == quote { return out }
            if c == "\\" {
                guard let e = peek() else { throw error(index, "an escaped character", "end of input") }
                index += 1
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "0": out.append("\0")
                case "\\", "\"", "'": out.append(e)
                case "u":
                    var hex = ""
                    for _ in 0..<4 { if let h = peek(), h.isHexDigit { hex.append(h); index += 1 } }
                    guard hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                        throw error(index, "four hex digits after \\u", "'\(hex)'")
                    }
                    out.append(Character(scalar))
                default:
                    throw error(index - 2, "a valid escape (\\n \\t \\r \\0 \\\\ \\\" \\' \\uXXXX)", "'\\\(e)'")
                }
            } else {
                out.append(c)
            }
        }
    }

    private mutating func readNumber() throws -> AttributeValue {
        let start = index
        var text = ""
        if peek() == "-" { text.append("-"); index += 1 }
        if peek() == "0", let x = peek(1), x == "x" || x == "X" {
            index += 2
            var hex = ""
            while let d = peek(), d.isHexDigit { hex.append(d); index += 1 }
            guard let v = Int64(hex, radix: 16) else { throw error(index, "hex digits", "'\(hex)'") }
            return .int(text == "-" ? -v : v)
        }
        var isFloat = false
        while let d = peek(), d.isNumber { text.append(d); index += 1 }
        if peek() == ".", let d = peek(1), d.isNumber {
            isFloat = true
            text.append("."); index += 1
            while let d = peek(), d.isNumber { text.append(d); index += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            let save = index
            var exp = "e"; index += 1
            if let s = peek(), s == "+" || s == "-" { exp.append(s); index += 1 }
            if let d = peek(), d.isNumber {
                while let d = peek(), d.isNumber { exp.append(d); index += 1 }
                text += exp; isFloat = true
            } else { index = save }
        }
        if let d = peek(), Self.isWordStart(d) {
            throw error(index, "an operator or the end of the number", "'\(d)'")
        }
        if !isFloat, let i = Int64(text) { return .int(i) }
        // A literal past Double's range would become an infinity that renders as a key path.
        guard let v = Double(text), v.isFinite else { throw error(start, "a number within the range of a double", "'\(text)'") }
        return .double(v)
    }
}
