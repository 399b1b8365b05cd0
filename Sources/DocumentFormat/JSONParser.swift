package import Foundation

/// Reads JSON text (RFC 8259) straight into `JSONValue`s, one pass over the UTF-8 bytes.
///
/// It replaces a `JSONSerialization` round trip (Foundation objects, then a conversion), which
/// dominated the cost of reading replication traffic and stored bodies. Integers written
/// without a fraction or exponent that fit in 64 bits stay exact (`int`); every other number is
/// a `double`. A repeated object key keeps its last value. Anything that is not JSON — trailing
/// text, raw control characters in strings, invalid UTF-8, lone surrogate escapes, nesting
/// deeper than `maximumDepth` — is refused with ``DocumentFormatError/invalidJSON(_:)`` naming the
/// byte offset.
package struct JSONParser {
    /// Deeper nesting is refused rather than risking the stack.
    package static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Reused for strings with escapes, so each one does not allocate a new buffer.
    private var scratch: [UInt8] = []

    /// The memory a built value is reckoned to take beyond its text: an enum slot plus its
    /// share of the array or dictionary storage holding it, growth slack included.
    package static let bytesPerValue = 64
    /// Estimated bytes built so far and not yet reported to `meter`.
    private var unreported = 0
    /// `unreported` at which `meter` is told next; never reached when there is no meter.
    private var reportAt = Int.max
    /// Told the estimated bytes built, in steps of `meterStep`; throws to stop the parse.
    private var meter: ((Int) throws -> Void)?
    private let meterStep: Int

    private init(_ bytes: UnsafeBufferPointer<UInt8>, meter: ((Int) throws -> Void)? = nil, meterStep: Int = 1 << 20) {
        self.bytes = bytes
        self.meter = meter
        self.meterStep = meterStep
        if meter != nil { reportAt = meterStep }
    }

    /// Parses one JSON value (any kind) filling the whole of `data`, whitespace aside.
    package static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            try parse(raw.bindMemory(to: UInt8.self))
        }
    }

    /// Parses one JSON value filling the whole of `data`, telling `meter` the memory the value
    /// is estimated to take as it grows (in steps of `step` bytes, then the rest at the end).
    /// An error `meter` throws stops the parse and is rethrown.
    package static func parse(_ data: Data, step: Int, meter: @escaping (Int) throws -> Void) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(raw.bindMemory(to: UInt8.self), meter: meter, meterStep: max(step, 1))
            let value = try parser.parseWhole()
            if parser.unreported > 0 { try meter(parser.unreported) }
            return value
        }
    }

    /// Parses one JSON value filling the whole of `bytes`, whitespace aside.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var parser = JSONParser(bytes)
        return try parser.parseWhole()
    }

    private mutating func parseWhole() throws -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
        return value
    }

    /// Adds `bytes` to the estimate, telling the meter once a step has built up.
    @inline(__always)
    private mutating func account(_ bytes: Int) throws {
        unreported &+= bytes
        if unreported >= reportAt {
            let report = unreported
            unreported = 0
            try meter?(report)
        }
    }

    /// Parses a JSON object filling the whole of `data`, keeping only the members named in
    /// `keys`. The other members' values are stepped over without being built (a stored
    /// body's long arrays of IDs then cost a scan, not an allocation each); a skipped value
    /// is checked only for its brackets and strings, so this is for text already validated,
    /// as stored bodies are. Stored bodies are also canonical (``CanonicalJSON``: each key
    /// once, in the order of their UTF-8 bytes), so the reading stops at the first key that
    /// sorts after every wanted one: a recipe type's name is read without stepping over its
    /// list of 12,500 recipe IDs.
    package static func parseObject(_ data: Data, keeping keys: Set<String>) throws -> JSONObject {
        let lastWanted = keys.max(by: JSONWriter.utf8Precedes)
        return try data.withUnsafeBytes { raw in
            var parser = JSONParser(raw.bindMemory(to: UInt8.self))
            parser.skipWhitespace()
            guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "{") else {
                throw DocumentFormatError.invalidJSON("a document body must be a JSON object")
            }
            // Sized for the kept members up front: growing it costs more than the parse.
            var object = JSONObject(minimumCapacity: keys.count)
            var stopped = false
            try parser.parseMembers(closing: UInt8(ascii: "}"), in: "an object") { parser in
                let key = try parser.parseKey()
                if keys.contains(key) {
                    object[key] = try parser.parseValue()
                    return true
                }
                if let lastWanted, JSONWriter.utf8Precedes(lastWanted, key) {
                    stopped = true
                    return false
                }
                try parser.skipValue()
                return true
            }
            if stopped { return object }
            parser.skipWhitespace()
            guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text after the JSON value") }
            return object
        }
    }

    /// Where the value starting at byte `offset` of `bytes` ends (exclusive), stepping over it
    /// as ``parseObject(_:keeping:)`` steps over members it does not keep: only brackets and
    /// strings are followed, and the value is checked when it is parsed. `nil` when `bytes`
    /// ends before the value does. A reader that holds a chunk of a larger text at a time
    /// (the sample-set reader) finds each value's extent with it, then parses the value.
    package static func endOfValue(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        var parser = JSONParser(bytes)
        parser.index = offset
        do { try parser.skipValue() } catch { return nil }
        return parser.index
    }

    // MARK: Values

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw failure("the text ends where a value was expected") }
        try account(Self.bytesPerValue)
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return .object(try parseObject())
        case UInt8(ascii: "["):
            return .array(try parseArray())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw failure("unexpected character where a value was expected")
        }
    }

    private mutating func parseObject() throws -> JSONObject {
        var object = JSONObject()
        try parseMembers(closing: UInt8(ascii: "}"), in: "an object") { parser in
            let key = try parser.parseKey()
            object[key] = try parser.parseValue()
            return true
        }
        return object
    }

    /// Reads an object member's key and its colon, leaving the cursor on the value.
    private mutating func parseKey() throws -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw failure("an object key must be a string")
        }
        let key = try parseString()
        try account(Self.bytesPerValue)
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw failure("expected ':' after an object key")
        }
        index += 1
        skipWhitespace()
        return key
    }

    /// Moves past one value without building it: a string, a whole container (counting
    /// brackets outside strings), or a scalar up to the next delimiter.
    private mutating func skipValue() throws {
        guard index < bytes.count else { throw failure("the text ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let start = index
            var open = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    try skipString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    open += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    open -= 1
                    if open == 0 {
                        index += 1
                        return
                    }
                default:
                    break
                }
                index += 1
            }
            throw failure("the text ends inside a value", at: start)
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
                default: index += 1
                }
            }
        }
    }

    /// Moves past one string, escapes included.
    private mutating func skipString() throws {
        let start = index
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return
            default: index += 1
            }
        }
        throw failure("the text ends inside a string", at: start)
    }

    private mutating func parseArray() throws -> [JSONValue] {
        var elements: [JSONValue] = []
        try parseMembers(closing: UInt8(ascii: "]"), in: "an array") { parser in
            elements.append(try parser.parseValue())
            return true
        }
        return elements
    }

    /// Reads the comma-separated members of an object or array up to `closing`, one `member`
    /// call each, with the cursor on the opening bracket at the start; a `member` that
    /// returns `false` stops the reading where it is.
    private mutating func parseMembers(closing: UInt8, in container: String,
                                       _ member: (inout JSONParser) throws -> Bool) throws {
        try enterContainer()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == closing {
            index += 1
            depth -= 1
            return
        }
        while true {
            guard try member(&self) else { return }
            skipWhitespace()
            guard index < bytes.count else { throw failure("the text ends inside \(container)") }
            let separator = bytes[index]
            index += 1
            if separator == closing { break }
            guard separator == UInt8(ascii: ",") else {
                throw failure("expected ',' or '\(Character(Unicode.Scalar(closing)))' in \(container)", at: index - 1)
            }
            skipWhitespace()
        }
        depth -= 1
    }

    private mutating func enterContainer() throws {
        depth += 1
        if depth > Self.maximumDepth { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure("unexpected end of the text") }
        let matches = literal.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
            return true
        }
        guard matches else { throw failure("unexpected characters where a value was expected") }
        index += count
    }

    // MARK: Numbers

    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number needs digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw failure("a number may not have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a fraction needs digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("an exponent needs digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if integral, index - start <= 20 {
            // Accumulate negatively so Int64.min is reachable; overflow falls back to a double.
            var value: Int64 = 0
            var overflow = false
            for position in (negative ? start + 1 : start)..<index {
                let digit = Int64(bytes[position] &- UInt8(ascii: "0"))
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times.subtractingReportingOverflow(digit)
                if o1 || o2 {
                    overflow = true
                    break
                }
                value = next
            }
            if !overflow {
                if negative { return .int(value) }
                if value != Int64.min { return .int(-value) }
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text) else { throw failure("unreadable number", at: start) }
        return .double(double)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Strings

    private mutating func parseString() throws -> String {
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes between the quotes are the string.
        var nonASCII: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let utf8 = UnsafeBufferPointer(rebasing: bytes[start..<index])
                // ASCII needs no validation (the common case: keys, IDs, base64 attachment data).
                let string = nonASCII & 0x80 == 0 ? String(decoding: utf8, as: UTF8.self) : try makeString(utf8, at: start)
                index += 1
                try account(utf8.count)
                return string
            }
            nonASCII |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("a raw control character inside a string") }
            index += 1
        }
        guard index < bytes.count else { throw failure("the text ends inside a string", at: start - 1) }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                try account(scratch.count)
                return try scratch.withUnsafeBufferPointer { try makeString($0, at: start) }
            case UInt8(ascii: "\\"):
                index += 1
                try appendEscape()
            case 0..<0x20:
                throw failure("a raw control character inside a string")
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw failure("the text ends inside a string", at: start - 1)
    }

    private mutating func appendEscape() throws {
        switch JSONEscape.decode(bytes, at: &index, into: &scratch) {
        case nil: return
        case .truncated: throw failure("the text ends inside an escape")
        case .shortHex: throw failure("the text ends inside a \\u escape")
        case .badHex: throw failure("a \\u escape needs four hex digits")
        case .loneSurrogate: throw failure("a lone surrogate in a \\u escape")
        case .unknown(let byte): throw failure("an unknown escape '\\\(Character(Unicode.Scalar(byte)))'", at: index - 2)
        }
    }

    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> String {
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw failure("a string holds invalid UTF-8", at: offset)
        }
        return string
    }

    // MARK: Whitespace and errors

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func failure(_ reason: String, at offset: Int? = nil) -> DocumentFormatError {
        .invalidJSON("\(Self.syntaxPrefix)\(reason)\(Self.offsetMarker)\(offset ?? index)")
    }

    private static let syntaxPrefix = "the text is not JSON: "
    private static let offsetMarker = " at byte "

    /// The fault and its byte offset in an error this parser threw for text that is not JSON
    /// (`nil` for any other error), so a caller can point at the line and column without
    /// parsing the text a second time.
    package static func syntaxFault(in error: any Error) -> (reason: String, offset: Int)? {
        guard case .invalidJSON(let message) = error as? DocumentFormatError, message.hasPrefix(syntaxPrefix),
              let marker = message.range(of: offsetMarker, options: .backwards),
              let offset = Int(message[marker.upperBound...]) else { return nil }
        return (String(message[message.index(message.startIndex, offsetBy: syntaxPrefix.count)..<marker.lowerBound]), offset)
    }
}
