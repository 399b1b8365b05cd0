public import Foundation

/// The canonical JSON text used for revision hashes and stored bodies: object keys sorted by
/// their UTF-8 bytes, no whitespace, strings escaped minimally, numbers in Swift's shortest
/// round-trip form. The same value gives the same bytes on every machine.
///
/// A name for `JSONWriter.canonical`, kept because revision hashing and storage speak of it.
public enum CanonicalJSON {
    /// Encodes a value canonically. Non-finite doubles, which JSON cannot express, encode as
    /// `null` (the store refuses them on write).
    public static func encode(_ value: JSONValue) -> Data {
        JSONWriter.canonical.data(value)
    }

    /// Appends an object with its keys in UTF-8 byte order; `false` if it held a non-finite double.
    @discardableResult
    package static func appendObject(_ members: JSONObject, to out: inout [UInt8]) -> Bool {
        JSONWriter.canonical.appendObject(members, to: &out)
    }

    /// Keys in UTF-8 byte order, the order every replica agrees on.
    package static func sortedKeys(_ members: JSONObject) -> [String] {
        JSONWriter.sortedKeys(members)
    }
}
