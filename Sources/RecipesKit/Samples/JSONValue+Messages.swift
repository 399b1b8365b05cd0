import DocumentStore
import Foundation
import DocumentFormat

/// What the sample-set and configuration loaders need of the store's JSON model: a phrase
/// naming a value's kind for their messages, and a parse whose failure says where the fault
/// is. They validate the same ``JSONValue`` tree the store's parser builds, so a large set is
/// held once, not again in a second tree.
extension JSONValue {
    /// A phrase naming the kind of value, for "found …" in messages.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string(let text): text.isEmpty ? "an empty string" : "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Parses `data`, turning a syntax error into the fault and its line and column.
    static func parseLocatingErrors(_ data: Data) -> Result<JSONValue, JSONSyntaxError> {
        do {
            return .success(try JSONValue.parse(data))
        } catch {
            return .failure(JSONSyntaxError(error, data: data))
        }
    }
}
