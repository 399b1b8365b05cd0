/// Recursive-descent parser for the NSPredicate format language.
///
/// Grammar (keywords are case-insensitive):
/// ```
/// predicate  := and ( (OR | "||") and )*
/// and        := not ( (AND | "&&") not )*
/// not        := (NOT | "!") not | primary
/// primary    := "(" predicate ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
/// comparison := [ANY | SOME | ALL | NONE] expr operator ["[" c|d|cd "]"] expr
/// expr       := keypath | SELF | string | number | YES | NO | TRUE | FALSE | nil | NULL
///             | %@ | %K | %d | %f | "{" expr ("," expr)* "}"
/// ```
struct PredicateParser {
    /// Deeper nesting of parentheses, `NOT`s and `{…}` collections is refused with a
    /// ``PredicateParseError`` rather than risking the stack on a hostile format string.
    static let maximumDepth = 128

    private var tokens: [PredicateToken] = []
    private var index = 0
    private let format: String
    private let arguments: [any PredicateArgument]
    private var argumentIndex = 0
    private var depth = 0

    init(format: String, arguments: [any PredicateArgument]) {
        self.format = format
        self.arguments = arguments
    }

    mutating func parse() throws -> ObjectPredicate {
        var lexer = PredicateLexer(format)
        tokens = try lexer.tokenize()
        let result = try parseOr()
        guard case .end = current.kind else { throw error("AND, OR or the end of the predicate") }
        if argumentIndex < arguments.count {
            throw PredicateParseError(position: format.count, expected: "\(argumentIndex) argument(s) for the format specifiers", found: "\(arguments.count) arguments")
        }
        return result
    }

    private var current: PredicateToken { tokens[index] }

    private func error(_ expected: String) -> PredicateParseError {
        PredicateParseError(position: current.position, expected: expected, found: current.display)
    }

    /// Counts one level of nesting, refusing more than ``maximumDepth``; pair it with `leave()`.
    private mutating func enter() throws {
        guard depth < Self.maximumDepth else {
            throw error("at most \(Self.maximumDepth) levels of nested parentheses, NOTs and collections")
        }
        depth += 1
    }

    private mutating func leave() { depth -= 1 }

    private func isKeyword(_ word: String) -> Bool {
        if case .word(let w) = current.kind { return w.uppercased() == word }
        return false
    }

    private func isSymbol(_ s: String) -> Bool {
        if case .symbol(let t) = current.kind { return t == s }
        return false
    }

    private mutating func parseOr() throws -> ObjectPredicate {
        var items = [try parseAnd()]
        while isKeyword("OR") || isSymbol("||") {
            index += 1
            items.append(try parseAnd())
        }
        return items.count == 1 ? items[0] : .or(items)
    }

