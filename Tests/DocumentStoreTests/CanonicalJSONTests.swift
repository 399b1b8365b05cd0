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
        // `term_to_binary([false, 1, <<"abc">>, {[{<<"n">>, 2}, {<<"name">>, <<"Soup">>}]},
        //                  [{<<"p.png">>, <<"image/png">>, MD5}]], [{minor_version, 1}])`, written out
        // byte by byte from the external term format, independently of the encoder.
        let parent = RevisionID(generation: 1, hash: "abc")
        let digest = Array(Insecure.MD5.hash(data: Data("png".utf8)))
        let made = try RevisionHasher.revisionID(
            parent: parent, deleted: false, body: ["name": "Soup", "n": 2],
            attachments: ["p.png": AttachmentInfo(contentType: "image/png", length: 3,
                                                  digest: "md5-" + Data(digest).base64EncodedString(), revpos: 2)])
        func binary(_ text: String) -> [UInt8] { [109, 0, 0, 0, UInt8(text.utf8.count)] + Array(text.utf8) }
        var term: [UInt8] = [131, 108, 0, 0, 0, 5]
        term += [100, 0, 5] + Array("false".utf8)
        term += [97, 1] + binary("abc")
        term += [104, 1, 108, 0, 0, 0, 2, 104, 2] + binary("n") + [97, 2] + [104, 2] + binary("name") + binary("Soup") + [106]
        term += [108, 0, 0, 0, 1, 104, 3] + binary("p.png") + binary("image/png") + [109, 0, 0, 0, 16] + digest + [106]
        term += [106]
        let expected = Insecure.MD5.hash(data: Data(term)).map { String(format: "%02x", $0) }.joined()
        #expect(made == RevisionID(generation: 2, hash: expected))
        // Without a parent: `[true, 0, 0, {[]}, []]`.
        let first = try RevisionHasher.revisionID(parent: nil, deleted: true, body: [:], attachments: [:])
        let firstTerm: [UInt8] = [131, 108, 0, 0, 0, 5, 100, 0, 4] + Array("true".utf8) + [97, 0, 97, 0, 104, 1, 106, 106, 106]
        let firstExpected = Insecure.MD5.hash(data: Data(firstTerm)).map { String(format: "%02x", $0) }.joined()
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
