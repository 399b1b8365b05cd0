import Foundation
import PropertyBased
import Testing
@testable import ObjectGraph

/// Property tests of the predicate format parser: any string, with any arguments, parses to a
/// predicate or throws `PredicateParseError` with a position inside the string; it never traps.
@Suite("Predicate parser properties")
struct PredicateParserPropertyTests {
    /// Pieces of the format language, chosen so generated strings reach every branch.
    static let fragments: [String] = [
        "name", "a.b", "#and", "SELF", "@count", "$var", " ", "(", ")", "{", "}", ",", ".", "[", "]", "[c]", "[cd]", "[x]",
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "&&", "||", "!", "AND", "OR", "NOT", "and", "not",
        "ANY", "ALL", "NONE", "SOME", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN",
        "TRUEPREDICATE", "FALSEPREDICATE", "YES", "NO", "nil", "NULL", "\"str\"", "'s'", "\"", "'", "\\", "\\u00e9", "\\u12",
        "\\q", "0", "-1", "1.5", "1e3", "1e", "1e999", "0x1F", "0x", "-0x8000000000000000", "99999999999999999999",
        "%@", "%K", "%d", "%ld", "%f", "%i", "%", "%z", "½", "٣", "é", "😀", "\u{0}", "\t", "\n",
    ]

    /// Arguments a caller might pass, including numbers `%d` cannot hold exactly.
    static let argumentPool: [any PredicateArgument & Sendable] = [
        "name", "", "a.b", "x y", 0, -1, Int.max, Int64.min, 1.5, Double.infinity, -Double.infinity, Double.nan, 1e300,
        Float.greatestFiniteMagnitude, Decimal(string: "1e100")!, true, Date(timeIntervalSinceReferenceDate: 0),
        UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, ["a", "b"], [1, 2, 3],
    ]

    /// Comparisons that parse with any arguments (they take none), so the soup reaches the
    /// parser's success path on every run, not only when chance assembles a predicate.
    static let wellFormed: (keys: [String], operators: [String], values: [String]) = (
        ["name", "a.b", "SELF"], ["==", "!=", "<", ">=", "BEGINSWITH", "CONTAINS[cd]", "LIKE"], ["\"str\"", "'s'", "\"\""])

