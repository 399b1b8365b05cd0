import Foundation

/// Reads JSON text the way CouchDB 3.4.3's decoder (jiffy 1.1.2 with `dedupe_keys`) does and
/// writes the Erlang term it would build, in the external term format (``ErlangTerm``):
/// objects as `{[{Key, Value}, …]}` in the order received, arrays as lists, strings as UTF-8
/// binaries, `true`/`false`/`null` as atoms, and numbers as jiffy makes them.
///
/// jiffy's rules, checked against a live CouchDB:
/// - a repeated key keeps its last value, at the place of its last occurrence;
/// - a number without fraction or exponent is an exact integer, however large;
/// - a number with a fraction or exponent is a float, read with correct rounding, except that
///   one with an exponent and no fraction that is too long (32 characters or more) or that
///   underflows or overflows is computed as `Mantissa * math:pow(10, Exponent)`;
/// - a float that overflows is refused, and so is an integer beyond the largest double
///   (CouchDB fails on it with 500 `badarith`);
/// - a `\u` escape of a lone surrogate is refused.
///
/// Only the parser's caller sees the bytes it borrows; nothing escapes the call.
struct EJSONTermEncoder {
    /// jiffy reads a number of fewer characters than this with `strtod`/`strtol`.
    private static let numberBufferLength = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0
    private var depth = 0

    /// A reader of `bytes` from `index`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    // MARK: values

    /// Encodes the value at the current position and moves past it.
    mutating func value(into out: inout [UInt8]) throws(DocumentFormatError) {
        skipWhitespace()
        guard index < bytes.count else { throw Self.failure("the JSON ends early") }
        switch bytes[index] {
        case UInt8(ascii: "{"): _ = try object(into: &out)
        case UInt8(ascii: "["): try array(into: &out)
        case UInt8(ascii: "\""): try string(into: &out)
        case UInt8(ascii: "t"): try literal("true", into: &out)
        case UInt8(ascii: "f"): try literal("false", into: &out)
        case UInt8(ascii: "n"): try literal("null", into: &out)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(into: &out)
        default: throw Self.failure("unexpected byte at offset \(index)")
        }
    }

    /// Checks that only whitespace follows the value read.
    mutating func end() throws(DocumentFormatError) {
        skipWhitespace()
        guard index == bytes.count else { throw Self.failure("text follows the JSON value") }
    }

