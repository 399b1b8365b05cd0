import DocumentStore
import Foundation
import Testing
import TestSupport
import RecipesKit
@testable import RecipesCommandLine
import DocumentFormat

/// The one `--json` strategy: absent optionals are `null`, and the direct forms of bulk types
/// equal what their `Encodable` conformance produces.
@Suite("JSON output")
struct JSONOutputTests {
    @Test("a list line built directly equals its Encodable form, with and without optional values")
    func summaryFastPathMatchesTheGenericForm() throws {
        let full = RecipeSummary(id: "r1", name: "Soup", type: "Starter", prepTime: "5 minutes", overview: "Hot",
                                 ingredientCount: 3, hasImage: true)
        let bare = RecipeSummary(id: "r2", name: "Water", type: nil, prepTime: nil, overview: nil, ingredientCount: 0, hasImage: false)
        for summary in [full, bare] {
            #expect(summary.jsonOutput == (try JSONOutputEncoder.generic(summary)))
        }
        #expect([full, bare].jsonOutput == (try JSONOutputEncoder.generic([full, bare])))
        #expect(try JSONOutputEncoder.encode([bare]) == .array([bare.jsonOutput]))
        // The bytes written directly, alone, nested and streamed, are the pretty form's.
        let tricky = RecipeSummary(id: "r\"3", name: "Tab\tand \\ \u{1}", type: "Ünïcode ✓", prepTime: nil, overview: "",
                                   ingredientCount: 1234567, hasImage: false)
        for summary in [full, bare, tricky] {
            var direct: [UInt8] = []
            summary.appendJSONOutput(indent: 0, to: &direct)
            #expect(direct == JSONOutputEncoder.pretty(try JSONOutputEncoder.generic(summary)))
        }
        for list in [[], [full], [full, bare, tricky]] {
            var streamed: [UInt8] = []
            var stream = JSONArrayStream()
            for summary in list { stream.append(summary, to: &streamed) }
            stream.finish(to: &streamed)
            #expect(streamed == JSONOutputEncoder.pretty(try JSONOutputEncoder.generic(list)))
            var nested: [UInt8] = []
            list.appendJSONOutput(indent: 0, to: &nested)
            #expect(nested == streamed)
        }
    }

    @Test("absent optionals are written as null at every depth, and the text is sorted and parses back")
    func nullsAndText() throws {
        struct Inner: Encodable { var note: String?; var count: Int }
        struct Outer: Encodable { var name: String; var inner: Inner?; var items: [Inner]; var when: Date; var bytes: Data }
        let value = Outer(name: "x", inner: nil, items: [Inner(note: nil, count: 1), Inner(note: "n", count: 2)],
                          when: Date(timeIntervalSinceReferenceDate: 10), bytes: Data([1, 2]))
        let json = try JSONOutputEncoder.encode(value)
        #expect(json == [
            "name": "x", "inner": .null, "when": .double(10), "bytes": "AQI=",
            "items": [["note": .null, "count": 1], ["note": "n", "count": 2]],
        ])
        let text = String(decoding: JSONOutputEncoder.pretty(json), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"bytes\" : \"AQI=\",\n  \"inner\" : null,"))
        let parsed = try JSONValue.parse(Data(text.utf8))
        #expect(parsed == json)
        #expect(String(decoding: JSONOutputEncoder.pretty(.array([])), as: UTF8.self) == "[]")
    }
}