    /// Strings of fragments and random scalars; one in eight is a well-formed comparison,
    /// perhaps with fragments after it.
    static let soup = Generator<String, Shrink.None<String>>(run: { rng in
        var text = ""
        if Int.random(in: 0..<8, using: &rng) == 0 {
            text = [wellFormed.keys, wellFormed.operators, wellFormed.values]
                .map { $0.randomElement(using: &rng)! }.joined(separator: " ")
            if Bool.random(using: &rng) { return text }
        }
        for _ in 0..<Int.random(in: 0...24, using: &rng) {
            if Int.random(in: 0..<5, using: &rng) == 0 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &rng)))
            } else {
                text += fragments.randomElement(using: &rng)!
                if Bool.random(using: &rng) { text += " " }
            }
        }
        return text
    })

    /// A valid predicate from the parser's own tests with one to three mutations.
    static let mutated = Generator<String, Shrink.None<String>>(run: { rng in
        var characters = Array(PredicateParserTests.valid.randomElement(using: &rng)!.0)
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !characters.isEmpty:
                characters.remove(at: position)
            case 1:
                characters.insert(contentsOf: fragments.randomElement(using: &rng)!, at: position)
            case 2 where !characters.isEmpty:
                let end = min(characters.count, position + Int.random(in: 1...12, using: &rng))
                characters.insert(contentsOf: characters[position..<end], at: position)
            case 3 where !characters.isEmpty:
                characters[position] = Character(Unicode.Scalar(UInt8.random(in: 32...126, using: &rng)))
            default:
                characters.removeSubrange(position...)
            }
        }
        return String(characters)
    })

    /// Zero to three arguments from the pool.
    static let arguments = Generator<[any PredicateArgument & Sendable], Shrink.None<[any PredicateArgument & Sendable]>>(run: { rng in
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in argumentPool.randomElement(using: &rng)! }
    })

    /// Parses, failing the test on anything but a predicate or a well-formed parse error.
    @discardableResult
    private func parse(_ format: String, _ arguments: [any PredicateArgument], sourceLocation: SourceLocation = #_sourceLocation) -> ObjectPredicate? {
        do {
            return try ObjectPredicate(format: format, argumentArray: arguments)
        } catch let error as PredicateParseError {
            #expect((0...format.count).contains(error.position), "position inside the format: \(error)", sourceLocation: sourceLocation)
            #expect(!error.expected.isEmpty, sourceLocation: sourceLocation)
            return nil
        } catch {
            Issue.record("untyped error \(error) for \(format)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func arbitraryStringsParseOrGiveAPositionedError() async {
        var parsed = 0
        await propertyCheck(count: 10_000, input: Self.soup, Self.arguments) { format, arguments in
            if parse(format, arguments) != nil { parsed += 1 }
        }
        #expect(parsed > 0)
    }

    @Test func mutatedValidPredicatesParseOrGiveAPositionedError() async {
        var parsed = 0
        var refused = 0
        await propertyCheck(count: 10_000, input: Self.mutated, Self.arguments) { format, arguments in
            if parse(format, arguments) != nil { parsed += 1 } else { refused += 1 }
        }
        #expect(parsed > 0 && refused > 0)
    }

    @Test func canonicalRenderingOfAParsedPredicateParsesToTheSameTree() async {
        await propertyCheck(count: 10_000, input: Self.mutated) { format in
            guard let predicate = parse(format, []) else { return }
            #expect(parse(predicate.description, []) == predicate, "\(format) renders as \(predicate.description)")
        }
    }

    @Test func renderingEscapesKeyPathsThatWouldReadAsNumbersOrKeywords() throws {
        let predicate = try ObjectPredicate(format: "#i == #1 AND #and.#2x != 0")
        #expect(predicate.description == "(i == #1 AND #and.#2x != 0)")
        #expect(try ObjectPredicate(format: predicate.description) == predicate)
    }

    @Test func numberLiteralsPastADoubleAreRefused() {
        for format in ["x == 1e999", "x == -1e999", "x == \(String(repeating: "9", count: 400))"] {
            #expect(throws: PredicateParseError.self, "\(format)") { try ObjectPredicate(format: format) }
        }
    }

    @Test(arguments: ["(", "!", "NOT ", "{", "(!", "NOT ("])
    func deepNestingIsRefusedNotOverflowingTheStack(opener: String) {
        let format = String(repeating: opener, count: 100_000) + "a == 1"
        do {
            _ = try ObjectPredicate(format: format)
            Issue.record("\(opener) ×100,000 parsed")
        } catch let error as PredicateParseError {
            #expect(error.expected.contains("at most \(PredicateParser.maximumDepth) levels"))
        } catch {
            Issue.record("untyped error \(error)")
        }
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = PredicateParser.maximumDepth
        let nested = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        #expect(try ObjectPredicate(format: nested) == ObjectPredicate(format: "a == 1"))
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: "(" + nested + ")") }
    }

    @Test(arguments: [Double.infinity, -Double.infinity, Double.nan, 1e19, -1e300, 0.5, 9.223372036854775807e18])
    func integerSpecifierRefusesNumbersWithoutAnExactInt64(value: Double) {
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: "a == %d", value) }
    }

    @Test func integerSpecifierKeepsExactIntegers() throws {
        #expect(try ObjectPredicate(format: "a == %d", Int64.max) == ObjectPredicate(format: "a == 9223372036854775807"))
        #expect(try ObjectPredicate(format: "a == %d", Int64.min) == ObjectPredicate(format: "a == -9223372036854775808"))
        #expect(try ObjectPredicate(format: "a == %d", 3.0) == ObjectPredicate(format: "a == 3"))
    }
}

/// Strings whose first or last scalar would join the quote around it into one Character.
@Suite struct PredicateStringRenderingTests {
    @Test(arguments: ["\u{08E9}", "a\u{0301}", "\u{0301}\"", "x\u{200D}", "\u{0600}", "\"\u{0308}", "line\r\nbreak", "\\\u{0301}"])
    func aStringWithJoiningScalarsRendersAndParsesBack(_ text: String) throws {
        let predicate = try ObjectPredicate(format: "name == %@", [text])
        let again = try ObjectPredicate(format: predicate.description)
        #expect(again == predicate, "\(predicate.description)")
    }
}
