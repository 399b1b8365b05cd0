/// Attribute access in Swift types, for the generated entity views (``EntityObject``).
extension ManagedObject {
    /// The attribute's value as `Value`, or `nil` when it has none.
    /// - Throws: ``ObjectGraphError/typeMismatch(entity:key:expected:got:)`` when the value
    ///   does not convert to `Value` (the attribute is of another type), or what
    ///   ``value(forKey:)`` throws.
    public func value<Value: AttributeConvertible>(forKey key: String, as type: Value.Type) throws -> Value? {
        var raw = try value(forKey: key)
        if raw.isNull { return nil }
        let attributeType = entity.attribute(named: key)?.type ?? .string
        raw = attributeType.coerce(raw) ?? raw
        guard let converted = Value(attributeValue: raw) else {
            throw ObjectGraphError.typeMismatch(entity: entity.name, key: key, expected: attributeType, got: "\(Value.self)")
        }
        return converted
    }

    /// Sets an attribute from a Swift value; `nil` clears it.
    /// - Throws: what ``setValue(_:forKey:)-(AttributeValue,_)`` throws (an integer outside the attribute's
    ///   width, an attribute of another type).
    public func setValue<Value: AttributeConvertible>(_ value: Value?, forKey key: String) throws {
        try setValue(value?.attributeValue ?? .null, forKey: key)
    }
}
