import DocumentFormat
import Foundation
import Testing
@testable import RecipesKit
import TestSupport

@Suite("JSON stream reader")
struct JSONStreamReaderTests {
    @Test("values read member by member and element by element equal the whole parse, whatever the chunk size", arguments: [1, 2, 3, 7, 64])
    func chunks(size: Int) throws {
        let text = #" { "a" : [ {"x": "q\"uo\\te]}", "y": [1, 2.5, -3e2, true, false, null]} , "\u00e9t\u00e9 ✓" , 12 ] , "b": {"c": []}, "d": "" } "#
        let directory = try TemporaryDirectory()
        let url = try directory.write("value.json", text)
        let reader = try JSONStreamReader(url: url, chunkSize: size)
        var members: [String: JSONValue] = [:]
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if key == "a" {
                #expect(try reader.beginArray())
                var elements: [JSONValue] = []
                while let element = try reader.nextElement() { elements.append(element) }
                members[key] = .array(elements)
            } else {
                members[key] = try reader.nextValue()
            }
        }
        try reader.finish()
        #expect(JSONValue.object(members) == (try JSONValue.parse(Data(text.utf8))))
    }

    @Test("a truncated file, a missing comma and trailing text are refused", arguments: [
        #"{"a": [1, 2"#, #"{"a": [1 2]}"#, #"{"a": 1} x"#, #"{"a": "open"#, #"{"a" 1}"#,
    ])
    func refused(text: String) throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write("value.json", text)
        let reader = try JSONStreamReader(url: url, chunkSize: 3)
        #expect(throws: JSONStreamError.self) {
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if key == "a", try reader.beginArray() {
                    while try reader.nextElement() != nil {}
                } else {
                    _ = try reader.nextValue()
                }
            }
            try reader.finish()
        }
    }
}
