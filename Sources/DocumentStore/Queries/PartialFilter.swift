import Foundation
import DocumentFormat

/// The field equalities that select the documents a partial index holds (CouchDB's
/// `partial_filter_selector`, limited to equalities so the planner can tell at a glance
/// whether a query's selector implies it).
struct PartialFilter: Sendable {
    /// Path and required value, sorted by path text.
    let equalities: [(FieldPath, JSONValue)]

    /// The filter of a stored JSON object (`{}`: no filter).
    init(storedText text: String) throws {
        guard let object = (try? JSONValue.parse(text))?.objectValue else {
            equalities = []
            return
        }
        equalities = try CanonicalJSON.sortedKeys(object).map { (try FieldPath($0), object[$0]!) }
    }

    /// The stored text of a filter object.
    static func storedText(_ filter: JSONObject) -> String {
        String(decoding: CanonicalJSON.encode(.object(filter)), as: UTF8.self)
    }

    /// Whether a document body satisfies every equality.
    func selects(_ body: JSONObject) -> Bool {
        equalities.allSatisfy { path, value in path.value(in: body).map { JSONEquality.equal($0, value) } ?? false }
    }

    /// Whether every document a selector can match satisfies the filter: each equality is
    /// among the selector's required `$eq` conditions.
    func isImplied(by required: [(FieldPath, FieldCondition)]) -> Bool {
        equalities.allSatisfy { path, value in
            required.contains { requiredPath, condition in
                guard requiredPath == path, case .eq(let wanted) = condition else { return false }
                return JSONEquality.equal(wanted, value)
            }
        }
    }
}
