import DocumentStore
import Foundation
import DocumentFormat

/// The one way `--json` output is made: any `Encodable` becomes a `JSONValue` in which an
/// absent optional is written as `null` instead of being left out, so every documented key is
/// always present, and a field added to a type shows up in the output with no hand-written
/// `encode(to:)`. ``pretty(_:)`` then prints it with sorted keys and two-space indentation,
/// ``line(_:)`` on one line (a record a line, as `sync --live --json` streams them).
///
/// A type printed in bulk (20,000 list lines) may build its form directly by conforming
/// to ``JSONOutputRepresentable``; a test holds it equal to the generic form.
///
/// Dates are written as Foundation's `JSONEncoder` writes them by default (seconds since
/// 2001), `Data` as base64 and URLs as their text.
enum JSONOutputEncoder {
    /// The JSON form of `value`.
    static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        if let fast = value as? any JSONOutputRepresentable { return fast.jsonOutput }
        return try generic(value)
    }

    /// The JSON form of `value` through its `Encodable` conformance alone (what a type's
    /// ``JSONOutputRepresentable/jsonOutput`` must equal).
    static func generic<T: Encodable>(_ value: T) throws -> JSONValue {
        try Box.encode(value, codingPath: [])
    }

    /// `value` as pretty-printed UTF-8 with sorted keys; an empty array is `[]`.
    static func pretty(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        write(value, indent: 0, to: &out)
        return out
    }

    /// `value` on one line, with sorted keys.
    static func line(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        _ = writer.append(value, to: &out)
        return out
    }

    /// Appends `value` pretty-printed as it appears nested `indent` spaces deep (its first
    /// line unindented, its closing bracket at `indent`), so callers can write a document
    /// piece by piece and get the bytes ``pretty(_:)`` gives for the whole.
    static func appendPretty(_ value: JSONValue, indent: Int, to out: inout [UInt8]) {
        write(value, indent: indent, to: &out)
    }

    /// Appends a line break and `indent` spaces: where a pretty-printed member or element
    /// begins.
    static func newline(_ indent: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { out.append(UInt8(ascii: " ")) }
    }

    private static let writer = JSONWriter.canonical

    private static func write(_ value: JSONValue, indent: Int, to out: inout [UInt8]) {
        switch value {
        case .array(let items):
            guard !items.isEmpty else { out.append(contentsOf: [UInt8(ascii: "["), UInt8(ascii: "]")]); return }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 2, to: &out)
                write(item, indent: indent + 2, to: &out)
            }
            newline(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { out.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")]); return }
            out.append(UInt8(ascii: "{"))
            for (index, key) in JSONWriter.sortedKeys(members).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 2, to: &out)
                JSONWriter.appendString(key, to: &out)
                out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
                write(members[key]!, indent: indent + 2, to: &out)
            }
            newline(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        default:
            writer.append(value, to: &out)
        }
    }

    /// A value under construction: containers write into nodes, nested containers hang new
    /// nodes under their parent at once, and ``json`` reads the finished tree.
    private final class Node {
        enum Content {
            case value(JSONValue)
            case object([String: Node])
            case array([Node])
        }

        var content: Content = .value(.null)

        var json: JSONValue {
            switch content {
            case .value(let value): return value
            case .object(let members): return .object(members.mapValues(\.json))
            case .array(let items): return .array(items.map(\.json))
            }
        }

        /// The node as an object (made one if it was not), with `member` set.
        func set(_ member: Node, forKey key: String) {
            guard case .object(var members) = content else { content = .object([key: member]); return }
            content = .value(.null)
            members[key] = member
            content = .object(members)
        }

        func append(_ item: Node) {
            guard case .array(var items) = content else { content = .array([item]); return }
            content = .value(.null)
            items.append(item)
            content = .array(items)
        }

        static func leaf(_ value: JSONValue) -> Node {
            let node = Node()
            node.content = .value(value)
            return node
        }
    }

    /// An encoder writing into one node.
    private struct Box: Encoder {
        let node: Node
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        /// Encodes one value, with the special forms of `Date`, `Data` and `URL`.
        static func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
            try node(for: value, codingPath: codingPath).json
        }

        static func node<T: Encodable>(for value: T, codingPath: [any CodingKey]) throws -> Node {
            switch value {
            case let date as Date: return .leaf(.double(date.timeIntervalSinceReferenceDate))
            case let data as Data: return .leaf(.string(data.base64EncodedString()))
            case let url as URL: return .leaf(.string(url.absoluteString))
            default:
                let node = Node()
                try value.encode(to: Box(node: node, codingPath: codingPath))
                return node
            }
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object = node.content {} else { node.content = .object([:]) }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = node.content {} else { node.content = .array([]) }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
    }

    /// An object's members; an absent optional is `null`.
    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey]

        private func put(_ value: JSONValue, _ key: Key) { node.set(.leaf(value), forKey: key.stringValue) }

        mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { put(.double(Double(value)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(value), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.set(try Box.node(for: value, codingPath: codingPath + [key]), forKey: key.stringValue)
        }

        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { put(value.map(JSONValue.bool) ?? .null, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { put(value.map(JSONValue.string) ?? .null, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { put(value.map(JSONValue.double) ?? .null, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { put(value.map { .int(Int64($0)) } ?? .null, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { put(value.map(JSONValue.int) ?? .null, key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return put(.null, key) }
            try encode(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = Node()
            node.set(child, forKey: key.stringValue)
            return Box(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node()
            node.set(child, forKey: key.stringValue)
            return Box(node: child, codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { Box(node: node, codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = Node()
            node.set(child, forKey: key.stringValue)
            return Box(node: child, codingPath: codingPath + [key])
        }
    }

    /// An array's elements.
    private struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]
        var count: Int { if case .array(let items) = node.content { items.count } else { 0 } }

        mutating func encodeNil() throws { node.append(.leaf(.null)) }
        mutating func encode(_ value: Bool) throws { node.append(.leaf(.bool(value))) }
        mutating func encode(_ value: String) throws { node.append(.leaf(.string(value))) }
        mutating func encode(_ value: Double) throws { node.append(.leaf(.double(value))) }
        mutating func encode(_ value: Int) throws { node.append(.leaf(.int(Int64(value)))) }
        mutating func encode<T: Encodable>(_ value: T) throws { node.append(try Box.node(for: value, codingPath: codingPath)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Node()
            node.append(child)
            return Box(node: child, codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Node()
            node.append(child)
            return Box(node: child, codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            let child = Node()
            node.append(child)
            return Box(node: child, codingPath: codingPath)
        }
    }

    /// A single value.
    private struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.content = .value(.null) }
        mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
        mutating func encode(_ value: Double) throws { node.content = .value(.double(value)) }
        mutating func encode(_ value: Float) throws { node.content = .value(.double(Double(value))) }
        mutating func encode(_ value: Int) throws { node.content = .value(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { node.content = .value(.int(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { node.content = try Box.node(for: value, codingPath: codingPath).content }
    }
}
