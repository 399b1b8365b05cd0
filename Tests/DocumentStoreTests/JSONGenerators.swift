import DocumentStore
import PropertyBased
import DocumentFormat

/// Random JSON values, JSON-ish byte soup and mutations of valid JSON text for the parser's
/// property tests. Every generator draws only from the random number generator it is given,
/// so a failing case replays from the seed PropertyBased reports.
enum JSONGenerators {
    /// Whole JSON values up to four levels deep, with every kind of number and string.
    static let value = Generator<JSONValue, Shrink.None<JSONValue>>(run: { rng in randomValue(&rng, depth: 4) })

    /// Byte strings up to about 60 fragments long: JSON punctuation, literals, numbers at and
    /// past the 64-bit edges, escapes, lone surrogates, invalid UTF-8 and plain random bytes.
    static let byteSoup = Generator<[UInt8], Shrink.None<[UInt8]>>(run: { rng in
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...60, using: &rng) {
            if Int.random(in: 0..<4, using: &rng) == 0 {
                bytes.append(UInt8.random(in: 0...255, using: &rng))
            } else {
                bytes.append(contentsOf: fragments.randomElement(using: &rng)!)
            }
        }
        return bytes
    })

    /// The text of a valid value with one to four byte-level mutations applied.
    static let mutatedText = Generator<[UInt8], Shrink.None<[UInt8]>>(run: { rng in
        var bytes = Array(JSONWriter.canonical.data(randomValue(&rng, depth: 3)))
        for _ in 0..<Int.random(in: 1...4, using: &rng) { mutate(&bytes, &rng) }
        return bytes
    })

    /// Pieces that make the parser's branches likely to be reached.
    static let fragments: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud83d", "\\ude00", "\\u00e9", "\\x", "d800",
        "true", "false", "null", "tru", "nul", "-", "0", "00", "1", "9", ".", "e", "E+", "e-", "1e309",
        "-0", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "0.000000000000000000001", " ", "\n", "\t", "\"a\"", "\"k\":",
        "é", "😀",
    ].map { Array($0.utf8) } + [
        [0x00], [0x1F], [0x7F], [0x80], [0xC0, 0x80], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xFE], [0xFF], [0xEF, 0xBB, 0xBF],
    ]

    /// One mutation: replace, insert, delete, duplicate or truncate.
    static func mutate(_ bytes: inout [UInt8], _ rng: inout some RandomNumberGenerator) {
        let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<5, using: &rng) {
        case 0 where !bytes.isEmpty:
            bytes[position] = UInt8.random(in: 0...255, using: &rng)
        case 1:
            bytes.insert(contentsOf: fragments.randomElement(using: &rng)!, at: position)
        case 2 where !bytes.isEmpty:
            let end = min(bytes.count, position + Int.random(in: 1...8, using: &rng))
            bytes.removeSubrange(position..<end)
        case 3 where !bytes.isEmpty:
            let end = min(bytes.count, position + Int.random(in: 1...16, using: &rng))
            bytes.insert(contentsOf: bytes[position..<end], at: position)
        default:
            bytes.removeSubrange(position...)
        }
    }

    /// A value whose containers nest at most `depth` levels.
    static func randomValue(_ rng: inout some RandomNumberGenerator, depth: Int) -> JSONValue {
        let kinds = depth > 0 ? 8 : 6
        switch Int.random(in: 0..<kinds, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(randomInteger(&rng))
        case 3: return .double(randomDouble(&rng))
        case 4, 5: return .string(randomString(&rng))
        case 6:
            return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in randomValue(&rng, depth: depth - 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                members[randomString(&rng)] = randomValue(&rng, depth: depth - 1)
            }
            return .object(members)
        }
    }

    /// Small numbers, the 64-bit edges, or any 64-bit pattern.
    static func randomInteger(_ rng: inout some RandomNumberGenerator) -> Int64 {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return Int64.random(in: -1000...1000, using: &rng)
        case 1: return [Int64.min, Int64.min + 1, Int64.max, Int64.max - 1, 0, -1].randomElement(using: &rng)!
        default: return Int64(bitPattern: rng.next())
        }
    }

    /// A finite double: a plain decimal, a tiny or huge one, or any finite 64-bit pattern.
    static func randomDouble(_ rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return Double(Int.random(in: -100_000...100_000, using: &rng)) / 100
        case 1:
            return [0.0, -0.0, 0.1, 1e300, -1e300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
                    -Double.greatestFiniteMagnitude, Double.leastNormalMagnitude, 9.223372036854775808e18]
                .randomElement(using: &rng)!
        default:
            while true {
                let candidate = Double(bitPattern: rng.next())
                if candidate.isFinite { return candidate }
            }
        }
    }

    /// Up to 12 scalars: ASCII, control characters, quotes and backslashes, the rest of the
    /// Basic Multilingual Plane and astral scalars (surrogate code points are not scalars).
    static func randomString(_ rng: inout some RandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            let value: UInt32
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: value = UInt32.random(in: 0x20...0x7E, using: &rng)
            case 1: value = UInt32.random(in: 0...0x1F, using: &rng)
            case 2: value = [0x22, 0x5C, 0x2F, 0x7F].randomElement(using: &rng)!
            case 3: value = UInt32.random(in: 0x80...0xFFFF, using: &rng)
            default: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
            }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
