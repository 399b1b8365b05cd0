import DocumentStore
import Foundation
import ObjectGraph
import DocumentFormat

/// Encodes attribute values into the original store's JSON layout and back.
///
/// Strings stay strings; integers, doubles and booleans (0/1) are JSON numbers; dates are
/// seconds since 1970; decimals are strings. Doubles and floats also carry their exact bits in
/// `CDTISMeta_<name>` so no precision is lost, and non-finite values, which JSON cannot hold,
/// are `null` with `{"nonFinite": …}` beside them. Binary and transformable values become
/// attachments named after the attribute with their MIME type in the side key.
enum AttributeCodec {
    /// What one attribute contributes to a document.
    struct Encoded {
        /// The value under the attribute's own name.
        var value: JSONValue
        /// The side key's content, if any.
        var meta: JSONValue?
        /// Attachment bytes and MIME type for binary and transformable attributes.
        var attachment: (data: Data, mimeType: String)?
    }

    /// The §5 `typeName` of an attribute type.
    static func typeName(_ type: AttributeType) -> String {
        switch type {
        case .string: return "utf8"
        case .boolean: return "bool"
        case .date: return "date1970"
        case .integer16: return "int16"
        case .integer32: return "int32"
        case .integer64: return "int64"
        case .double: return "double"
        case .float: return "float"
        case .decimal: return "decimal"
        case .binary: return "binary"
        case .transformable: return "xform"
        case .uuid: return "uuid"
        case .uri: return "uri"
        }
    }

    /// Whether the type is kept as an attachment.
    static func isAttachment(_ type: AttributeType) -> Bool { type == .binary || type == .transformable }

    private static func nonFiniteName(_ d: Double) -> String {
        d.isNaN ? "nan" : (d > 0 ? "infinity" : "-infinity")
    }

    /// Encodes one value of `attribute`.
    static func encode(_ value: AttributeValue, as attribute: AttributeDescription) -> Encoded {
        switch value {
        case .null: return Encoded(value: .null)
        case .string(let s): return Encoded(value: .string(s))
        case .int(let i): return Encoded(value: .int(i))
        case .bool(let b): return Encoded(value: .int(b ? 1 : 0))
        case .double(let d):
            if !d.isFinite { return Encoded(value: .null, meta: ["nonFinite": .string(nonFiniteName(d))]) }
            return Encoded(value: .double(d), meta: ["ieee754_double": .int(Int64(bitPattern: d.bitPattern))])
        case .float(let f):
            if !f.isFinite { return Encoded(value: .null, meta: ["nonFinite": .string(nonFiniteName(Double(f)))]) }
            return Encoded(value: .double(Double(f)), meta: ["ieee754_float": .int(Int64(f.bitPattern))])
        case .decimal(let d): return Encoded(value: .string(NSDecimalNumber(decimal: d).stringValue))
        case .date(let date):
            let seconds = date.timeIntervalSince1970
            // Whole seconds read back exactly; fractions may not (JSON text is parsed to the
            // nearest few ulps), so their exact bits go in the side key.
            if seconds.rounded() == seconds, Date(timeIntervalSince1970: seconds) == date { return Encoded(value: .double(seconds)) }
            let exact = Int64(bitPattern: date.timeIntervalSinceReferenceDate.bitPattern)
            return Encoded(value: .double(seconds), meta: ["ieee754_reference_date": .int(exact)])
        case .uuid(let u): return Encoded(value: .string(u.uuidString))
        case .uri(let u): return Encoded(value: .string(u.absoluteString))
        case .data(let d), .transformable(let d):
            return Encoded(value: .null, meta: ["mime-type": .string(mimeType(of: d))], attachment: (d, mimeType(of: d)))
        }
    }

