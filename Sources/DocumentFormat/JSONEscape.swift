/// Decoding one backslash escape of a JSON string (RFC 8259 §7), `\u` surrogate pairs
/// included: the one reading shared by ``JSONParser`` and the revision-ID term encoder, which
/// word their refusals each their own way.
package enum JSONEscape {
    /// Why an escape is not JSON.
    package enum Fault: Error, Equatable {
        /// The text ends where the escaped character was due.
        case truncated
        /// The text ends inside the four hex digits of a `\u` escape.
        case shortHex
        /// A `\u` escape holds a character that is not a hex digit.
        case badHex
        /// A surrogate `\u` escape without its pair; the surrogate met first.
        case loneSurrogate(UInt32)
        /// A backslash before a character JSON does not escape.
        case unknown(UInt8)
    }

    /// Appends to `out` the UTF-8 of the escape whose character (after the backslash) is at
    /// `index`, leaving `index` after it; on a fault, `index` is where the reading stopped.
    @inline(__always)
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int,
                               into out: inout [UInt8]) -> Fault? {
        guard index < bytes.count else { return .truncated }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar: UInt32 = 0
            if let fault = hex4(bytes, at: &index, into: &scalar) { return fault }
            if (0xD800..<0xDC00).contains(scalar) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    return .loneSurrogate(scalar)
                }
                index += 2
                var low: UInt32 = 0
                if let fault = hex4(bytes, at: &index, into: &low) { return fault }
                guard (0xDC00..<0xE000).contains(low) else { return .loneSurrogate(scalar) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                return .loneSurrogate(scalar)
            }
            // Surrogates are gone and four hex digits stay below 0x110000: always a scalar.
            for unit in UTF8.encode(Unicode.Scalar(scalar)!)! { out.append(unit) }
        default:
            return .unknown(byte)
        }
        return nil
    }

    /// Reads four hex digits at `index` into `value`.
    @inline(__always)
    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, into value: inout UInt32) -> Fault? {
        guard bytes.count - index >= 4 else { return .shortHex }
        value = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return .badHex
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return nil
    }
}
