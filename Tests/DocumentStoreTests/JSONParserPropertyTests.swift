import Foundation
import PropertyBased
import Testing
@testable import DocumentStore
import DocumentFormat

/// Property tests of `JSONParser`: whatever bytes arrive, parsing returns a value or throws
/// `DocumentFormatError.invalidJSON`; it never traps. Values written by `JSONWriter` read back
/// equal.
@Suite struct JSONParserPropertyTests {
    /// What one parse did, failing the test on anything but a value or the typed error.
    private enum Outcome {
        case value(JSONValue)
        case refused(String)
    }

    private func outcome(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Outcome? {
        do {
            return .value(try JSONValue.parse(Data(bytes)))
        } catch let DocumentFormatError.invalidJSON(reason) {
            #expect(reason.contains("at byte"), "the reason names the offset: \(reason)", sourceLocation: sourceLocation)
            return .refused(reason)
        } catch {
            Issue.record("untyped error \(error) for \(bytes)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// A parsed value written again and parsed again is the same value (unless it held a
    /// number too large for a double, which the writer turns into `null` and reports).
    private func expectStable(_ value: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        var text: [UInt8] = []
        guard JSONWriter.canonical.append(value, to: &text) else { return }
        #expect((try? JSONValue.parse(Data(text))) == value, sourceLocation: sourceLocation)
    }

    @Test func arbitraryBytesGiveAValueOrTheTypedError() async {
        var parsed = 0
        await propertyCheck(count: 10_000, input: JSONGenerators.byteSoup) { bytes in
            if case .value(let value) = outcome(bytes) {
                parsed += 1
                expectStable(value)
            }
        }
        // The soup is built from JSON pieces, so some of it must be JSON: the check above ran.
        #expect(parsed > 0)
    }

    @Test func mutatedValidTextGivesAValueOrTheTypedError() async {
        var refused = 0
        await propertyCheck(count: 10_000, input: JSONGenerators.mutatedText) { bytes in
            switch outcome(bytes) {
            case .value(let value): expectStable(value)
            case .refused: refused += 1
            case nil: break
            }
        }
        #expect(refused > 0)
    }

    @Test func writtenValuesReadBackEqual() async {
        await propertyCheck(count: 10_000, input: JSONGenerators.value) { value in
            #expect((try? JSONValue.parse(value.jsonData())) == value)
            #expect((try? JSONValue.parse(JSONWriter.couchDB.data(value))) == value)
        }
    }

    @Test func nestingIsAcceptedUpToTheLimitAndRefusedPastIt() async {
        let limit = JSONParser.maximumDepth
        await propertyCheck(count: 2_000, input: Gen.int(in: 1...(limit * 3)), Gen.bool) { depth, useObjects in
            let open = useObjects ? Array(#"{"k":"#.utf8) : [UInt8(ascii: "[")]
            let close = useObjects ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let text = Array([[UInt8]](repeating: open, count: depth).joined()) + [UInt8(ascii: "0")]
                + [UInt8](repeating: close, count: depth)
            switch outcome(text) {
            case .value: #expect(depth <= limit)
            case .refused(let reason): #expect(depth > limit && reason.contains("nesting"))
            case nil: break
            }
        }
    }

    @Test func aHundredThousandOpeningBracketsAreRefused() {
        for opener in ["[", #"{"a":"#, #"[{"a":["#] {
            let text = Array(String(repeating: opener, count: 100_000).utf8)
            guard case .refused(let reason) = outcome(text) else {
                Issue.record("\(opener.prefix(4))… ×100,000 was accepted")
                continue
            }
            #expect(reason.contains("nesting deeper than \(JSONParser.maximumDepth)"))
        }
    }

    @Test func hugeNumbersBecomeDoublesOrAreRefused() throws {
        let digits = String(repeating: "9", count: 100_000)
        #expect(try JSONValue.parse(Data(digits.utf8)) == .double(.infinity))
        #expect(try JSONValue.parse(Data("-\(digits)".utf8)) == .double(-.infinity))
        #expect(try JSONValue.parse(Data("0.\(digits)".utf8)) == .double(1))
        #expect(try JSONValue.parse(Data("1e99999999999999999999".utf8)) == .double(.infinity))
        #expect(try JSONValue.parse(Data("1e-99999999999999999999".utf8)) == .double(0))
        #expect(try JSONValue.parse(Data("18446744073709551616".utf8)) == .double(18_446_744_073_709_551_616))
        // A number too large for a double is written as null, and the writer says so.
        var out: [UInt8] = []
        #expect(!JSONWriter.canonical.append(try JSONValue.parse(Data(digits.utf8)), to: &out))
        #expect(out == Array("null".utf8))
        for text in ["-", "1e", "1e+", "-.5", "01", "1.e5", "0x10", "Infinity", "NaN", "--1", "1_000"] {
            guard case .refused = outcome(Array(text.utf8)) else {
                Issue.record("\(text) was accepted")
                continue
            }
        }
    }

    @Test func invalidUTF8InsideStringsIsRefused() {
        let cases: [[UInt8]] = [
            [0x22, 0xC3, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0x5C, 0x6E, 0xFF, 0x22], [0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D],
        ]
        for bytes in cases {
            guard case .refused(let reason) = outcome(bytes) else {
                Issue.record("\(bytes) was accepted")
                continue
            }
            #expect(reason.contains("invalid UTF-8"))
        }
    }
}
