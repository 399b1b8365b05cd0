public import Foundation

/// A Swift type that an attribute's value converts to and from: the types the generated
/// entity views (``EntityObject``) use for each `AttributeType`.
///
/// `String` is `String`; `Integer 16/32/64` are `Int16`/`Int32`/`Int64`; `Double`, `Float`,
/// `Decimal` and `Boolean` are `Double`, `Float`, `Decimal` and `Bool`; `Date`, `UUID` and
/// `URI` are `Date`, `UUID` and `URL`; `Binary` and `Transformable` are `Data`.
public protocol AttributeConvertible {
    /// The value held by `value`, or `nil` when `value` is `null` or of another kind (or an
    /// integer that does not fit this type).
    init?(attributeValue value: AttributeValue)
    /// The value as an `AttributeValue`, ready for ``ManagedObject/setValue(_:forKey:)-(AttributeValue,_)``.
    var attributeValue: AttributeValue { get }
    /// What a required attribute of this type reads as while it has no value (an object
    /// inserted and not filled in yet): the empty string, zero, `false`, the reference date,
    /// empty data, the nil UUID, `about:blank`. A save with it still unset fails validation.
    static var unsetValue: Self { get }
}

extension String: AttributeConvertible {
    /// The empty string.
    public static var unsetValue: String { "" }
    /// The string of a string value.
    public init?(attributeValue value: AttributeValue) {
        guard let s = value.stringValue else { return nil }
        self = s
    }
    /// A string value.
    public var attributeValue: AttributeValue { .string(self) }
}

extension Int: AttributeConvertible {
    /// Zero.
    public static var unsetValue: Int { 0 }
    /// The integer of an integer value that fits this platform's `Int`.
    public init?(attributeValue value: AttributeValue) {
        guard case .int(let i) = value, let v = Int(exactly: i) else { return nil }
        self = v
    }
    /// An integer value.
    public var attributeValue: AttributeValue { .int(Int64(self)) }
}

extension Int16: AttributeConvertible {
    /// Zero.
    public static var unsetValue: Int16 { 0 }
    /// The integer of an integer value that fits 16 bits.
    public init?(attributeValue value: AttributeValue) {
        guard case .int(let i) = value, let v = Int16(exactly: i) else { return nil }
        self = v
    }
    /// An integer value.
    public var attributeValue: AttributeValue { .int(Int64(self)) }
}

extension Int32: AttributeConvertible {
    /// Zero.
    public static var unsetValue: Int32 { 0 }
    /// The integer of an integer value that fits 32 bits.
    public init?(attributeValue value: AttributeValue) {
        guard case .int(let i) = value, let v = Int32(exactly: i) else { return nil }
        self = v
    }
    /// An integer value.
    public var attributeValue: AttributeValue { .int(Int64(self)) }
}

extension Int64: AttributeConvertible {
    /// Zero.
    public static var unsetValue: Int64 { 0 }
    /// The integer of an integer value.
    public init?(attributeValue value: AttributeValue) {
        guard case .int(let i) = value else { return nil }
        self = i
    }
    /// An integer value.
    public var attributeValue: AttributeValue { .int(self) }
}

extension Double: AttributeConvertible {
    /// Zero.
    public static var unsetValue: Double { 0 }
    /// The number of a double value.
    public init?(attributeValue value: AttributeValue) {
        guard case .double(let d) = value else { return nil }
        self = d
    }
    /// A double value.
    public var attributeValue: AttributeValue { .double(self) }
}

extension Float: AttributeConvertible {
    /// Zero.
    public static var unsetValue: Float { 0 }
    /// The number of a float value.
    public init?(attributeValue value: AttributeValue) {
        guard case .float(let f) = value else { return nil }
        self = f
    }
    /// A float value.
    public var attributeValue: AttributeValue { .float(self) }
}

extension Decimal: AttributeConvertible {
    /// Zero.
    public static var unsetValue: Decimal { 0 }
    /// The number of a decimal value.
    public init?(attributeValue value: AttributeValue) {
        guard case .decimal(let d) = value else { return nil }
        self = d
    }
    /// A decimal value.
    public var attributeValue: AttributeValue { .decimal(self) }
}

extension Bool: AttributeConvertible {
    /// `false`.
    public static var unsetValue: Bool { false }
    /// The flag of a boolean value.
    public init?(attributeValue value: AttributeValue) {
        guard case .bool(let b) = value else { return nil }
        self = b
    }
    /// A boolean value.
    public var attributeValue: AttributeValue { .bool(self) }
}

extension Date: AttributeConvertible {
    /// The reference date (2001-01-01).
    public static var unsetValue: Date { Date(timeIntervalSinceReferenceDate: 0) }
    /// The date of a date value.
    public init?(attributeValue value: AttributeValue) {
        guard let d = value.dateValue else { return nil }
        self = d
    }
    /// A date value.
    public var attributeValue: AttributeValue { .date(self) }
}

extension Data: AttributeConvertible {
    /// No bytes.
    public static var unsetValue: Data { Data() }
    /// The bytes of a binary or transformable value.
    public init?(attributeValue value: AttributeValue) {
        guard let d = value.dataValue else { return nil }
        self = d
    }
    /// A binary value (a transformable attribute converts it when it is set).
    public var attributeValue: AttributeValue { .data(self) }
}

extension UUID: AttributeConvertible {
    /// The nil UUID.
    public static var unsetValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    /// The UUID of a UUID value.
    public init?(attributeValue value: AttributeValue) {
        guard let u = value.uuidValue else { return nil }
        self = u
    }
    /// A UUID value.
    public var attributeValue: AttributeValue { .uuid(self) }
}

extension URL: AttributeConvertible {
    /// `about:blank`.
    public static var unsetValue: URL { URL(string: "about:blank")! }
    /// The URL of a URI value.
    public init?(attributeValue value: AttributeValue) {
        guard let u = value.uriValue else { return nil }
        self = u
    }
    /// A URI value.
    public var attributeValue: AttributeValue { .uri(self) }
}
