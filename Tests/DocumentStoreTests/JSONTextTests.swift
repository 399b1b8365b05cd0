import Foundation
import Testing
@testable import DocumentStore
import DocumentFormat

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test func readsEveryKindWithWhitespace() throws {
        let value = try parse(" {\"s\" : \"x\", \"b\":true,\"f\":false,\t\"n\":null,\r\n\"a\":[ 1 , -2.5e1, [] ],\"o\":{\"k\":{}}} ")
        #expect(value == ["s": "x", "b": true, "f": false, "n": nil, "a": [1, -25.0, []], "o": ["k": [:]]])
        #expect(try parse("42") == 42)
        #expect(try parse("\"x\"") == "x")
        #expect(try parse("[]") == [])
    }

    @Test func keepsIntegersExactAndOtherNumbersDouble() throws {
        #expect(try parse("9223372036854775807") == .int(Int64.max))
        #expect(try parse("-9223372036854775808") == .int(Int64.min))
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808.0))
        #expect(try parse("-9007199254740993") == .int(-9_007_199_254_740_993))
        #expect(try parse("1.0") == .double(1.0))
        #expect(try parse("1e2") == .double(100))
        #expect(try parse("-0") == .int(0))
        #expect(try parse("0.1") == .double(0.1))
        #expect(try parse("5E-324") == .double(.leastNonzeroMagnitude))
    }

    @Test func decodesEscapesAndUnicode() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == "a\"b\\c/d\u{8}\u{c}\n\r\t")
        #expect(try parse(#""\u00e9\u0041\ud83d\ude00""#) == "éA😀")
        #expect(try parse("\"é😀 plain\"") == "é😀 plain")
        #expect(try parse(#"{"k\u0000":1}"#) == ["k\u{0}": 1])
    }

    @Test func lastOfARepeatedKeyWins() throws {
        #expect(try parse(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", "[1 2]", "{\"a\"}", "{\"a\":1,}", "{a:1}", "01", "1.", ".5", "-", "1e", "+1",
        "tru", "nul", "\"abc", "\"a\u{01}b\"", #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00x""#, "1 2", "[1]x", "NaN",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: DocumentFormatError.self) { try JSONValue.parse(Data(text.utf8)) }
    }

    @Test func refusesInvalidUTF8AndExcessiveNesting() {
        #expect(throws: DocumentFormatError.self) { try JSONValue.parse(Data([0x22, 0xFF, 0x22])) }
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: DocumentFormatError.self) { try JSONValue.parse(Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONValue.parse(Data(fine.utf8))) != nil)
    }

    @Test func agreesWithFoundationOnARecordedDocument() throws {
        let text = #"{"_id":"r1","name":"Soupe à l'oignon","servings":4,"rating":4.5,"tags":["french","soup"],"ingredients":[{"amount":"1 kg","name":"onions"}],"note":"line\nbreak \"quoted\" \u2603"}"#
        let ours = try parse(text)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(ours == decoded)
    }

    @Test func meteredParseReportsWhatItBuildsAndStopsWhenTheMeterThrows() throws {
        struct Refused: Error {}
        let dense = Data(("[" + Array(repeating: "0", count: 10_000).joined(separator: ",") + "]").utf8)
        var reported: [Int] = []
        let value = try JSONValue.parse(dense, meteringEvery: 4096) { reported.append($0) }
        #expect(value.arrayValue?.count == 10_000)
        // Each of the 10,001 values counts, in steps of about 4 KB, the rest at the end.
        #expect(reported.reduce(0, +) >= 10_001 * 64)
        #expect(reported.dropLast().allSatisfy { $0 >= 4096 })
        // Whitespace costs nothing to build; string bytes do.
        var padded = 0
        _ = try JSONValue.parse(Data(("[\"" + String(repeating: "x", count: 1000) + "\"" + String(repeating: " ", count: 9000) + "]").utf8),
                                meteringEvery: 1 << 20) { padded += $0 }
        #expect(padded >= 1000 && padded < 2000)
        // A meter that refuses stops the parse with its own error.
        var calls = 0
        #expect(throws: Refused.self) {
            _ = try JSONValue.parse(dense, meteringEvery: 4096) { _ in
                calls += 1
                if calls == 3 { throw Refused() }
            }
        }
        #expect(calls == 3)
    }
}

@Suite struct JSONWriterTests {
    @Test func canonicalOrderSortsByUTF8Bytes() {
        let value: JSONValue = ["b": 1, "_id": "x", "B": 2, "é": 3, "a": ["z": 1, "y": 2]]
        #expect(JSONWriter.canonical.string(value) == #"{"B":2,"_id":"x","a":{"y":2,"z":1},"b":1,"é":3}"#)
        #expect(CanonicalJSON.encode(value) == JSONWriter.canonical.data(value))
    }

    @Test func keyComparisonIsByUTF8Bytes() {
        let keys = ["b", "", "a", "ab", "é", "Z", "_x", "a\u{0}", "\u{FFFF}", "😀", "e\u{301}"]
        let expected = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(keys.sorted(by: JSONWriter.utf8Precedes) == expected)
        #expect(!JSONWriter.utf8Precedes("a", "a"))
    }

    @Test func couchDBOrderPutsLeadingMembersFirst() {
        let value: JSONValue = ["z": 1, "reason": "r", "_rev": "1-a", "error": "e", "_id": "x", "ok": true, "a": 0]
        #expect(JSONWriter.couchDB.string(value) == #"{"_id":"x","_rev":"1-a","ok":true,"error":"e","reason":"r","a":0,"z":1}"#)
    }

    @Test func writesNumbersExactlyAndNonFiniteAsNull() {
        var out: [UInt8] = []
        #expect(JSONWriter.canonical.append([.int(Int64.min), .int(Int64.max), 0, -7, 1.5, 1.0, 0.1], to: &out))
        #expect(String(decoding: out, as: UTF8.self) == "[-9223372036854775808,9223372036854775807,0,-7,1.5,1.0,0.1]")
        out = []
        #expect(!JSONWriter.canonical.append(["x": .double(.infinity)], to: &out))
        #expect(String(decoding: out, as: UTF8.self) == #"{"x":null}"#)
    }

    @Test func escapesMinimally() {
        let text = JSONWriter.canonical.string("q\"b\\s/\n\r\t\u{8}\u{c}\u{1}\u{1f}é")
        #expect(text == #""q\"b\\s/\n\r\t\b\f\u0001\u001fé""#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let value: JSONValue = ["s": "a\u{0}\"\\😀", "n": [nil, true, false, -1, 2.25, 1e300, [:]], "o": ["": ""]]
        for writer in [JSONWriter.canonical, .couchDB] {
            #expect(try JSONValue.parse(writer.data(value)) == value)
        }
    }
}