    /// `image/jpeg` or `image/png` by signature, else `application/octet-stream`.
    static func mimeType(of data: Data) -> String {
        let bytes = [UInt8](data.prefix(8))
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return "image/jpeg" }
        if bytes == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return "image/png" }
        return "application/octet-stream"
    }

    /// The JSON a predicate constant compares against when stored in `type`, or `nil` when the
    /// stored form does not preserve the comparison (decimals, binary, non-finite numbers).
    static func queryValue(_ value: AttributeValue, for type: AttributeType) -> JSONValue? {
        switch (type, value) {
        case (.string, .string(let s)): return .string(s)
        case (.integer16, _), (.integer32, _), (.integer64, _), (.double, _), (.float, _), (.boolean, _):
            switch value {
            case .int(let i): return abs(Double(i)) <= 9_007_199_254_740_992 ? .int(i) : nil
            case .bool(let b): return .int(b ? 1 : 0)
            case .double(let d): return d.isFinite ? .double(d) : nil
            case .float(let f): return f.isFinite ? .double(Double(f)) : nil
            default: return nil
            }
        case (.date, .date(let d)): return .double(d.timeIntervalSince1970)
        case (.uuid, .uuid(let u)): return .string(u.uuidString)
        case (.uri, .uri(let u)): return .string(u.absoluteString)
        default: return nil
        }
    }

    /// Decodes attribute `attribute` from `body`. Binary values come from `attachment`.
    /// Returns `nil` when the key is absent (the caller decides: default or null).
    static func decode(_ attribute: AttributeDescription, from body: JSONObject,
                       attachment: (String) throws -> Data?) throws -> AttributeValue? {
        // Only binary, number and date values have a side key: strings, the common case on
        // every row of a list, skip building its name.
        try decode(attribute, metaKey: hasSideKey(attribute.type) ? DocumentLayout.metaKey(attribute.name) : nil,
                   from: body, attachment: attachment)
    }

    /// Whether values of `type` may have a side key (binary, number and date values do).
    static func hasSideKey(_ type: AttributeType) -> Bool {
        switch type {
        case .binary, .transformable, .double, .float, .date: true
        default: false
        }
    }

    /// Decodes `attribute` from `body`, its side key named `metaKey` (`nil`: it has none),
    /// for callers that name side keys once per entity (``EntityDecoding``).
    static func decode(_ attribute: AttributeDescription, metaKey: String?, from body: JSONObject,
                       attachment: (String) throws -> Data?) throws -> AttributeValue? {
        let meta = metaKey.flatMap { body[$0]?.objectValue }
        if isAttachment(attribute.type) {
            guard let data = try attachment(attribute.name) else {
                return body[attribute.name] == nil && meta == nil ? nil : .null
            }
            return attribute.type == .binary ? .data(data) : .transformable(data)
        }
        if let nonFinite = meta?["nonFinite"]?.stringValue {
            let d: Double = nonFinite == "nan" ? .nan : (nonFinite == "-infinity" ? -.infinity : .infinity)
            return attribute.type == .float ? .float(Float(d)) : .double(d)
        }
        guard let raw = body[attribute.name] else { return nil }
        if raw.isNull { return .null }
        switch attribute.type {
        case .string: return raw.stringValue.map { .string($0) } ?? .null
        case .integer16, .integer32, .integer64:
            if let i = raw.intValue { return .int(i) }
            if let b = raw.boolValue { return .int(b ? 1 : 0) }
            return .null
        case .boolean:
            if let b = raw.boolValue { return .bool(b) }
            return raw.doubleValue.map { .bool($0 != 0) } ?? .null
        case .double:
            if let bits = meta?["ieee754_double"]?.intValue { return .double(Double(bitPattern: UInt64(bitPattern: bits))) }
            return raw.doubleValue.map { .double($0) } ?? .null
        case .float:
            if let bits = meta?["ieee754_float"]?.intValue { return .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) }
            return raw.doubleValue.map { .float(Float($0)) } ?? .null
        case .decimal:
            if let s = raw.stringValue, let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")) { return .decimal(d) }
            if let d = raw.doubleValue { return .decimal(Decimal(d)) }
            return .null
        case .date:
            if let bits = meta?["ieee754_reference_date"]?.intValue {
                return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: bits))))
            }
            return raw.doubleValue.map { .date(Date(timeIntervalSince1970: $0)) } ?? .null
        case .uuid: return raw.stringValue.flatMap(UUID.init(uuidString:)).map { .uuid($0) } ?? .null
        case .uri: return raw.stringValue.flatMap(URL.init(string:)).map { .uri($0) } ?? .null
        case .binary, .transformable: return .null
        }
    }
}
