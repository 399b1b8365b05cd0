/// Erlang's external term format, the bytes `term_to_binary/2` writes with
/// `[{minor_version, 1}]` on OTP 25 (the runtime CouchDB 3.4.3 ships), for the few kinds of
/// term a CouchDB revision ID hashes: atoms, integers, floats, binaries, lists and tuples.
///
/// Each function appends one term (or the head of one) to `out`; lists and tuples are written
/// as a header followed by their elements.
package enum ErlangTerm {
    /// The version byte every encoded term starts with.
    package static let version: UInt8 = 131

    private static let newFloat: UInt8 = 70
    private static let smallInteger: UInt8 = 97
    private static let integer: UInt8 = 98
    private static let atom: UInt8 = 100
    private static let smallTuple: UInt8 = 104
    private static let emptyList: UInt8 = 106
    private static let string: UInt8 = 107
    private static let list: UInt8 = 108
    private static let binary: UInt8 = 109
    private static let smallBig: UInt8 = 110
    private static let largeBig: UInt8 = 111

    /// An atom of Latin-1 characters, as OTP 25 writes it without `minor_version` 2:
    /// `ATOM_EXT`, a 2-byte length and the characters.
    package static func appendAtom(_ name: StaticString, to out: inout [UInt8]) {
        let count = name.utf8CodeUnitCount
        out.append(atom)
        out.append(UInt8(truncatingIfNeeded: count >> 8))
        out.append(UInt8(truncatingIfNeeded: count))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// `true` or `false`.
    package static func appendBool(_ value: Bool, to out: inout [UInt8]) {
        appendAtom(value ? "true" : "false", to: &out)
    }

    /// An integer in its smallest form: one byte for 0...255, four for a 32-bit value, else
    /// a bignum of the magnitude's bytes, least significant first.
    package static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value >= 0, value <= 255 {
            out.append(smallInteger)
            out.append(UInt8(value))
        } else if let small = Int32(exactly: value) {
            out.append(integer)
            appendUInt32(UInt32(bitPattern: small), to: &out)
        } else {
            var magnitude = value.magnitude
            var digits: [UInt8] = []
            while magnitude > 0 {
                digits.append(UInt8(truncatingIfNeeded: magnitude))
                magnitude >>= 8
            }
            appendBignum(littleEndianMagnitude: digits, negative: value < 0, to: &out)
        }
    }

    /// A bignum from its magnitude's bytes, least significant first, without trailing zero
    /// bytes (the caller uses ``appendInteger(_:to:)`` for values that fit in 32 bits).
    package static func appendBignum(littleEndianMagnitude digits: [UInt8], negative: Bool, to out: inout [UInt8]) {
        if digits.count <= 255 {
            out.append(smallBig)
            out.append(UInt8(digits.count))
        } else {
            out.append(largeBig)
            appendUInt32(UInt32(truncatingIfNeeded: digits.count), to: &out)
        }
        out.append(negative ? 1 : 0)
        out.append(contentsOf: digits)
    }

    /// A float as `NEW_FLOAT_EXT`: its IEEE 754 bits, big-endian.
    package static func appendFloat(_ value: Double, to out: inout [UInt8]) {
        out.append(newFloat)
        let bits = value.bitPattern
        for shift in stride(from: 56, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }

    /// A binary: `BINARY_EXT`, a 4-byte length and the bytes.
    package static func appendBinary(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
        out.append(binary)
        appendUInt32(UInt32(truncatingIfNeeded: bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    /// The head of a tuple of `arity` (at most 255) elements, which follow.
    package static func appendTupleHeader(arity: UInt8, to out: inout [UInt8]) {
        out.append(smallTuple)
        out.append(arity)
    }

    /// The longest list of bytes written as a string (`STRING_EXT`); a longer one is a list.
    package static let maximumStringLength = 65535

    /// A non-empty list of integers 0...255, at most ``maximumStringLength`` of them, as
    /// `term_to_binary` writes it: `STRING_EXT`, a 2-byte length and the bytes.
    package static func appendString(_ values: [UInt8], to out: inout [UInt8]) {
        out.append(string)
        out.append(UInt8(truncatingIfNeeded: values.count >> 8))
        out.append(UInt8(truncatingIfNeeded: values.count))
        out.append(contentsOf: values)
    }

    /// The empty list, `[]`.
    package static func appendEmptyList(to out: inout [UInt8]) {
        out.append(emptyList)
    }

    /// The head of a proper list of `count` elements (at least one); the elements follow,
    /// then ``appendEmptyList(to:)`` as its tail. Returns the offset of the count, for
    /// ``patchListCount(_:at:in:)`` when the count is known only later.
    @discardableResult
    package static func appendListHeader(count: Int, to out: inout [UInt8]) -> Int {
        out.append(list)
        let offset = out.count
        appendUInt32(UInt32(truncatingIfNeeded: count), to: &out)
        return offset
    }

    /// Writes a list's element count at `offset`, as returned by ``appendListHeader(count:to:)``.
    package static func patchListCount(_ count: Int, at offset: Int, in out: inout [UInt8]) {
        let value = UInt32(truncatingIfNeeded: count)
        out[offset] = UInt8(truncatingIfNeeded: value >> 24)
        out[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        out[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        out[offset + 3] = UInt8(truncatingIfNeeded: value)
    }

    private static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value >> 24))
        out.append(UInt8(truncatingIfNeeded: value >> 16))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value))
    }
}
