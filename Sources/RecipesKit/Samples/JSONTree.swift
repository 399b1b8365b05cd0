import DocumentStore
import Foundation

/// A parsed JSON value that keeps booleans, numbers and `null` apart, so validation can say
/// exactly what it found ("found a boolean") on every platform.
///
/// Internal to the sample loaders: `JSONSerialization` on Linux hands back `NSNumber` for
/// both booleans and numbers, which would blur those messages.
enum JSONTree: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    /// The same value from the store's JSON model (integers and doubles become numbers).
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(JSONTree.init))
        case .object(let members): self = .object(members.mapValues(JSONTree.init))
        }
    }

    /// A phrase naming the kind of value, for "found …" in messages.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string(let text): text.isEmpty ? "an empty string" : "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Parses `data`, turning Foundation's syntax errors into a detail text plus the line and
    /// column Foundation reports (when it reports them).
    static func parse(_ data: Data) -> Result<JSONTree, JSONSyntaxError> {
        // The store's parser reads a large set several times faster than `JSONDecoder`;
        // Foundation is asked again only to locate a syntax error.
        if let value = try? JSONValue.parse(data) { return .success(JSONTree(value)) }
        do {
            return .success(try JSONDecoder().decode(JSONTree.self, from: data))
        } catch let error as DecodingError {
            return .failure(JSONSyntaxError(error, data: data))
        } catch {
            return .failure(JSONSyntaxError(detail: String(describing: error), line: nil, column: nil))
        }
    }
}

/// Why a byte sequence is not JSON, with the line and column of the fault when Foundation
/// locates it.
///
/// `JSONDecoder` only says "not valid JSON"; `JSONSerialization` names the fault and where
/// it is — as "line N, column M" in newer Foundations, or as a byte offset ("around
/// character N") in swift-corelibs-foundation, which this turns into a line and column.
struct JSONSyntaxError: Error, Equatable, Sendable {
    var detail: String
    var line: Int?
    var column: Int?

    init(detail: String, line: Int?, column: Int?) {
        self.detail = detail
        self.line = line
        self.column = column
    }

    init(_ error: DecodingError, data: Data) {
        var detail: String?
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let nsError = error as NSError
            detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        }
        if detail == nil, case .dataCorrupted(let context) = error {
            detail = context.debugDescription
        }
        let text = detail ?? String(describing: error)
        self.detail = text
        if let position = Self.linePosition(in: text) {
            self.line = position.line
            self.column = position.column
        } else if let offset = Self.byteOffset(in: text) {
            let position = Self.position(ofByte: offset, in: data)
            self.line = position.line
            self.column = position.column
        } else {
            self.line = nil
            self.column = nil
        }
    }

    /// "line N, column M" in Foundation's message.
    static func linePosition(in text: String) -> (line: Int, column: Int)? {
        guard let range = text.range(of: #"line (\d+), column (\d+)"#, options: .regularExpression) else { return nil }
        let numbers = text[range].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count == 2 else { return nil }
        return (numbers[0], numbers[1])
    }

    /// The 0-based byte offset in "around character N".
    static func byteOffset(in text: String) -> Int? {
        guard let range = text.range(of: #"character (\d+)"#, options: .regularExpression) else { return nil }
        return Int(text[range].filter(\.isNumber))
    }

    /// The 1-based line and column (in characters) of byte `offset` of `data`.
    static func position(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        let bytes = Array(data.prefix(max(0, offset)))
        let line = 1 + bytes.count { $0 == UInt8(ascii: "\n") }
        let lineStart = (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
        let column = String(decoding: bytes[lineStart...], as: UTF8.self).count + 1
        return (line, column)
    }
}