    /// Encodes the object at the current position. `skipping` decides, per key, whether a
    /// member stays out of the object; `skipped` is told each such member with its value's
    /// encoding. Returns the offsets in `out` of the members kept, after duplicates are
    /// removed.
    mutating func object(into out: inout [UInt8],
                         skipping: (ArraySlice<UInt8>) -> Bool = { _ in false },
                         skipped: (ArraySlice<UInt8>, [UInt8], [Int]) -> Void = { _, _, _ in }) throws(DocumentFormatError) -> [Int] {
        try enter()
        defer { depth -= 1 }
        index += 1  // {
        ErlangTerm.appendTupleHeader(arity: 1, to: &out)
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            ErlangTerm.appendEmptyList(to: &out)
            return []
        }
        let countOffset = ErlangTerm.appendListHeader(count: 0, to: &out)
        var starts: [Int] = []
        var scratch: [UInt8] = []
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Self.failure("an object key must be a string") }
            let start = out.count
            ErlangTerm.appendTupleHeader(arity: 2, to: &out)
            try string(into: &out)
            try expect(UInt8(ascii: ":"))
            let key = out[(start + 7)...]
            if skipping(key) {
                let name = ArraySlice(Array(key))
                out.removeSubrange(start...)
                scratch.removeAll(keepingCapacity: true)
                var innerStarts: [Int] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                    innerStarts = try object(into: &scratch)
                } else {
                    try value(into: &scratch)
                }
                skipped(name, scratch, innerStarts)
            } else {
                try value(into: &out)
                starts.append(start)
            }
            skipWhitespace()
            guard index < bytes.count else { throw Self.failure("an object is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { throw Self.failure("expected ',' or '}' at offset \(index)") }
            index += 1
            break
        }
        starts = Self.removeDuplicates(starts, in: &out)
        if starts.isEmpty {
            // Every member was skipped: the object is `{[]}`.
            out.removeSubrange((countOffset - 1)...)
            ErlangTerm.appendEmptyList(to: &out)
        } else {
            ErlangTerm.patchListCount(starts.count, at: countOffset, in: &out)
            ErlangTerm.appendEmptyList(to: &out)
        }
        return starts
    }

    /// The members of the object at the current position, each with its decoded key and the
    /// byte range of its value, in the order received (duplicates kept); moves past it.
    mutating func memberRanges() throws(DocumentFormatError) -> [(key: [UInt8], value: Range<Int>)] {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw Self.failure("expected an object") }
        index += 1
        var members: [(key: [UInt8], value: Range<Int>)] = []
        var scratch: [UInt8] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return members }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Self.failure("an object key must be a string") }
            scratch.removeAll(keepingCapacity: true)
            try string(into: &scratch)
            let key = Array(scratch.dropFirst(5))
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let start = index
            scratch.removeAll(keepingCapacity: true)
            try value(into: &scratch)
            members.append((key, start..<index))
            skipWhitespace()
            guard index < bytes.count else { throw Self.failure("an object is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { throw Self.failure("expected ',' or '}' at offset \(index)") }
            index += 1
            return members
        }
    }

    /// The byte ranges of the elements of the array at the current position; moves past it.
    mutating func elementRanges() throws(DocumentFormatError) -> [Range<Int>] {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { throw Self.failure("expected an array") }
        index += 1
        var ranges: [Range<Int>] = []
        var scratch: [UInt8] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return ranges }
        while true {
            skipWhitespace()
            let start = index
            scratch.removeAll(keepingCapacity: true)
            try value(into: &scratch)
            ranges.append(start..<index)
            skipWhitespace()
            guard index < bytes.count else { throw Self.failure("an array is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "]") else { throw Self.failure("expected ',' or ']' at offset \(index)") }
            index += 1
            return ranges
        }
    }

    /// The key of the member encoded at `start`: `{2, Binary, Value}` with the binary's bytes
    /// from `start + 7`.
    static func key(at start: Int, in out: [UInt8]) -> ArraySlice<UInt8> {
        let length = Int(out[start + 3]) << 24 | Int(out[start + 4]) << 16 | Int(out[start + 5]) << 8 | Int(out[start + 6])
        return out[(start + 7)..<(start + 7 + length)]
    }

    /// Keeps, of members with equal keys, the last, where it stands (jiffy's `dedupe_keys`).
    private static func removeDuplicates(_ starts: [Int], in out: inout [UInt8]) -> [Int] {
        guard starts.count > 1 else { return starts }
        var keep = [Bool](repeating: true, count: starts.count)
        var found = false
        if starts.count <= 16 {
            for earlier in starts.indices {
                let name = Self.key(at: starts[earlier], in: out)
                for later in (earlier + 1)..<starts.count where name == Self.key(at: starts[later], in: out) {
                    keep[earlier] = false
                    found = true
                    break
                }
            }
        } else {
            var seen = Set<ArraySlice<UInt8>>()
            for position in starts.indices.reversed() where !seen.insert(key(at: starts[position], in: out)).inserted {
                keep[position] = false
                found = true
            }
        }
        guard found else { return starts }
        let first = starts[0]
        let region = Array(out[first...])
        out.removeSubrange(first...)
        var kept: [Int] = []
        for position in starts.indices where keep[position] {
            let end = position + 1 < starts.count ? starts[position + 1] : first + region.count
            kept.append(out.count)
            out.append(contentsOf: region[(starts[position] - first)..<(end - first)])
        }
        return kept
    }

    private mutating func array(into out: inout [UInt8]) throws(DocumentFormatError) {
        try enter()
        defer { depth -= 1 }
        index += 1  // [
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            ErlangTerm.appendEmptyList(to: &out)
            return
        }
        let countOffset = ErlangTerm.appendListHeader(count: 0, to: &out)
        var count = 0
        var allBytes = true
        while true {
            let start = out.count
            try value(into: &out)
            count += 1
            if allBytes, out.count - start != 2 || out[start] != 97 { allBytes = false }
            skipWhitespace()
            guard index < bytes.count else { throw Self.failure("an array is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "]") else { throw Self.failure("expected ',' or ']' at offset \(index)") }
            index += 1
            break
        }
        if allBytes, count <= ErlangTerm.maximumStringLength {
            // `term_to_binary` writes a list of integers 0...255 as a string of bytes.
            var values: [UInt8] = []
            values.reserveCapacity(count)
            for position in 0..<count { values.append(out[countOffset + 4 + 2 * position + 1]) }
            out.removeSubrange((countOffset - 1)...)
            ErlangTerm.appendString(values, to: &out)
            return
        }
        ErlangTerm.patchListCount(count, at: countOffset, in: &out)
        ErlangTerm.appendEmptyList(to: &out)
    }

    private mutating func literal(_ word: StaticString, into out: inout [UInt8]) throws(DocumentFormatError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count,
              word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<(index + count)]) })
        else { throw Self.failure("unexpected byte at offset \(index)") }
        index += count
        ErlangTerm.appendAtom(word, to: &out)
    }

    // MARK: strings

    /// A string as a binary of its UTF-8 bytes, escapes decoded.
    private mutating func string(into out: inout [UInt8]) throws(DocumentFormatError) {
        index += 1  // "
        out.append(109)
        let lengthOffset = out.count
        out.append(contentsOf: [0, 0, 0, 0])
        let contentStart = out.count
        var runStart = index
        while true {
            guard index < bytes.count else { throw Self.failure("a string is not closed") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            if byte < 0x20 { throw Self.failure("a string holds an unescaped control character") }
            if byte == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[runStart..<index])
                try escape(into: &out)
                runStart = index
                continue
            }
            index += 1
        }
        ErlangTerm.patchListCount(out.count - contentStart, at: lengthOffset, in: &out)
    }

    private mutating func escape(into out: inout [UInt8]) throws(DocumentFormatError) {
        index += 1  // backslash
        switch JSONEscape.decode(bytes, at: &index, into: &out) {
        case nil: return
        case .truncated: throw Self.failure("a string is not closed")
        case .shortHex: throw Self.failure("a \\u escape is cut short")
        case .badHex: throw Self.failure("a \\u escape holds a non-hex digit")
        case .loneSurrogate(let scalar): throw Self.failure("a string holds a lone surrogate (\\u\(String(scalar, radix: 16)))")
        case .unknown: throw Self.failure("a string holds an invalid escape")
        }
    }

    // MARK: numbers

    private mutating func number(into out: inout [UInt8]) throws(DocumentFormatError) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw Self.failure("a number has no digits") }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        let mantissaEnd = index
        var hasFraction = false
        var hasExponent = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw Self.failure("a number's fraction has no digits") }
            skipDigits()
            hasFraction = true
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw Self.failure("a number's exponent has no digits") }
            skipDigits()
            hasExponent = true
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        let short = index - start < Self.numberBufferLength

        if !hasFraction && !hasExponent {
            if short, let value = Int64(text) {
                ErlangTerm.appendInteger(value, to: &out)
            } else {
                try Self.appendBigInteger(text, to: &out)
            }
            return
        }
        if short, let value = Double(text), !Self.isRangeError(value, text: bytes[start..<index]) {
            ErlangTerm.appendFloat(value, to: &out)
            return
        }
        if hasFraction {
            // `list_to_float`: correctly rounded, refused when it overflows.
            guard let value = Double(text), value.isFinite else { throw Self.failure("the number \(text) is out of range") }
            ErlangTerm.appendFloat(value, to: &out)
            return
        }
        // `Mantissa * math:pow(10, Exponent)`, each step refused when it overflows.
        let mantissaText = String(decoding: bytes[start..<mantissaEnd], as: UTF8.self)
        let exponentText = String(decoding: bytes[(mantissaEnd + 1)..<index], as: UTF8.self)
        let mantissa = Int64(mantissaText).map(Double.init) ?? Double(mantissaText)
        guard let mantissa, mantissa.isFinite, let exponent = Double(exponentText) else {
            throw Self.failure("the number \(text) is out of range")
        }
        let scale = pow(10.0, exponent)
        let value = mantissa * scale
        guard scale.isFinite, value.isFinite else { throw Self.failure("the number \(text) is out of range") }
        ErlangTerm.appendFloat(value, to: &out)
    }

    /// Whether `strtod` reports `ERANGE` for this text: the value overflows, or underflows to
    /// zero or to a subnormal from digits that are not all zero.
    private static func isRangeError(_ value: Double, text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        if !value.isFinite { return true }
        if value.isSubnormal { return true }
        if value == 0 {
            let mantissa = text.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            return mantissa.contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
        }
        return false
    }

    /// An integer beyond 64 bits as an exact bignum; refused past the largest double, where
    /// CouchDB fails (500 `badarith`).
    private static func appendBigInteger(_ text: String, to out: inout [UInt8]) throws(DocumentFormatError) {
        guard let approximate = Double(text), approximate.isFinite else {
            throw failure("the integer \(text.prefix(24))… is beyond the largest number CouchDB accepts")
        }
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        // Base 10^9 limbs, least significant first, built by multiply-and-add.
        var limbs: [UInt32] = []
        var position = digits.startIndex
        let firstChunk = digits.count % 9 == 0 ? 9 : digits.count % 9
        var chunkLength = firstChunk
        while position < digits.endIndex {
            let end = digits.index(position, offsetBy: chunkLength)
            guard let chunk = UInt64(digits[position..<end]) else { throw failure("the integer \(text) is malformed") }
            var carry = chunk
            for limb in limbs.indices {
                let product = UInt64(limbs[limb]) * 1_000_000_000 + carry
                limbs[limb] = UInt32(truncatingIfNeeded: product)
                carry = product >> 32
            }
            while carry > 0 {
                limbs.append(UInt32(truncatingIfNeeded: carry))
                carry >>= 32
            }
            position = end
            chunkLength = 9
        }
        var magnitude: [UInt8] = []
        magnitude.reserveCapacity(limbs.count * 4)
        for limb in limbs {
            for shift in stride(from: 0, to: 32, by: 8) { magnitude.append(UInt8(truncatingIfNeeded: limb >> UInt32(shift))) }
        }
        while magnitude.last == 0 { magnitude.removeLast() }
        ErlangTerm.appendBignum(littleEndianMagnitude: magnitude, negative: negative, to: &out)
    }

    // MARK: helpers

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(DocumentFormatError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else {
            throw Self.failure("expected '\(Character(Unicode.Scalar(byte)))' at offset \(index)")
        }
        index += 1
    }

    private mutating func enter() throws(DocumentFormatError) {
        depth += 1
        guard depth <= JSONParser.maximumDepth else {
            throw Self.failure("the JSON nests deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    private static func failure(_ reason: String) -> DocumentFormatError {
        .invalidJSON(reason)
    }
}
