import DocumentStore
import RecipesKit
import DocumentFormat

/// A value whose `--json` form is built directly rather than through `Encodable`, for types
/// printed by the thousand. The form must equal ``JSONOutputEncoder/generic(_:)`` of the same
/// value (every key, `null` for absent values); tests check that, so a field added to the
/// type cannot go missing from the output.
protocol JSONOutputRepresentable: Encodable {
    /// The JSON form.
    var jsonOutput: JSONValue { get }

    /// Appends the pretty-printed form as ``JSONOutputEncoder/appendPretty(_:indent:to:)``
    /// writes ``jsonOutput``; a type printed in bulk may write its bytes without building
    /// the value first (tests hold the two equal).
    func appendJSONOutput(indent: Int, to out: inout [UInt8])
}

extension JSONOutputRepresentable {
    /// Writes ``jsonOutput``.
    func appendJSONOutput(indent: Int, to out: inout [UInt8]) {
        JSONOutputEncoder.appendPretty(jsonOutput, indent: indent, to: &out)
    }
}

extension Array: JSONOutputRepresentable where Element: JSONOutputRepresentable {
    /// The elements' forms, in order.
    var jsonOutput: JSONValue { .array(map(\.jsonOutput)) }

    /// The elements' direct forms, laid out as ``JSONOutputEncoder/pretty(_:)`` lays out an array.
    func appendJSONOutput(indent: Int, to out: inout [UInt8]) {
        var stream = JSONArrayStream(indent: indent)
        for element in self { stream.append(element, to: &out) }
        stream.finish(to: &out)
    }
}

extension RecipeSummary: JSONOutputRepresentable {
    /// `{"id", "name", "type", "prepTime", "overview", "ingredientCount", "hasImage"}`.
    var jsonOutput: JSONValue {
        [
            "id": .string(id), "name": .string(name), "type": type.map(JSONValue.string) ?? .null,
            "prepTime": prepTime.map(JSONValue.string) ?? .null, "overview": overview.map(JSONValue.string) ?? .null,
            "ingredientCount": .int(Int64(ingredientCount)), "hasImage": .bool(hasImage),
        ]
    }

    /// The members in sorted key order, written straight to bytes (a list prints 20,000).
    func appendJSONOutput(indent: Int, to out: inout [UInt8]) {
        func member(_ key: StaticString, first: Bool = false, _ value: (inout [UInt8]) -> Void) {
            if !first { out.append(UInt8(ascii: ",")) }
            JSONOutputEncoder.newline(indent + 2, to: &out)
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
            value(&out)
        }
        func optional(_ text: String?, _ out: inout [UInt8]) {
            if let text { JSONWriter.appendString(text, to: &out) } else { out.append(contentsOf: Array("null".utf8)) }
        }
        out.append(UInt8(ascii: "{"))
        member("hasImage", first: true) { $0.append(contentsOf: Array((hasImage ? "true" : "false").utf8)) }
        member("id") { JSONWriter.appendString(id, to: &$0) }
        member("ingredientCount") { $0.append(contentsOf: Array(String(ingredientCount).utf8)) }
        member("name") { JSONWriter.appendString(name, to: &$0) }
        member("overview") { optional(overview, &$0) }
        member("prepTime") { optional(prepTime, &$0) }
        member("type") { optional(type, &$0) }
        JSONOutputEncoder.newline(indent, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
