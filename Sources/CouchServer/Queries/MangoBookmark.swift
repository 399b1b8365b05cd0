import CouchProtocol
import DocumentFormat
import Foundation

/// Where a `_find` page ended: the last row's sort values and document ID. The next page
/// resumes strictly after that key, so documents written or deleted between two requests
/// neither repeat a row nor make one be skipped (other than the ones that changed).
///
/// The token is the key as compact JSON (`[[values…], "id"]`, a field the document lacks
/// written as `[]`, one it has as `[value]`), base64url-encoded without padding. It is opaque
/// to clients; one that does not decode, or names another number of sort fields than the
/// query has, gets CouchDB's 400 `invalid_bookmark` before anything is read.
struct MangoBookmark: Equatable, Sendable {
    /// The last row's value of each sort field, `nil` where the document lacks the field.
    var sortValues: [JSONValue?]
    /// The last row's document ID.
    var id: String

    /// The longest token accepted; a real one is the size of one row's sort values.
    static let maximumTokenLength = 64 * 1024

    /// What CouchDB answers when there is no next page to point at.
    static let none = "nil"

    /// A bookmark of the key `sortValues` and `id`.
    init(sortValues: [JSONValue?], id: String) {
        self.sortValues = sortValues
        self.id = id
    }

    /// Decodes a token a client sent back for a query with `sortFieldCount` sort fields;
    /// `nil` for CouchDB's `"nil"` (start at the beginning).
    static func decode(_ token: String, sortFieldCount: Int) throws(CouchError) -> MangoBookmark? {
        if token == none || token.isEmpty { return nil }
        let invalid = CouchError(
            status: 400, error: "invalid_bookmark",
            reason: "Invalid bookmark value: " + JSONWriter.couchDB.string(.string(token)))
        guard token.utf8.count <= maximumTokenLength,
              token.utf8.allSatisfy({ isBase64URL($0) }) else { throw invalid }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let value = try? JSONValue.parse(data),
              let parts = value.arrayValue, parts.count == 2,
              let encodedValues = parts[0].arrayValue, encodedValues.count == sortFieldCount,
              let id = parts[1].stringValue else { throw invalid }
        var sortValues: [JSONValue?] = []
        for encoded in encodedValues {
            guard let wrapper = encoded.arrayValue, wrapper.count <= 1 else { throw invalid }
            sortValues.append(wrapper.first)
        }
        return MangoBookmark(sortValues: sortValues, id: id)
    }

    /// The token to send to the client.
    var token: String {
        let values: [JSONValue] = sortValues.map { $0.map { .array([$0]) } ?? .array([]) }
        let data = JSONWriter.couchDB.data(.array([.array(values), .string(id)]))
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): return true
        default: return false
        }
    }
}
