public import DocumentStore

/// A value whose `--json` form is built directly rather than through `Encodable`, for types
/// printed by the thousand. The form must equal ``JSONOutputEncoder/generic(_:)`` of the same
/// value (every key, `null` for absent values); tests check that, so a field added to the
/// type cannot go missing from the output.
public protocol JSONOutputRepresentable: Encodable {
    /// The JSON form.
    var jsonOutput: JSONValue { get }
}

extension Array: JSONOutputRepresentable where Element: JSONOutputRepresentable {
    /// The elements' forms, in order.
    public var jsonOutput: JSONValue { .array(map(\.jsonOutput)) }
}

extension RecipeSummary: JSONOutputRepresentable {
    /// `{"id", "name", "type", "prepTime", "overview", "ingredientCount", "hasImage"}`.
    public var jsonOutput: JSONValue {
        [
            "id": .string(id), "name": .string(name), "type": type.map(JSONValue.string) ?? .null,
            "prepTime": prepTime.map(JSONValue.string) ?? .null, "overview": overview.map(JSONValue.string) ?? .null,
            "ingredientCount": .int(Int64(ingredientCount)), "hasImage": .bool(hasImage),
        ]
    }
}
