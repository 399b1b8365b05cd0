import Crypto
import Foundation
import Testing
@testable import DocumentStore
import DocumentFormat

@Suite struct CanonicalJSONTests {
    @Test func sortedKeysNoWhitespaceMinimalEscapes() {
        let value: JSONValue = ["b": 1, "a": [true, nil, "x\n\"\\/\u{1}"], "c": 1.5, "é": -2, "z": ["y": [:], "x": []]]
        let text = String(decoding: CanonicalJSON.encode(value), as: UTF8.self)
        #expect(text == #"{"a":[true,null,"x\n\"\\/\u0001"],"b":1,"c":1.5,"z":{"x":[],"y":{}},"é":-2}"#)
    }

    @Test func revisionHashIsTheMD5OfTheDocumentedEncoding() throws {
        let parent = RevisionID(generation: 1, hash: "abc")
        let made = try RevisionHasher.revisionID(parent: parent, deleted: false, body: ["name": "Soup", "n": 2],
                                             attachmentDigests: ["p.png": "md5-xyz"])
        let input = #"["1-abc",false,{"n":2,"name":"Soup"},{"p.png":"md5-xyz"}]"#
        let expected = Insecure.MD5.hash(data: Data(input.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(made == RevisionID(generation: 2, hash: expected))
        let first = try RevisionHasher.revisionID(parent: nil, deleted: true, body: [:], attachmentDigests: [:])
        let firstExpected = Insecure.MD5.hash(data: Data("[null,true,{},{}]".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(first == RevisionID(generation: 1, hash: firstExpected))
    }

    @Test func collationOrdersTypesThenValues() {
        let ordered: [JSONValue] = [nil, false, true, -5, 0, 1, 1.5, 10, "", "A", "a", "ab", "b", [], [1], [1, 2], [2], [:], ["a": 1], ["b": 0]]
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(CollationKey.compare(lower, higher) < 0, "\(lower) < \(higher)")
        }
        #expect(CollationKey.compare(.int(3), .double(3.0)) == 0)
        #expect(CollationKey.compare("a\u{0}", "a") > 0)
    }
}

@Suite struct JSONValueDecodingTests {
    @Test func decodesEachKindToItsCase() throws {
        let text = #"{"s":"x","b":true,"f":false,"i":3,"d":1.5,"big":-9007199254740993,"n":null,"a":[1,"x",[]],"o":{"k":false,"e":{}}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value == ["s": "x", "b": true, "f": false, "i": 3, "d": 1.5, "big": .int(-9_007_199_254_740_993), "n": nil,
                          "a": [1, "x", []], "o": ["k": false, "e": [:]]])
    }
}