    private mutating func parseAnd() throws -> ObjectPredicate {
        var items = [try parseNot()]
        while isKeyword("AND") || isSymbol("&&") {
            index += 1
            items.append(try parseNot())
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    private mutating func parseNot() throws -> ObjectPredicate {
        if isKeyword("NOT") || isSymbol("!") {
            try enter()
            defer { leave() }
            index += 1
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> ObjectPredicate {
        if isSymbol("(") {
            try enter()
            defer { leave() }
            index += 1
            let inner = try parseOr()
            guard isSymbol(")") else { throw error("')'") }
            index += 1
            return inner
        }
        if isKeyword("TRUEPREDICATE") { index += 1; return .truePredicate }
        if isKeyword("FALSEPREDICATE") { index += 1; return .falsePredicate }
        return .comparison(try parseComparison())
    }

    private mutating func parseComparison() throws -> PredicateComparison {
        var modifier = ComparisonModifier.direct
        if isKeyword("ANY") || isKeyword("SOME") { modifier = .any; index += 1 }
        else if isKeyword("ALL") { modifier = .all; index += 1 }
        else if isKeyword("NONE") { modifier = .none; index += 1 }
        let left = try parseExpression()
        if modifier != .direct, case .keyPath = left {} else if modifier != .direct {
            throw PredicateParseError(position: tokens[index - 1].position, expected: "a key path after \(modifier.rawValue)", found: tokens[index - 1].display)
        }
        let op = try parseOperator()
        var options: ComparisonOptions = []
        if isSymbol("[") {
            index += 1
            guard case .word(let w) = current.kind, !w.isEmpty, w.lowercased().allSatisfy({ "cdn".contains($0) }) else {
                throw error("comparison options c, d or cd")
            }
            for ch in w.lowercased() {
                if ch == "c" { options.insert(.caseInsensitive) }
                if ch == "d" { options.insert(.diacriticInsensitive) }
            }
            index += 1
            guard isSymbol("]") else { throw error("']'") }
            index += 1
        }
        let right = try parseExpression()
        if op == .between {
            guard case .aggregate(let items) = right, items.count == 2 else {
                throw PredicateParseError(position: tokens[index - 1].position, expected: "a two-element collection {low, high} after BETWEEN", found: tokens[index - 1].display)
            }
        }
        return PredicateComparison(left, op, right, modifier: modifier, options: options)
    }

    private mutating func parseOperator() throws -> PredicateOperator {
        let expected = "a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN, BETWEEN)"
        switch current.kind {
        case .symbol(let s):
            let op: PredicateOperator?
            switch s {
            case "==", "=": op = .equal
            case "!=", "<>": op = .notEqual
            case "<": op = .lessThan
            case "<=", "=<": op = .lessThanOrEqual
            case ">": op = .greaterThan
            case ">=", "=>": op = .greaterThanOrEqual
            default: op = nil
            }
            guard let o = op else { throw error(expected) }
            index += 1
            return o
        case .word(let w):
            let op: PredicateOperator?
            switch w.uppercased() {
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "CONTAINS": op = .contains
            case "LIKE": op = .like
            case "MATCHES": op = .matches
            case "IN": op = .in
            case "BETWEEN": op = .between
            default: op = nil
            }
            guard let o = op else { throw error(expected) }
            index += 1
            return o
        default:
            throw error(expected)
        }
    }

    private mutating func nextArgument(_ token: PredicateToken) throws -> any PredicateArgument {
        guard argumentIndex < arguments.count else {
            throw PredicateParseError(position: token.position, expected: "an argument for \(token.display)", found: "only \(arguments.count) argument(s)")
        }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }

    private mutating func parseExpression() throws -> PredicateExpression {
        let token = current
        switch token.kind {
        case .string(let s):
            index += 1
            return .constant(.string(s))
        case .number(let n):
            index += 1
            return .constant(n)
        case .format(let spec):
            index += 1
            let arg = try nextArgument(token)
            let expr = arg.predicateExpression
            switch spec.last! {
            case "K":
                guard case .constant(.string(let key)) = expr, !key.isEmpty else {
                    throw PredicateParseError(position: token.position, expected: "a key path string for %K", found: "\(expr)")
                }
                return .keyPath(key + (try parseKeyPathTail()))
            case "d", "i", "u", "D", "x":
                // Exact conversion: a fraction, NaN, an infinity or a value past Int64 is refused.
                guard case .constant(let v) = expr, let n = Self.exactInteger(v) else {
                    throw PredicateParseError(position: token.position, expected: "a 64-bit integer for \(spec)", found: "\(expr)")
                }
                return .constant(.int(n))
            case "f":
                guard case .constant(let v) = expr, let n = v.numericValue else {
                    throw PredicateParseError(position: token.position, expected: "a number for \(spec)", found: "\(expr)")
                }
                return .constant(.double(n))
            default:
                return expr
            }
        case .symbol("{"):
            try enter()
            defer { leave() }
            index += 1
            var items: [PredicateExpression] = []
            if isSymbol("}") { index += 1; return .aggregate(items) }
            while true {
                items.append(try parseExpression())
                if isSymbol(",") { index += 1; continue }
                guard isSymbol("}") else { throw error("',' or '}'") }
                index += 1
                return .aggregate(items)
            }
        case .variable(let v):
            throw PredicateParseError(position: token.position, expected: "a key path or value (variables like $\(v) are not supported; use %@)", found: token.display)
        case .escapedWord(let w):
            index += 1
            return .keyPath(w + (try parseKeyPathTail()))
        case .word(let w):
            switch w.uppercased() {
            case "YES", "TRUE": index += 1; return .constant(.bool(true))
            case "NO", "FALSE": index += 1; return .constant(.bool(false))
            case "NIL", "NULL": index += 1; return .constant(.null)
            case "SELF": index += 1; return .evaluatedObject
            default:
                if PredicateExpression.reservedWords.contains(w.uppercased()) {
                    throw error("a key path or value")
                }
                index += 1
                return .keyPath(w + (try parseKeyPathTail()))
            }
        default:
            throw error("a key path or value")
        }
    }

    /// The value of a `%d` argument as an exact 64-bit integer: integers as they are, other
    /// numbers only when they have no fraction and fit (`Int64(exactly:)`), else `nil`.
    private static func exactInteger(_ value: AttributeValue) -> Int64? {
        if let integer = value.int64Value { return integer }
        return value.numericValue.flatMap { Int64(exactly: $0) }
    }

    /// Reads `.component` repetitions after the first key path component.
    private mutating func parseKeyPathTail() throws -> String {
        var tail = ""
        while isSymbol(".") {
            index += 1
            switch current.kind {
            case .word(let w) where !PredicateExpression.reservedWords.contains(w.uppercased()) || w.hasPrefix("@"):
                tail += "." + w
            case .escapedWord(let w):
                tail += "." + w
            default:
                throw error("a key name after '.'")
            }
            index += 1
        }
        return tail
    }
}

/// A format string that could not be parsed: where, what was expected and what was found.
public struct PredicateParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0-based character offset in the format string.
    public let position: Int
    /// What the parser expected at that position.
    public let expected: String
    /// What it found instead (`end of input` at the end).
    public let found: String

    /// `at position N: expected X, found Y`.
    public var description: String { "predicate format error at position \(position): expected \(expected), found \(found)" }
}
