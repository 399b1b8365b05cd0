import Foundation

/// A `Sendable` copy of one object's stored values: what typed observation hands out and
/// what crosses from one actor or task to another, where managed objects (bound to their
/// context) cannot go. Each generated entity type has one, named `Snapshot`, with a plain
/// property per attribute and the destination's ``ObjectID`` per to-one relationship; pass
/// the ID back to a context (``ObjectContext/existingObject(with:)``) to edit the object.
public protocol EntitySnapshot: Sendable, Hashable {
    /// The object the values are of.
    var objectID: ObjectID { get }
    /// The values of a row as a store returned it (an attribute the store did not load, a
    /// large binary value, reads as `nil`).
    init(row: RowSnapshot)
}

extension RowSnapshot: EntitySnapshot {
    /// The row itself.
    public init(row: RowSnapshot) { self = row }

    /// The value of attribute `key` as `Value`, or `nil` when it has none (or was not
    /// loaded); an integer converts to a floating-point or decimal `Value`.
    public func value<Value: AttributeConvertible>(_ key: String, as type: Value.Type) -> Value? {
        guard let raw = attributes[key], !raw.isNull else { return nil }
        if let value = Value(attributeValue: raw) { return value }
        if case .int(let integer) = raw {
            for widened in [AttributeValue.double(Double(integer)), .float(Float(integer)), .decimal(Decimal(integer))] {
                if let value = Value(attributeValue: widened) { return value }
            }
        }
        return nil
    }
}
